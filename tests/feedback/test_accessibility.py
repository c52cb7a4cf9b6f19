"""The feedback pages and the class report meet WCAG 2.1 AA: axe-core's WCAG 2.1 A and AA rules (and its rules on
headings) find nothing on them in headless Chromium (tests/accessibility.py).

A small class is graded and given feedback and a report as an instructor does: ada hands in notebook 02 right
(its heatmaps are figures on her page), ben notebook 01 with a softmax without ``dim`` (a diagnosis, and PyTorch's
warning, a line longer than the page) and another exercise that never returns (timed out: one page is the "wrong"
and the "timed out" page, one notebook graded for both) and dee a notebook 01 cut off halfway (not a notebook: the
page says what to do).

The course grades with the kit's own time limits, not the tests' shorter ones (course_builder.FAST_LIMITS): with
4 s for a cell, ada's heatmaps cell timed out on a loaded machine (at 15% of a core) and a correct student lost
points; with the kit's 10 s she keeps them. Ben's hang sleeps: the longer limit costs seconds of wall time, no CPU.
"""

import re

import bs4
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from nbgrader.converters import GenerateFeedback
from traitlets.config import Config

from grader.autograde.jobs import DEFAULT_LIMITS
from grader.course import Course
from grader.course.grades import NotebookGrade
from grader.demo.generate import RELEASE, SOLUTIONS, DemoNotebooks
from grader.feedback import feedback
from grader.feedback.exporter import FeedbackExporter
from grader.records import read_all
from grader.report import report, write_report
from grader.report.stats import class_stats

from ..accessibility import readable, violations
from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, submission, submit
from ..layout import laid_out
from ..review_class import STEP, broken_exercise, notebook_01

pytestmark = pytest.mark.sandbox  # the class is graded in sandboxes (conftest.py reads the mark per module)

IMPLICIT_SOFTMAX = {
    "softmax_scores": "import torch.nn.functional as F\n\n\ndef softmax_scores(scores):\n    return F.softmax(scores)\n"
}
STUDENTS = {
    "correct": ("ada", STEP),
    "wrong": ("ben", BASICS),
    "timed out": ("ben", BASICS),
    "not a notebook": ("dee", BASICS),
}
KIT_LIMITS = (
    f"\nc.SandboxExecute.unit_seconds = {DEFAULT_LIMITS['unit_seconds']}"
    f"\nc.SandboxExecute.notebook_seconds = {DEFAULT_LIMITS['notebook_seconds']}\n"
)


@pytest.fixture(scope="module")
def graded(released_course, tmp_path_factory):
    """The class's course, once autograded, given feedback and a report; {page's name: its file}, and the exercise
    that timed out."""
    course = make_course(released_course, tmp_path_factory.mktemp("accessibility") / "course")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(KIT_LIMITS)
    kit = DemoNotebooks(RELEASE, SOLUTIONS)
    hangs = broken_exercise(kit, besides=IMPLICIT_SOFTMAX)
    submit(course, "ada", submission(course, notebook=STEP), STEP)
    submit(course, "ben", notebook_01(kit, hangs, "loop_call", IMPLICIT_SOFTMAX))
    submit(course, "dee", (RELEASE / BASICS).read_text()[:500])
    done = autograde(course)
    assert done.returncode == 0, done.stderr[-3000:]
    feedback(course, ASSIGNMENT)
    pages = {
        name: course / "feedback" / student / ASSIGNMENT / notebook.replace(".ipynb", ".html")
        for name, (student, notebook) in STUDENTS.items()
    }
    return course, {**pages, "class report": report(course, ASSIGNMENT)}, hangs


@pytest.fixture(scope="module")
def found(graded):
    """{page's name: axe's violations on it}, the pages checked in one browser."""
    _, pages, _ = graded
    on = violations(*pages.values())
    return {name: on[page] for name, page in pages.items()}


@pytest.mark.slow
def test_the_class_is_what_the_pages_are_about(graded):
    """Each page shows what it is named for: a figure, a likely mistake and a long line, a timeout, a bad file."""
    course, pages, hangs = graded
    status = {(r.student, r.notebook): r for r in read_all(Course.at(course))}
    assert status["ada", STEP].status == "graded" and all(e.score == e.max_score for e in status["ada", STEP].exercises)
    ben = {e.name: e for e in status["ben", BASICS].exercises}
    assert ben[hangs].status == "timeout" and "ran out of time" in pages["timed out"].read_text()
    assert ben["softmax_scores"].status == "graded" and ben["softmax_scores"].score < ben["softmax_scores"].max_score
    assert status["dee", BASICS].status == "invalid"
    assert len(bs4.BeautifulSoup(pages["correct"].read_text(), "html.parser").find_all("img")) >= 2
    wrong = bs4.BeautifulSoup(pages["wrong"].read_text(), "html.parser")
    assert "Likely mistake" in wrong.get_text() and wrong.find("div", class_="output_stderr")


