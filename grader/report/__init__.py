"""``report``: class analytics from the gradebook's scores and the records' diagnoses, as PNG figures and a page."""

import pathlib

from ..course import SIMILARITY_PAGE, Course
from ..course.grades import course_grades
from .directions import Directions
from .page import render
from .stats import class_stats
from .words import notebook_titles

FIGURES = {"scores.png": "score_histogram", "pass_rates.png": "pass_rates", "misconceptions.png": "misconceptions"}


def report(course=".", assignment="self_attention", out=None):
    """Write the figures and ``index.html`` to ``out`` (default ``<course>/reports/<assignment>/``); return the page."""
    course = Course.at(course, assignment)
    directions = Directions.of(course)
    out = pathlib.Path(out or course.reports / course.assignment)
    released = course.released_notebooks()
    stats = class_stats(course_grades(course, released), notebook_titles(released))
    return write_report(stats, course.assignment, out, directions)


def write_report(stats, assignment, out, directions=None):
    """The figures and the page of ``stats`` in folder ``out``, its commands and links by ``directions``
    (:class:`~grader.report.directions.Directions`; default: the course in the folder a command runs in, no
    formgrader address); return the page."""
    from . import plots  # matplotlib, imported by the one verb that draws: every other command starts sooner

    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figures = {name: getattr(plots, draw)(stats, out / name) for name, draw in FIGURES.items()}  # name: alt text
    page = out / "index.html"
    similarity = SIMILARITY_PAGE if (out / SIMILARITY_PAGE).is_file() else None  # linked once it is there
    page.write_text(
        render(assignment, stats, figures, directions or Directions(assignment), similarity), encoding="utf-8"
    )
    return page
