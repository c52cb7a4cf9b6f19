"""A course an instructor extended: a plain nbgrader exercise, a kit-style exercise and a new notebook,
graded cell by cell as the student would see it running the notebook top to bottom.

The kit is copied (package, solutions, config) and extended the way the README's "Adding an
exercise" says; nbgrader's gradebook must give every graded cell the score it deserves.
"""

import shutil
import textwrap

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.demo.fill import fill, reference_answers

from ..course_builder import ASSIGNMENT, new_test_course
from ..kit_copy import copy_kit, run
from ..notebooks.test_notebooks import TEST_CELL

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

BASICS, CAUSAL, EXTRA = "01_attention_basics.ipynb", "04_causal_self_attention.ipynb", "06_extra.ipynb"

EXTRA_CHECKS = '''
"""06 · Extra exercises (06_extra.ipynb): a visible part, and a hidden one that compares with the solution
notebook's own row_sums."""
import numpy as np
import torch

from .. import reference
from ..checks.cases import Case, Part
from ..checks.judges import array_of, close
from ..checks.plain import TensorArg

NOTEBOOK = "06_extra.ipynb"


def _small():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)

    def judge(outcome):
        close(array_of(outcome, "Tensor", (2,), "floating", "row_sums(x)"), x.sum(-1), "row_sums(x)")
    return [Case("a (2, 3) matrix", judge, {"args": (TensorArg(x),), "kwargs": {}})]


# ---- hidden ----
def _random():
    x = np.random.default_rng(0).standard_normal((2, 4, 5)).astype(np.float32)
    expected = reference.of(NOTEBOOK).row_sums(torch.from_numpy(x)).numpy()

    def judge(outcome):
        close(array_of(outcome, "Tensor", (2, 4), "floating", "row_sums(x)"), expected, "row_sums(x)")
    return [Case("a batch (2, 4, 5)", judge, {"args": (TensorArg(x),), "kwargs": {}})]


PARTS = {"row_sums": [
    Part("sums each row of a (2, 3) matrix", 1, _small),
    Part("sums the last dimension of a batch", 2, _random, gate=True, hidden=True),
]}
'''

# The annotated Transformer's way: a helper named `attention`, which notebook 04's own code later
# replaces at top level (attention = F.softmax(...)). Graded where its test cell stands, it is right.
SDPA_WITH_HELPER = textwrap.dedent("""
    import math

    def attention(scores):
        return F.softmax(scores, dim=-1)

    def scaled_dot_product_attention(q, k, v, causal=True):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if causal:
            scores = causal_mask(scores)
        return attention(scores) @ v
""")


def _meta(grade_id, *, grade=False, solution=False, points=None, locked=False):
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def _answer(grade_id, source):
    return nbformat.v4.new_code_cell(source, metadata=_meta(grade_id, solution=True))


def _test(grade_id, source, points):
    return nbformat.v4.new_code_cell(source, metadata=_meta(grade_id, grade=True, points=points, locked=True))


def extend(kit):
    """The instructor's additions: a plain exercise in notebook 01, and a new notebook with one of each kind."""
    basics_path = kit / "solutions" / ASSIGNMENT / BASICS
    basics = nbformat.read(basics_path, as_version=4)
    basics.cells += [
        _answer("double", "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"),
        _test(
            "double_test",
            "assert double(2) == 4\n### BEGIN HIDDEN TESTS\nassert double(5) == 10\n### END HIDDEN TESTS",
            2,
        ),
    ]
    nbformat.write(basics, basics_path)
    extra = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# Extra exercises"),
            nbformat.v4.new_code_cell("import torch\nprint('ready')"),
            _answer(
                "row_sums",
                'def row_sums(x):\n    """The sum of each row: (..., n) -> (...)."""\n'
                "    ### BEGIN SOLUTION\n    return x.sum(dim=-1)\n    ### END SOLUTION",
            ),
            _test("row_sums_test", TEST_CELL.format(name="row_sums"), 3),
            _answer("triple", "def triple(x):\n    ### BEGIN SOLUTION\n    return 3 * x\n    ### END SOLUTION"),
            _test(
                "triple_test",
                "assert triple(1) == 3\n### BEGIN HIDDEN TESTS\nassert triple(4) == 12\n### END HIDDEN TESTS",
                1,
            ),
        ]
    )
    extra.metadata["kernelspec"] = basics.metadata["kernelspec"]
    nbformat.write(extra, kit / "solutions" / ASSIGNMENT / EXTRA)
    (kit / "grader" / "exercises" / "extra.py").write_text(EXTRA_CHECKS.lstrip())


def submission(kit, notebook, answers):
    release = nbformat.read(kit / "exercises" / ASSIGNMENT / notebook, as_version=4)
    solution = nbformat.read(kit / "solutions" / ASSIGNMENT / notebook, as_version=4)
    return fill(release, {**reference_answers(solution), **answers})


