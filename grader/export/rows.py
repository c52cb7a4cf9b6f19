"""The grade table: one row per student and graded cell, plus a row per late penalty.

Scores are the gradebook's; a score that is not real (notebook missing, crashed, timed out,
waiting for a manual grade...) is left blank, with the status (in the words of grader.records.statuses: "timed
out", "not written") and the reason beside it. The score column adds up, per student, to the score of
``nbgrader export``. Every row of a notebook handed in after the due date says how late in its ``late`` column
('2 hours 5 minutes'), with or without a late penalty; the column is empty when on time.
"""

from ..course import grades as course_grades
from ..records.statuses import STATUSES

COLUMNS = [
    "student",
    "notebook",
    "exercise",
    "grade_id",
    "kind",
    "score",
    "max_score",
    "status",
    "reason",
    "misconceptions",
    "needs_attention",
    "isolation",
    "late",
]
LATE = "late"


def rows(grades):
    """A row per graded cell of each notebook (one for the whole notebook if it has none), one per late penalty."""
    found = []
    for notebook in grades:
        found += [_row(notebook, cell) for cell in notebook.cells] or [_whole_notebook_row(notebook)]
        if notebook.late_penalty:
            found.append(_late_row(notebook))
    return found


def _row(notebook, cell):
    unplaced = any(t.get("grade_id") not in {c.grade_id for c in notebook.cells} for t in notebook.tampered)
    return {
        "student": notebook.student,
        "notebook": notebook.notebook,
        "exercise": cell.name,
        "grade_id": cell.grade_id,
        "kind": cell.kind,
        "score": _number(cell.score),
        "max_score": _number(cell.max_score),
        "status": STATUSES[cell.status].csv,
        "reason": cell.reason or "",
        "misconceptions": ";".join(cell.misconceptions),
        "needs_attention": "yes" if cell.needs_attention or unplaced else "no",
        "isolation": notebook.isolation or "",
        "late": _late(notebook),
    }


def _whole_notebook_row(notebook):
    """A notebook the gradebook knows no graded cell of (not released, say) still gets a row, so it is seen."""
    return {
        "student": notebook.student,
        "notebook": notebook.notebook,
        "exercise": "(whole notebook)",
        "grade_id": "",
        "kind": "",
        "score": "",
        "max_score": "0",
        "status": STATUSES[notebook.status].csv,
        "reason": notebook.reason or "",
        "misconceptions": "",
        "needs_attention": "yes",
        "isolation": notebook.isolation or "",
        "late": _late(notebook),
    }


def _late_row(notebook):
    return {
        "student": notebook.student,
        "notebook": notebook.notebook,
        "exercise": "(late penalty)",
        "grade_id": "",
        "kind": LATE,
        "score": _number(-min(notebook.late_penalty, notebook.raw_score)),
        "max_score": "0",
        "status": LATE,
        "reason": "handed in after the due date",
        "misconceptions": "",
        "needs_attention": "no",
        "isolation": notebook.isolation or "",
        "late": _late(notebook),
    }


def _late(notebook):
    """How late the notebook was handed in, in words; 'yes' when only nbgrader's late penalty says it was late
    (an extension given after grading); '' when on time."""
    return notebook.late_by or ("yes" if notebook.late else "")


def _number(value):
    return "" if value is None else f"{value:g}"


def table(course):
    """Every row of the course's grade table."""
    return rows(course_grades.course_grades(course))
