"""What a person must do about each status that is not a real score: one decision, read by the gradebook
flags (formgrader) and the grade table's notes.

A score that is not real stays 0 in nbgrader's gradebook until a person acts: they regrade the
submission (``python -m grader autograde --force``) or give a manual grade in formgrader, which
overrides it.
"""
from .grades import NEEDS_MANUAL
from .records import GRADED, TEST_CELL, changed_cell

# Statuses whose zero is not a real score: nbgrader's "needs manual grade" is set on the cell.
NEEDS_A_PERSON = {"timeout", "crashed", "memory", "malformed", "not_run", "ungraded", "error", "invalid"}

TO_DO = {
    "timeout": "timed out, regrade or grade by hand",
    "crashed": "crashed, regrade or grade by hand",
    "memory": "ran out of memory, regrade or grade by hand",
    "malformed": "sent back answers the grader could not read (it interfered with the grader), grade by hand",
    "not_run": "stopped before a test cell, regrade or grade by hand",
    "ungraded": "could not be run, regrade or grade by hand",
    "error": "could not be graded, regrade",
    "invalid": "the file is not a readable notebook, ask for a new copy or grade by hand",
    "missing": "not handed in",
    "tampered": "a test cell was changed (graded on the instructor's copy), check it",
    NEEDS_MANUAL: "waiting for a manual grade in formgrader",
}
CHANGED_CELLS = "{} (the instructor's cells graded; copies and added cells count as the student's plain cells), check it"


def needs_a_person(notebook_status, cell_status):
    """True when a test cell's zero is not a real score: the whole notebook did not run, or the cell did not."""
    return notebook_status in NEEDS_A_PERSON or cell_status in NEEDS_A_PERSON


def to_do(notebook):
    """What a person must do about one :class:`grader.grades.NotebookGrade`, in words ('' when nothing)."""
    if notebook.status != GRADED:
        return TO_DO.get(notebook.status, notebook.reason or notebook.status)
    statuses = [c.status for c in notebook.cells if c.needs_attention and c.status != "tampered"]
    return "; ".join([TO_DO.get(s, s) for s in dict.fromkeys(statuses)] + changed(notebook.tampered))


def changed(tampered):
    """What the student changed in the nbgrader cells, in words: test cells in one phrase, other cells named."""
    tests = [t for t in tampered if t.get("cell", TEST_CELL) == TEST_CELL]
    others = [changed_cell(t) for t in tampered if t.get("cell", TEST_CELL) != TEST_CELL]
    words = [TO_DO["tampered"]] if tests else []
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
