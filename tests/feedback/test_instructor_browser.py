"""No script from a submission runs in the instructor's browser (formgrader) or in a feedback page.

Mallory's notebook 01 carries scripts in outputs of every type (HTML, JavaScript, Markdown, SVG,
LaTeX), in a Markdown cell and in its attachments, and her name in the roster holds more; Grace
has the same answers without them. Both are autograded and given feedback as an instructor does;
the pages are opened in headless Chromium, formgrader's from a real Jupyter server, and their DOM
read for the marks a payload leaves when it runs, each page once. Feedback is written by the verb's function,
in-process; the command line around it is run end to end by tests/autograde/test_new_exercise.py.
"""

import html
import re
import urllib.request

import nbformat
import pytest

from grader.course import Course
from grader.course.gradebook import read_scores
from grader.feedback import feedback

from .. import html_payloads as payloads
from ..browser import dump_dom
from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, submission, submit
from ..jupyter_server import jupyter_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

MALLORY, GRACE = "mallory", "grace"
WRONG = {"softmax_scores": "def softmax_scores(scores):\n    return F.softmax(scores, dim=0)\n"}  # a likely mistake


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("browser") / "course")
    with Course.at(course).gradebook() as book:
        book.update_or_create_student(MALLORY, **payloads.NAMES)
    submit(course, MALLORY, payloads.with_payloads(payloads.with_good_outputs(submission(course, WRONG))))
    submit(course, GRACE, payloads.with_good_outputs(submission(course, WRONG)))
    graded = autograde(course)
    assert graded.returncode == 0, graded.stderr[-3000:]
    feedback(course, ASSIGNMENT)
    return course


@pytest.fixture(scope="module")
def server(course):
    with jupyter_server(course) as running:
        yield running


@pytest.fixture(scope="module")
def doms(course, server):
    """{(page, student): its DOM once its scripts ran}: the feedback page and formgrader's view of each student's
    notebook, each opened once."""
    return {
        (where, student): dump_dom(url)
        for student in (MALLORY, GRACE)
        for where, url in (
            ("feedback", feedback_page(course, student).as_uri()),
            ("formgrader", server.link(formgrader_path(course, student))),
        )
    }


def feedback_page(course, student):
    return course / "feedback" / student / ASSIGNMENT / BASICS.replace(".ipynb", ".html")


def formgrader_path(course, student):
    with Course.at(course).gradebook() as book:
        notebook_id = book.find_submission_notebook(BASICS.removesuffix(".ipynb"), ASSIGNMENT, student).id
    return f"formgrader/submissions/{notebook_id}/"


def fetch(server, path):
    with urllib.request.urlopen(server.link(path), timeout=60) as answer:
        return answer.read().decode()


def test_the_payloads_earn_nothing_and_cost_nothing(course):
    notebook = BASICS.removesuffix(".ipynb")
    scores = {s.student: s for s in read_scores(Course.at(course)).notebook_scores if s.notebook == notebook}
    cells = {
        student: [
            (c.grade_id, c.score)
            for c in read_scores(Course.at(course)).cell_scores
            if (c.student, c.notebook) == (student, notebook)
        ]
        for student in (MALLORY, GRACE)
    }
    assert 0 < scores[MALLORY].score == scores[GRACE].score < scores[MALLORY].max_score
    assert cells[MALLORY] == cells[GRACE]


def test_the_autograded_notebook_keeps_no_active_output(course):
    nb = nbformat.read(course / "autograded" / MALLORY / ASSIGNMENT / BASICS, as_version=4)
    kinds = {
        kind
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind in output.get("data", {})
    }
    assert kinds <= {"text/plain", "text/html", "text/markdown", "text/latex", "image/png", "image/jpeg"}, kinds
    shown = [
        value
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind, value in output.get("data", {}).items()
        if kind in ("text/html", "text/markdown")
    ]
    assert any(payloads.TOKEN in value for value in shown), "the payloads stay, as text"
    assert [found for value in shown for found in payloads.active_content(value)] == []
    metadata = [str(output.get("metadata")) for cell in nb.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not any(payloads.TOKEN in text for text in metadata), "no image size or file name from the submission"


def test_no_payload_runs_in_the_feedback_page(course, doms):
    dom = doms["feedback", MALLORY]
    assert (payloads.ran(dom), payloads.active_content(feedback_page(course, MALLORY).read_text())) == ([], [])
    assert payloads.TOKEN in dom, "the page shows the submission"


def test_no_payload_runs_in_formgraders_view_of_the_submission(course, server, doms):
    dom = doms["formgrader", MALLORY]
    assert (payloads.ran(dom), payloads.active_content(fetch(server, formgrader_path(course, MALLORY)))) == ([], [])
    assert payloads.TOKEN in dom and "formgrade" in dom, "formgrader shows the submission"
    assert html.escape(payloads.NAMES["last_name"], quote=False) in dom, "and the student's name, as text"


@pytest.mark.parametrize("student", [GRACE, MALLORY])
def test_a_students_text_tables_figures_and_tensors_still_show(course, doms, student):
    for where in ("feedback", "formgrader"):
        dom = doms[where, student]
        assert payloads.GOOD_TENSOR in dom, where
        assert re.search(r'<img [^>]*src="data:image/png;base64,', dom), where  # the student's figure
        assert "<h2" in dom and "<table" in dom and "<p>" in dom, where  # the notebook's text
        assert not any(f"&lt;{tag}" in dom for tag in ("h2", "table", "p&gt;", 'img src="data')), where
    feedback = feedback_page(course, student).read_text()
    assert "<b>Likely mistake:</b>" in feedback and "kit-diagnosis" in feedback  # the kit's own words, as HTML
