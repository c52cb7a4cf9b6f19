"""No pasted or added nbgrader cell stops the class: a copied answer cell, and a graded answer, a locked cell and a
written answer of the student's own (each stopped nbgrader's autograde for that student) are graded against the
instructor's cells, reported as what the student changed, in words, and flagged in formgrader."""

import copy

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell

from grader.autograde.table import grade_table
from grader.course import Course
from grader.records import read_all
from grader.tutor.page import notebook_notes

from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, submission, submit

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

NB01 = BASICS.removesuffix(".ipynb")
ANSWER = "softmax_scores"
DRAFT = "def softmax_scores(scores):\n    return scores  # a draft\n"
ADDED = {  # student: (their cell, its labels, what the record says)
    "graded": (
        new_code_cell("print('a bonus')"),
        {"solution": True, "grade": True, "points": 10},
        "graded answer cell",
    ),
    "locked": (new_code_cell("notes = 'mine'"), {"locked": True}, "locked cell"),
    "written": (
        new_markdown_cell("Scaling keeps the softmax soft."),
        {"solution": True, "grade": True, "points": 2},
        "written answer cell",
    ),
}
CHANGED = {
    "copied": [{"grade_id": ANSWER, "change": "duplicated", "cell": "answer cell"}],
    **{student: [{"grade_id": "mine", "change": "added", "cell": kind}] for student, (_, _, kind) in ADDED.items()},
}


def index(nb, grade_id):
    return next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def copied(course):
    """The answer cell copied twice, as JupyterLab pastes (a new cell id, the same labels): a draft above the
    original, which stays correct, and an exact copy at the end."""
    nb = submission(course)
    original = nb.cells[index(nb, ANSWER)]
    for at, source, cell_id in [(index(nb, ANSWER), DRAFT, "pasted-above"), (len(nb.cells), None, "pasted-end")]:
        cell = copy.deepcopy(original)
        cell.id, cell.source = cell_id, source or cell.source
        nb.cells.insert(at, cell)
    return nb


def with_own_cell(course, cell, flags):
    nb = submission(course)
    cell = copy.deepcopy(cell)
    cell.metadata["nbgrader"] = {
        "grade_id": "mine",
        "grade": False,
        "solution": False,
        "locked": False,
        "task": False,
        "schema_version": 3,
        **flags,
    }
    nb.cells.insert(index(nb, f"{ANSWER}_test") + 1, cell)
    return nb


@pytest.fixture(scope="module")
def graded(released_course, tmp_path_factory):
    """The class, graded once: (course, autograde's finished process)."""
    course = make_course(released_course, tmp_path_factory.mktemp("pasted") / "course")
    submit(course, "copied", copied(course))
    for student, (cell, flags, _) in ADDED.items():
        submit(course, student, with_own_cell(course, cell, flags))
    return course, autograde(course)


def test_the_whole_class_is_graded_and_the_table_printed(graded):
    course, done = graded
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.split(" ")[0] in CHANGED}
    assert sorted(rows) == sorted(CHANGED)
    assert all(row.split()[1] == "24/24" for row in rows.values()), rows


def test_each_change_is_recorded_as_what_the_student_changed(graded):
    course, _ = graded
    assert {r.student: r.tampered for r in read_all(Course.at(course)) if r.notebook == BASICS} == CHANGED


def test_each_student_is_flagged_in_formgrader_and_keeps_real_scores(graded):
    course, _ = graded
    with Course.at(course).gradebook() as book:
        for student in CHANGED:
            notebook = book.find_submission_notebook(NB01, ASSIGNMENT, student)
            assert notebook.flagged, student
            assert notebook.score == notebook.max_score == 24, student
            assert not any(grade.needs_manual_grade for grade in notebook.grades), student
            assert "mine" not in {grade.name for grade in notebook.grades}


def test_the_original_answer_keeps_its_label_and_the_copies_are_the_students_own_cells(graded):
    course, _ = graded
    nb = nbformat.read(course / "autograded" / "copied" / ASSIGNMENT / BASICS, as_version=4)
    answer = index(nb, ANSWER)
    assert nb.cells[answer + 1].metadata["nbgrader"]["grade_id"] == f"{ANSWER}_test"
    assert nb.cells[answer].source == submission(course).cells[index(submission(course), ANSWER)].source
    copies = [c for c in nb.cells if c.source.startswith("def softmax_scores(") and c is not nb.cells[answer]]
    assert len(copies) == 2 and not any(c.metadata.get("nbgrader") for c in copies)
    for student in ADDED:
        nb = nbformat.read(course / "autograded" / student / ASSIGNMENT / BASICS, as_version=4)
        mine = nb.cells[index(nb, f"{ANSWER}_test") + 1]
        assert mine.source == ADDED[student][0].source and not mine.metadata.get("nbgrader"), student


def test_the_grade_table_and_the_feedback_say_what_was_changed(graded):
    course, _ = graded
    notes = grade_table(Course.at(course)).split("Needs attention:")[1]
    assert "copied 01: the answer cell softmax_scores was duplicated" in notes
    assert "graded 01: the graded answer cell mine was added" in notes
    assert "locked 01: the locked cell mine was added" in notes
    assert "written 01: the written answer cell mine was added" in notes
    assert "a test cell was changed" not in notes
    records = {r.student: r for r in read_all(Course.at(course)) if r.notebook == BASICS}
    assert "The answer cell <code>softmax_scores</code> was duplicated" in notebook_notes(records["copied"])
    assert "The written answer cell <code>mine</code> was added" in notebook_notes(records["written"])
