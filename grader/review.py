"""The grade table's notes: what a person must do about each student's notebooks, in the words of the table of
statuses (grader.statuses).

A score that is not real stays 0 in nbgrader's gradebook until a person acts: they regrade the
submission (``python -m grader autograde --force``) or give a manual grade in formgrader, which
overrides it.
"""
from .records import TEST_CELL, changed_cell
from .statuses import GRADED, STATUSES

CHANGED_CELLS = "{} (the instructor's cells graded; copies and added cells count as the student's plain cells), check it"


def to_do(notebook):
    """What a person must do about one :class:`grader.grades.NotebookGrade`, in words ('' when nothing)."""
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


def notes(grades):
    """One line per student and notebook that needs a person: 'diego 01: timed out, regrade or grade by hand'.
    A student who handed in nothing gets one line."""
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
                lines.append(f"{student} {notebook.notebook.split('_')[0]}: {what}")
    return lines
