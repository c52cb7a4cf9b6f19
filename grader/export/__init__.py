"""``export``: the grades as CSV, one row per student and graded cell, scores from nbgrader's gradebook."""

import pathlib

from ..course import Course
from .lms import export_lms, sheet
from .rows import COLUMNS, table


def export(course=".", assignment="self_attention", path=None, format="csv", column=None):
    """Write the grade table (default ``<course>/reports/<assignment>_grades.csv``); return its path.

    ``format`` canvas, moodle, blackboard or brightspace writes that LMS's grade import instead
    (see :func:`grader.export.lms.export_lms`; ``column`` names the LMS's grade column).

    A score that is not a real score (notebook missing, invalid, crashed, timed out, waiting for
    a manual grade...) is left blank, with the status and the reason beside it and
    ``needs_attention`` set to ``yes``. A tampered test cell keeps its score (graded on the
    instructor's copy) but needs attention. A late penalty is a row of its own, with a negative score. The ``late``
    column (the last) says, on every row of a notebook handed in after the due date, how late ('2 hours 5 minutes'),
    with or without a late penalty; it is empty when on time.
    Written as the LMS sheets are: nothing a spreadsheet would run as a formula.
    """
    course = Course.at(course, assignment)
    if format != "csv":
        return export_lms(course, format, path, column)
    path = pathlib.Path(path or course.reports / f"{course.assignment}_grades.csv")
    sheet.write(path, COLUMNS, [[row[column] for column in COLUMNS] for row in table(course)])
    return path