@pytest.mark.slow
@pytest.mark.parametrize("page", [*STUDENTS, "class report"])
def test_axe_finds_no_wcag_21_aa_violation(found, page):
    assert found[page] == [], f"axe-core on the {page} page:\n{readable({page: found[page]})}"


@pytest.mark.slow
def test_each_figure_says_which_cell_drew_it(graded):
    _, pages, _ = graded
    soup = bs4.BeautifulSoup(pages["correct"].read_text(), "html.parser")
    for image in soup.find_all("img"):
        cell = image.find_parent("div", class_="code_cell")
        prompt = " ".join(cell.find("div", class_="input_prompt").get_text().split()).rstrip(":")
        assert image["alt"] == f"A figure drawn by the code of cell {prompt}"


@pytest.mark.slow
def test_a_page_shows_its_maths_with_no_network(graded):
    """Ben's notebook 01 as generate_feedback wrote it, in Chromium with no network: it asks for nothing but
    itself, and every formula of the notebook is laid out by the browser, none left as LaTeX."""
    _, pages, _ = graded
    page = laid_out(pages["wrong"], "math")
    assert [url for url in page.requests if not url.startswith(("file:", "data:"))] == []
    assert len(page.elements) > 5 and all(e["width"] > 0 and e["height"] > 0 for e in page.elements)
    assert "$$" not in page.text and "\\frac" not in page.text


def kit_page(nb):
    """``nb``'s feedback page as nbgrader's ``generate_feedback`` configures the exporter (its template and
    resources), without a course."""
    config = GenerateFeedback(config=Config()).config
    resources = {"nbgrader": {"notebook": "01_attention_basics", "score": 1.0, "max_score": 2.0, "late_penalty": 0}}
    return bs4.BeautifulSoup(FeedbackExporter(config=config).from_notebook_node(nb, resources)[0], "html.parser")


def test_the_kits_page_names_its_language_its_figures_and_every_region_that_may_scroll():
    """What axe checks on a graded class, checked on the template alone (for ``make check``)."""
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    figures = new_code_cell(
        "plot(weights)",
        execution_count=7,
        outputs=[new_output("display_data", data={"image/png": png, "text/plain": "<Figure>"}) for _ in range(2)],
    )
    printed = new_code_cell(
        "print(x)\n1 / 0",
        execution_count=8,
        outputs=[
            new_output("stream", name="stdout", text="tensor([1., 2.])\n"),
            new_output("stream", name="stderr", text="UserWarning: " + "long " * 40 + "\n"),
            new_output("execute_result", data={"text/plain": "3"}, execution_count=8),
            new_output("error", ename="ZeroDivisionError", evalue="division by zero", traceback=["ZeroDivisionError"]),
        ],
    )
    soup = kit_page(new_notebook(cells=[figures, printed], metadata={"language_info": {"name": "python"}}))
    assert soup.html["lang"] == "en" and len(soup.find_all("h1")) == 1
    assert [image["alt"] for image in soup.find_all("img")] == [
        f"Figure {n} of 2 drawn by the code of cell In [7]" for n in (1, 2)
    ]
    regions = soup.find_all(attrs={"tabindex": "0"})
    assert [(r.name, r["role"], r["aria-label"]) for r in regions] == [
        ("div", "group", "Code of cell In [7]"),
        ("div", "group", "Code of cell In [8]"),
        ("pre", "group", "Output of cell In [8]"),
        ("pre", "group", "Warnings of cell In [8]"),
        ("pre", "group", "Output of cell In [8]"),
        ("pre", "group", "Error of cell In [8]"),
    ]
    assert all(pre.get("tabindex") == "0" for pre in soup.select("div.output_area pre"))
    assert re.search(r"\ba, a:visited \{[^}]*text-decoration: underline", str(soup.find_all("style")))


def test_the_reports_figures_say_what_they_show(tmp_path):
    """Not their file names: what they show, and where the page gives their numbers."""
    grades = [
        NotebookGrade(student, BASICS, "graded", None, score, 4, cells=[])
        for student, score in (("ann", 4), ("bo", 1), ("cem", 1.2))
    ]
    soup = bs4.BeautifulSoup(write_report(class_stats(grades), ASSIGNMENT, tmp_path).read_text(), "html.parser")
    alts = {image["src"]: image["alt"] for image in soup.find_all("img")}
    assert "(20 to 30%: 1; 30 to 40%: 1; 90 to 100%: 1)" in alts["scores.png"]
    headings = {heading.get_text() for heading in soup.find_all("h2")}
    for figure, table in (
        ("scores.png", "Students"),
        ("pass_rates.png", "Exercises"),
        ("misconceptions.png", "Misconceptions"),
    ):  # where the page gives the figure's numbers
        assert table in alts[figure] and table in headings
