"""``export``: the grades as CSV, one row per student and graded cell, scores from nbgrader's gradebook."""
import csv
import pathlib

from .rows import COLUMNS, table


def export(course=".", assignment="self_attention", path=None):
    """Write the grade table (default ``<course>/reports/<assignment>_grades.csv``); return its path.

    A score that is not a real score (notebook missing, invalid, crashed, timed out, waiting for
    a manual grade...) is left blank, with the status and the reason beside it and
    ``needs_attention`` set to ``yes``. A tampered test cell keeps its score (graded on the
    instructor's copy) but needs attention. A late penalty is a row of its own, with a negative score.
    """
    path = pathlib.Path(path or pathlib.Path(course) / "reports" / f"{assignment}_grades.csv")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(table(course, assignment))
    return path
