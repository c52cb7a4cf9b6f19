"""The kit's handlers in formgrader: Manage Submissions (nbgrader's handler and template, with the kit's script),
the kit's words for each student of an assignment, and the script."""

import pathlib

import jinja2
from nbgrader.server_extensions.formgrader import handlers as nbgrader_pages
from nbgrader.server_extensions.formgrader.base import BaseApiHandler, check_notebook_dir, check_xsrf
from tornado import web

from ..course import Course
from ..course.grades import course_grades
from .words import labels

HERE = pathlib.Path(__file__).parent
# The kit's templates first; nbgrader's by their own names (its templates extend each other) and as nbgrader/<name>.
# No autoescape, as nbgrader renders them.
PAGES = jinja2.Environment(
    loader=jinja2.ChoiceLoader(
        [
            jinja2.FileSystemLoader(HERE / "templates"),
            jinja2.PrefixLoader({"nbgrader": jinja2.FileSystemLoader(nbgrader_pages.template_path)}),
            jinja2.FileSystemLoader(nbgrader_pages.template_path),
        ]
    )
)


class ManageSubmissions(nbgrader_pages.ManageSubmissionsHandler):
    """nbgrader's Manage Submissions page, rendered with the kit's template (nbgrader's, and the kit's script)."""

    def render(self, name, **values):
        return PAGES.get_template(name).render(**values)


class Labels(BaseApiHandler):
    """{student: [[kind, words], ...]} of an assignment, as JSON: grader.formgrader.words.labels."""

    @web.authenticated
    @check_xsrf
    @check_notebook_dir
    def get(self, assignment):
        self.finish(labels(course_grades(Course.at(self.coursedir.root, assignment))))


HANDLERS = [
    (r"/formgrader/manage_submissions/([^/]+)/?", ManageSubmissions),
    (r"/formgrader/kit/api/labels/([^/]+)", Labels),
    (r"/formgrader/kit/static/(.*)", web.StaticFileHandler, {"path": str(HERE / "static")}),
]
