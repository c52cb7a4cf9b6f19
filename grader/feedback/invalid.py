"""The feedback page of a notebook whose file could not be read: what was wrong with the file and what to do.

nbgrader has no notebook to make a page from, so the ``feedback`` verb writes this one, from a Jinja2
template (autoescaped), beside nbgrader's pages.
"""
import jinja2

from .. import course as courses
from ..records import read_all

ENVIRONMENT = jinja2.Environment(loader=jinja2.PackageLoader("grader.feedback", "templates"),
                                 autoescape=True, undefined=jinja2.StrictUndefined)


def invalid_page(record):
    """The HTML page for one notebook record whose status is 'invalid'."""
    return ENVIRONMENT.get_template("invalid_notebook.html.j2").render(record=record)


def write_invalid_pages(course, assignment):
    """A page per notebook handed in that could not be read, where nbgrader writes its own; return their paths."""
    pages = []
    for record in read_all(course, assignment):
        if record.status == "invalid":
            path = courses.folder(course, "feedback", record.student, assignment) / record.notebook.replace(
                ".ipynb", ".html")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(invalid_page(record), encoding="utf-8")
            pages.append(path)
    return pages
