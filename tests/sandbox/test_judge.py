"""A plain test cell judged outside the student's process (issue 24): what crosses, what runs where, what shows.

One warm worker runs one notebook: the student's cells in the sandbox, the instructor's test cells in the judge,
which reads the student's names as it goes. Each test below reads one test cell's outputs.
"""

import json

import pytest

from grader.autograde.jobs import build_job
from grader.autograde.plain_tests import judged_inside_note, reaches_inside
from grader.sandbox.pool import Pool

from .judged import grade_test_cells

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

STUDENT = '''\
import numpy as np
import torch


def double(x):
    print("double of", x)
    return 2 * x


def checked(x):
    if x < 0:
        raise ValueError("no negative numbers here")
    return x


class Box:
    """A class of the student's own: its objects stay in the student's process."""

    def __init__(self, size):
        self.size = size

    def __len__(self):
        return self.size

    def __iter__(self):
        return iter(range(self.size))

    def __getitem__(self, index):
        return index * 10

    def __array__(self, dtype=None, copy=None):
        return np.arange(self.size, dtype=float)

    def weights(self):
        return {"w": torch.ones(self.size), 3: (1, "two")}


def helper(x):
    return "the student's helper"


len = lambda anything: 3
'''
TESTS = {
    "data": "assert double(2) == 4\nassert double(np.arange(3.0)).tolist() == [0.0, 2.0, 4.0]\n"
    "assert torch.equal(double(torch.ones(2)), torch.full((2,), 2.0))\nassert double('ab') == 'abab'",
    "objects": "box = Box(3)\nassert box.size == 3\nassert len(box) == 3 and list(box) == [0, 1, 2] and box[2] == 20\n"
    "assert np.asarray(box).tolist() == [0.0, 1.0, 2.0]\nweights = box.weights()\n"
    "assert torch.equal(weights['w'], torch.ones(3)) and weights[3] == (1, 'two')",
    "proxy_rules": "box = Box(2)\nassert box != Box(2) and box == box\ntry:\n    bool(box)\n"
    "except TypeError as error:\n"
    "    print('no truth value:', 'truth value' in str(error))\nprint(repr(box))",
    "errors": "try:\n    checked(-1)\nexcept ValueError as error:\n    print('caught', error)\nchecked(-2)",
    "builtins_and_own_names": "def helper(x):\n    return 'the test cell helper'\n\nassert len([1]) == 1",
    "own_names_later": "assert helper(1) == 'the test cell helper'\nnot_defined_anywhere",
    "value_shown": "double(21)",
    "cannot_cross": "double(object())",
    "inside": "assert 'double' in get_ipython().user_ns",
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """{test cell name: (unit kind, status, outputs)} of one notebook graded by one warm worker."""
    found, _ = grade_test_cells(STUDENT, TESTS, tmp_path_factory.mktemp("course"), {"unit_seconds": 20})
    return {name: (unit["kind"], done["status"], done.get("outputs")) for name, (unit, done) in found.items()}


def text(outputs):
    return "".join(o.get("text", "") for o in outputs if o["output_type"] == "stream")


def errors(outputs):
    return [o["ename"] for o in outputs if o["output_type"] == "error"]


def test_data_crosses_by_value_and_the_students_prints_show_in_the_cell(outputs):
    kind, status, shown = outputs["data"]
    assert (kind, status, errors(shown)) == ("judged", "ok", [])
    assert "double of 2\n" in text(shown) and "double of tensor([1., 1.])" in text(shown)


def test_the_students_objects_answer_calls_attributes_items_length_iteration_and_numbers(outputs):
    assert outputs["objects"][1:] == ("ok", [])


def test_an_object_of_the_students_own_equals_only_itself_and_has_no_truth_value(outputs):
    _, status, shown = outputs["proxy_rules"]
    assert (status, errors(shown)) == ("ok", [])
    assert text(shown) == "no truth value: True\n<Box made by the student's code>\n"


def test_the_students_errors_are_raised_in_the_test_cell_as_they_were_raised(outputs):
    _, status, shown = outputs["errors"]
    assert status == "ok" and text(shown) == "caught no negative numbers here\n"
    [error] = [o for o in shown if o["output_type"] == "error"]
    assert error["ename"] == "ValueError" and error["evalue"] == "no negative numbers here"
    traceback = "\n".join(error["traceback"])
    assert "Raised in your code" in traceback and "no negative numbers here" in traceback.split("Raised in")[1]
    assert "grader" not in traceback


def test_builtins_and_the_test_cells_own_names_are_never_the_students(outputs):
    assert outputs["builtins_and_own_names"][1:] == ("ok", [])
    assert errors(outputs["own_names_later"][2]) == ["NameError"]  # the helper passed; the unknown name did not


def test_a_value_the_students_code_shows_is_not_the_cells_value(outputs):
    _, status, shown = outputs["value_shown"]
    assert status == "ok" and [o["output_type"] for o in shown] == ["stream", "execute_result"]
    assert shown[-1]["data"]["text/plain"] == "42"


def test_an_object_of_the_test_cells_is_lent_to_the_students_code_and_fails_there_as_in_one_process(outputs):
    [error] = [o for o in outputs["cannot_cross"][2] if o["output_type"] == "error"]
    assert (error["ename"], error["evalue"]) == ("TypeError", "unsupported operand type(s) for *: 'int' and 'object'")
    assert not any("grader/sandbox" in line for line in error["traceback"])


def test_a_test_cell_that_reaches_into_the_students_process_runs_there(outputs):
    assert outputs["inside"][:2] == ("test", "ok") and errors(outputs["inside"][2]) == []


@pytest.mark.parametrize(
    "source,name",
    [
        ("assert double(2) == 4", None),
        ("%timeit double(2)", "get_ipython"),
        ("import inspect", "inspect"),
        ("torch.manual_seed(0)\nassert f(1)", None),
        ("np.random.seed(1)", None),
        ("dir()", None),
        ("from __main__ import f", None),
        ("assert In[-1]", "In"),
        ("def broken(:", None),
    ],
)
def test_which_test_cells_are_judged_in_the_students_process(source, name):
    assert reaches_inside(source) == name
    assert (judged_inside_note(source) is None) == (name is None)


def test_a_forged_answer_on_the_channel_is_the_cells_malformed_status(tmp_path):
    """A submission that answers the judge's requests itself (the sandbox's code is the student's to change)."""
    from nbformat.v4 import new_code_cell, new_notebook

    forge = new_code_cell(
        "import sys\n\ndef double(x):\n    return 2 * x\n\n"
        "sys.modules['grader.sandbox.crossing'].encode = lambda *args: {'__pickle__': 'x'}"
    )
    test = new_code_cell("assert double(2) == 4")
    test.metadata["nbgrader"] = {"grade_id": "t", "grade": True, "solution": False, "points": 1, "schema_version": 3}
    job, _ = build_job(new_notebook(cells=[forge, test]), tmp_path, {"notebook_seconds": 30})
    pool = Pool(1, "none")
    try:
        result = pool.run(job)
    finally:
        pool.close()
    assert result["units"][1]["status"] == "malformed", json.dumps(result)[:2000]
