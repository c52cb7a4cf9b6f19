"""``feedback``: an HTML page per student and notebook, built from the grading records.

Not nbgrader's ``generate_feedback``: its pages copy the hidden tests' source, and tracebacks
quote it. Pages go where nbgrader puts feedback, ``feedback/<student>/<assignment>/<notebook>.html``,
so that ``nbgrader release_feedback`` and the LMS exports find them; so never run the stock
``generate_feedback`` on this course, it would overwrite them.
"""
import pathlib

from .. import course as course_folders
from .page import render


def feedback(course=".", assignment="self_attention"):
    """Write every student's pages (a 'missing' page for a notebook not handed in); return their paths."""
    paths = []
    for record in course_folders.all_records(course, assignment):
        path = course_folders.folder(course, "feedback", record.student, assignment) / (
            pathlib.Path(record.notebook).stem + ".html")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(record), encoding="utf-8")
        paths.append(path)
    return paths
