"""``export``: the grades as CSV, one row per student and exercise, from the grading records."""
import csv
import pathlib

from ..course import all_records
from .lms import export_lms
from .rows import COLUMNS, rows


def export(course=".", assignment="self_attention", path=None, format="csv", column=None):
    """Write the grade table (default ``<course>/reports/<assignment>_grades.csv``); return its path.

    ``format`` canvas, moodle, blackboard or brightspace writes that LMS's grade import instead
    (see :func:`grader.export.lms.export_lms`; ``column`` names the LMS's grade column).

    A score that is not a real score (notebook missing, invalid, crashed, timed out...) is left
    blank, with the status and the reason beside it and ``needs_attention`` set to ``yes``.
    A tampered test cell keeps its score (graded on the instructor's copy) but needs attention.
    """
    if format != "csv":
        return export_lms(course, assignment, format, path, column)
    path = pathlib.Path(path or pathlib.Path(course) / "reports" / f"{assignment}_grades.csv")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows(all_records(course, assignment)))
    return path
