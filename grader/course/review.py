"""The grade table's notes: what a person must do about each student's notebooks, in the words of the table of
statuses (grader.records.statuses).

A score that is not real stays 0 in nbgrader's gradebook until a person acts: they grade the notebook again
(``python -m grader regrade --student <id> --notebook <notebook>``) or give a manual grade in formgrader, which
overrides it. Which notebooks were not handed in, and which the student changed, is read here from the grades for
the grade table, the class report and formgrader's list of submissions alike.
"""

import html

from nbformat.v4 import new_markdown_cell

from ..records import TEST_CELL, changed_cell
from ..records.statuses import GRADED, STATUSES

CHANGED_CELLS = (
    "{} (the instructor's cells graded; copies and added cells count as the student's plain cells), check it"
)


def to_do(notebook):
    """What a person must do about one :class:`grader.course.grades.NotebookGrade`, in words ('' when nothing)."""
    if notebook.status != GRADED:
        return STATUSES[notebook.status].to_do
    statuses = [c.status for c in notebook.cells if c.needs_attention and c.status != "tampered"]
    return "; ".join([STATUSES[s].to_do for s in dict.fromkeys(statuses)] + changed(notebook.tampered))


def changed(tampered):
    """What the student changed in the nbgrader cells, in words: test cells in one phrase, other cells named."""
    tests = [t for t in tampered if t.get("cell", TEST_CELL) == TEST_CELL]
    others = [changed_cell(t) for t in tampered if t.get("cell", TEST_CELL) != TEST_CELL]
    words = [STATUSES["tampered"].to_do] if tests else []
    if others:
        words.append(CHANGED_CELLS.format(", ".join(others)))
    return words


def not_handed_in(grades):
    """{student: [notebook file name, ...]} of every notebook not handed in, a student who handed in nothing's too."""
    return _notebooks_where(grades, lambda notebook: notebook.status == "missing")


def changed_by_student(grades):
    """{student: [notebook file name, ...]} of the notebooks whose nbgrader cells the student changed."""
    return _notebooks_where(grades, lambda notebook: bool(notebook.tampered))


def _notebooks_where(grades, found):
    notebooks = {}
    for notebook in grades:
        if found(notebook):
            notebooks.setdefault(notebook.student, []).append(notebook.notebook)
    return notebooks


def short_name(notebook):
    """A notebook as the grade table's notes name it: '01' for 01_attention_basics.ipynb."""
    return notebook.split("_")[0]


def notes(grades):
    """One line per student and notebook that needs a person: 'diego 01: timed out, regrade or grade by hand', and
    how late it was handed in, if late ('...; late by 2 hours 5 minutes'). A student who handed in nothing gets one
    line."""
    by_student = {}
    for notebook in grades:
        by_student.setdefault(notebook.student, []).append(notebook)
    lines = []
    for student, notebooks in sorted(by_student.items()):
        if all(n.status == "missing" for n in notebooks):
            lines.append(f"{student}: handed in nothing")
            continue
        for notebook in notebooks:
            if what := to_do(notebook):
                lines.append(f"{student} {short_name(notebook.notebook)}: {what}{lateness(notebook)}")
    return lines


def lateness(notebook):
    """'; late by 2 hours 5 minutes' (or '; late', when only nbgrader's late penalty says so); '' when on time."""
    if not notebook.late:
        return ""
    return f"; late by {notebook.late_by}" if notebook.late_by else "; late"


GRADER_NOTE = "attention_kit_grader_note"  # the metadata key of the grader's note, which the feedback page leaves out


def grader_note(tampered):
    """A Markdown cell for the top of an autograded notebook, which formgrader shows: each nbgrader cell the student
    changed, in words."""
    changes = "".join(f"<li>{html.escape(changed_cell(change))}</li>" for change in tampered)
    text = (
        "<b>For the grader: the student changed nbgrader cells of this notebook.</b> The released cells were "
        "graded as released (a changed test cell on your copy); a copy, or a cell the student marked for "
        f"grading, counts as a plain cell of theirs.<ul>{changes}</ul>"
    )
    return new_markdown_cell(text, metadata={GRADER_NOTE: True})


NOT_HANDED_IN = (
    "**Not handed in.** No file of this notebook was handed in, so its score is 0 and there is nothing "
    "here to grade. If the student hands it in later, run `python -m grader autograde` again: the "
    "notebook is then graded like the others and this note goes away."
)


def not_handed_in_note():
    """A Markdown cell for formgrader's view of a notebook that was never handed in: what it means and what to do."""
    return new_markdown_cell(NOT_HANDED_IN, metadata={GRADER_NOTE: True})
