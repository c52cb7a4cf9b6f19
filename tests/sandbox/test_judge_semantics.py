"""The judge keeps stock nbgrader's one-process semantics where real courses' test cells lean on them (issue 49):
the notebook's folder and the course's modules, files the student's code writes, string arrays, functions and
types handed to the student's code, globals the test cell assigns or deletes, the namespace as a whole
(``globals()``, ``dir()``, ``__main__``), arithmetic on the student's numbers and one set of random generators.
Each test cell below passes for a right answer in stock nbgrader.

One warm worker grades one notebook in a folder that holds a course module and a data file; each test reads one
test cell's outcome: the judge's outputs and the second opinion of the same cell run in the student's process.
"""

import pytest

from .judged import grade_test_cells

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

HELPER = "def close_to(a, b):\n    return abs(a - b) < 1e-6\n"
STUDENT = """\
import fractions
import os
import types

import numpy as np
import torch

import course_helper

A = np.eye(2)
first_line = open("numbers.csv").read().splitlines()[0]


def solve(b):
    return np.linalg.solve(A, b)


def save(path, text):
    with open(path, "w") as file:
        file.write(text)


def total_length(words):
    return int(sum(len(word) for word in words))


def newton(f, df, x):
    for _ in range(50):
        x = x - f(x) / df(x)
    return x


def helper(x):
    return x + 1


def uses_helper(x):
    return helper(x) * 2


def third():
    return fractions.Fraction(1, 3)


def layer():
    return torch.nn.Linear(3, 2)


def make(numpy_type, torch_dtype, numpy_dtype, kind):
    return (np.zeros(1, dtype=numpy_type).dtype.name, str(torch.zeros(1, dtype=torch_dtype).dtype),
            np.zeros(1, dtype=numpy_dtype).dtype.name, kind(3.5))


def build(kind, value):
    return kind(value)


def listing():
    return sorted(os.listdir("."))


def module_named():
    return types.ModuleType("venv.__main__")
"""
TESTS = {
    "listing": "assert [name for name in listing() if name != '__pycache__'] == ['course_helper.py', 'numbers.csv']",
    "course_module": "from course_helper import close_to\nassert close_to(solve(np.array([2.0, 4.0]))[1], 4.0)",
    "data_file": "assert first_line == '1,2,3' and open('numbers.csv').read().startswith('1,2,3')",
    "written_file": "save('answer.txt', 'hello')\nassert open('answer.txt').read() == 'hello'",
    "string_array": "assert total_length(np.array(['ab', 'cde'])) == 5",
    "functions_handed": "root = newton(lambda x: x ** 2 - 2, lambda x: 2 * x, 1.0)\nassert abs(root - 2 ** 0.5) < 1e-9",
    "global_assigned": "A = np.array([[2.0, 0.0], [0.0, 4.0]])\n"
    "assert np.allclose(solve(np.array([2.0, 4.0])), [1, 1])",
    "global_deleted": "assert uses_helper(1) == 4\nsaved = helper\ndel helper\ntry:\n    uses_helper(1)\n"
    "except NameError:\n    print('calls helper')\nelse:\n    raise AssertionError('no helper')\n"
    "finally:\n    helper = saved\nassert uses_helper(1) == 4",
    "arithmetic": "x = third()\nassert abs(float(x * 3) - 1) < 1e-12 and float(x + x) < 1 and -x < 0",
    "seeded": "torch.manual_seed(0)\nx = torch.randn(4, 3)\nweights = layer().weight.detach()\n"
    "torch.manual_seed(0)\nsame_x = torch.randn(4, 3)\nexpected = torch.nn.Linear(3, 2).weight.detach()\n"
    "assert torch.equal(x, same_x) and torch.equal(weights, expected)",
    "types_handed": "x = make(np.float32, torch.float64, np.dtype('int16'), int)\n"
    "assert x == ('float32', 'torch.float64', 'int16', 3)",
    "namespace_whole": "assert 'uses_helper' in globals() and 'nothing_here' not in globals()\n"
    "assert globals().get('third') is not None and 'solve' in dir() and 'A' in vars()\n"
    "from __main__ import total_length as same\nassert same(['ab']) == 2",
    "class_handed": "class Point:\n    def __init__(self, x):\n        self.x = x\n\n\nassert build(Point, 3).x == 3",
    "module_by_name": "m = module_named()\nprint(repr(m))",
    "proxy_equality": "import fractions\nassert third() == fractions.Fraction(1, 3)",
    "wrong_in_both": "assert total_length(np.array(['a'])) == 5",
}
SECOND_OPINIONS = ("proxy_equality", "wrong_in_both")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """{test cell name: unit result} of one notebook graded by one warm worker in a folder with a course module."""
    root = tmp_path_factory.mktemp("course")
    source, folder = root / "source" / "ps1", root / "autograded" / "student" / "ps1"
    for where in (source, folder):
        where.mkdir(parents=True)
        (where / "course_helper.py").write_text(HELPER)
        (where / "numbers.csv").write_text("1,2,3\n4,5,6\n")
    (folder / "00_earlier.ipynb").write_text('{"cells": ["the hidden tests of a notebook graded before"]}')
    found, student = grade_test_cells(
        STUDENT, TESTS, root, {"unit_seconds": 20, "notebook_seconds": 120}, folder=folder, source=source
    )
    assert student["status"] == "ok" and not errors(student["outputs"]), student
    return {name: done for name, (_, done) in found.items()}