STUDENTS = {  # student: {notebook: answers by grade_id, or None for the untouched release}
    "right": {BASICS: {}, CAUSAL: {"scaled_dot_product_attention": SDPA_WITH_HELPER}, EXTRA: {}},
    "stub": {BASICS: None, EXTRA: None},
    "wrong": {
        BASICS: {"double": "def double(x):\n    return 3 * x"},
        EXTRA: {"row_sums": "def row_sums(x):\n    return x.sum(dim=0)", "triple": "def triple(x):\n    return 2 * x"},
    },
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    kit = copy_kit(new_test_course(tmp_path_factory.mktemp("extended") / "kit"), "grader")
    extend(kit)
    run(kit, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force", "--log-level=ERROR")
    for student, notebooks in STUDENTS.items():
        folder = kit / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        for notebook, answers in notebooks.items():
            if answers is None:
                shutil.copy(kit / "exercises" / ASSIGNMENT / notebook, folder)
            else:
                nbformat.write(submission(kit, notebook, answers), folder / notebook)
    # one grading process, as course_builder.autograde grades a test's class: a second one would start its own
    # sandbox worker to grade a class this small no faster
    run(kit, "-m", "grader", "autograde", "--course", str(kit), "--workers", "1")
    return kit


def gradebook_scores(kit):
    """{(student, notebook, grade_id): score} as nbgrader's gradebook has them."""
    with Gradebook(f"sqlite:///{kit / 'gradebook.db'}") as gradebook:
        return {
            (s.student.id, f"{nb.name}.ipynb", grade.name): grade.score
            for s in gradebook.assignment_submissions(ASSIGNMENT)
            for nb in s.notebooks
            for grade in nb.grades
        }


@pytest.mark.parametrize(
    "student,notebook,grade_id,score",
    [
        ("right", BASICS, "double_test", 2),
        ("stub", BASICS, "double_test", 0),
        ("wrong", BASICS, "double_test", 0),
        ("right", EXTRA, "triple_test", 1),
        ("stub", EXTRA, "triple_test", 0),
        ("wrong", EXTRA, "triple_test", 0),
        ("right", EXTRA, "row_sums_test", 3),
        ("stub", EXTRA, "row_sums_test", 0),
        ("wrong", EXTRA, "row_sums_test", 0),
        ("right", BASICS, "attention_scores_test", 3),
        ("stub", BASICS, "attention_scores_test", 0),
        ("right", CAUSAL, "scaled_dot_product_attention_test", 4),
    ],
)
def test_every_graded_cell_gets_the_score_it_deserves(kit, student, notebook, grade_id, score):
    assert gradebook_scores(kit)[student, notebook, grade_id] == score


def test_no_test_cell_is_left_unrun(kit):
    """Every test cell of every autograded notebook ran (an execution count) or says why not (an error)."""
    for path in sorted((kit / "autograded").glob(f"*/{ASSIGNMENT}/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and not meta.get("solution") and meta["grade_id"] in ("double_test", "triple_test"):
                assert cell.execution_count is not None, (path, meta["grade_id"])


def test_the_students_own_outputs_are_kept(kit):
    """Prints, values and figures of the student's cells reach the autograded notebook, as nbgrader's Execute."""
    nb = nbformat.read(kit / "autograded" / "right" / ASSIGNMENT / CAUSAL, as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    kinds = {o.output_type for o in outputs}
    assert {"stream", "execute_result", "display_data"} <= kinds
    assert any("tensor([ 1.4138, -0.3091])" in o.get("text", "") for o in outputs)
    assert any("image/png" in o.get("data", {}) for o in outputs), "a heatmap figure as a PNG"
    extra = nbformat.read(kit / "autograded" / "right" / ASSIGNMENT / EXTRA, as_version=4)
    assert extra.cells[1].outputs[0].text == "ready\n" and extra.cells[1].execution_count == 1


def test_a_failed_plain_test_shows_its_error(kit):
    nb = nbformat.read(kit / "autograded" / "wrong" / ASSIGNMENT / EXTRA, as_version=4)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "triple_test")
    assert [o.ename for o in cell.outputs if o.output_type == "error"] == ["AssertionError"]


def test_records_cover_every_test_cell(kit):
    from grader.records import read_all

    found = {(r.student, r.notebook): {e.grade_id: e.status for e in r.exercises} for r in read_all(Course.at(kit))}
    assert found["right", EXTRA] == {"row_sums_test": "graded", "triple_test": "graded"}
    assert found["wrong", BASICS]["double_test"] == "graded"


def test_the_export_and_the_table_agree_with_the_gradebook(kit):
    """Every graded cell of the extended course has the gradebook's score in the CSV; totals in the table."""
    import csv

    done = run(kit, "-m", "grader", "export", "--course", str(kit))
    assert done.returncode == 0, done.stderr
    with open(kit / "reports" / "self_attention_grades.csv", newline="") as table:
        exported = {
            (r["student"], r["notebook"], r["grade_id"]): float(r["score"])
            for r in csv.DictReader(table)
            if r["grade_id"] and r["score"]
        }
    assert exported == {key: score for key, score in gradebook_scores(kit).items() if key in exported}
    assert {key for key in gradebook_scores(kit) if key[1] == EXTRA} <= set(exported)
    assert exported["right", EXTRA, "row_sums_test"] == 3 and exported["wrong", EXTRA, "row_sums_test"] == 0