def errors(outputs):
    return [f"{o['ename']}: {o['evalue']}" for o in outputs if o["output_type"] == "error"]


def text(outputs):
    return "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")


@pytest.mark.parametrize("name", [name for name in TESTS if name not in ("module_by_name", *SECOND_OPINIONS)])
def test_a_right_answer_passes_in_the_judge_as_in_stock_nbgrader(graded, name):
    unit = graded[name]
    assert unit["status"] == "ok"
    assert errors(unit["outputs"]) == [], unit["outputs"]
    assert "inside" not in unit  # passed: no second opinion


def test_a_test_cell_the_judge_fails_gets_a_second_opinion_run_as_stock_nbgrader_runs_it(graded):
    """A proxy equals only itself, where the student's Fraction equals the test's in one process: the two
    outcomes differ (grader/autograde/outputs.py flags the cell). A wrong answer fails both ways."""
    equality, wrong = graded["proxy_equality"], graded["wrong_in_both"]
    assert [e.split(":")[0] for e in errors(equality["outputs"])] == ["AssertionError"] and errors(
        equality["inside"]
    ) == []
    assert errors(wrong["outputs"]) and errors(wrong["inside"])
    assert not any("assert" in o.get("text", "") for o in equality["inside"])


def test_deleting_a_global_in_the_test_cell_deletes_it_for_the_students_code(graded):
    assert text(graded["global_deleted"]["outputs"]) == "calls helper\n"


def test_a_module_the_student_names_is_never_imported_by_the_judge(graded):
    """venv's __main__ would run venv's command line where the judge runs, outside the sandbox."""
    shown = text(graded["module_by_name"]["outputs"])
    assert shown == "<module made by the student's code>\n", graded["module_by_name"]


def test_the_judge_looks_a_module_up_only_among_those_it_has_loaded():
    import sys

    from grader.sandbox.judge import _loaded_module

    assert _loaded_module("venv.__main__") is None and "venv.__main__" not in sys.modules
    assert _loaded_module("numpy") is sys.modules["numpy"]
    assert _loaded_module("grader.sandbox.judge") is None and _loaded_module("__main__") is None


def test_a_cell_whose_two_outcomes_differ_is_flagged_for_a_person_with_both(graded):
    """The judge's score stands in the gradebook; the record says both outcomes and asks for a manual grade."""
    import nbformat

    from grader.autograde.outputs import ran_cell, test_record
    from grader.records.statuses import STATUSES

    cell = nbformat.v4.new_code_cell(TESTS["proxy_equality"])
    cell.metadata["nbgrader"] = {
        "grade_id": "proxy_equality",
        "grade": True,
        "solution": False,
        "points": 2,
        "schema_version": 3,
    }
    ran_cell(cell, graded["proxy_equality"])
    record = test_record(cell, graded["proxy_equality"])
    assert (record.status, record.score, STATUSES[record.status].manual) == ("disputed", 0.0, True)
    assert record.reason == (
        "judged outside the student's process: 0 of 2 points (AssertionError: ); run in the "
        "student's notebook as stock nbgrader runs it: 2 of 2 points"
    )
    wrong = nbformat.v4.new_code_cell(TESTS["wrong_in_both"])
    wrong.metadata["nbgrader"] = {**cell.metadata["nbgrader"], "grade_id": "wrong_in_both"}
    ran_cell(wrong, graded["wrong_in_both"])
    assert test_record(wrong, graded["wrong_in_both"]).status == "graded"
