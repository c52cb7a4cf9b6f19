"""formgrader, the class report and autograde's grade table name the same notebooks as not handed in and the same
students as having changed nbgrader cells, and each says so in words.

Ann hands in notebook 01, right; Tam hands in notebook 01 with a test cell edited; Bo is in the gradebook (his
name from the LMS holds markup) and hands in nothing. After one ``autograde``, the grade table's notes, the class
report and formgrader's Manage Submissions (a real Jupyter server with the kit's environment's extensions, opened in
headless Chromium) are read each in its own words and compared with what the class handed in. The report's
commands parse as the command line parses them and select the notebook they name; its links, with the course's
formgrader address set, open that formgrader's page of the student."""

import re
import shlex

import bs4
import pytest

from grader.autograde.table import grade_table
from grader.cli import parser
from grader.course import Course
from grader.demo.broken import tamper
from grader.demo.generate import RELEASE, SOLUTIONS, DemoNotebooks
from grader.records.statuses import STATUSES
from grader.regrade.select import select
from grader.report import report

from .. import html_payloads as payloads
from ..browser import dump_dom
from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, submit
from ..jupyter_server import jupyter_server
from ..review_class import broken_exercise, notebook_01

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

ANN, TAM, BO = "ann", "tam", "bo"
CHANGED = STATUSES["tampered"].to_do  # the grade table's and the report's words for an edited test cell


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("lists") / "course")
    with Course.at(course).gradebook() as book:
        book.update_or_create_student(BO, **payloads.NAMES)
    kit = DemoNotebooks(RELEASE, SOLUTIONS)
    submit(course, ANN, notebook_01(kit))
    edited = notebook_01(kit)
    tamper(edited, "edited_test", broken_exercise(kit))
    submit(course, TAM, edited)
    graded = autograde(course)
    assert graded.returncode == 0, graded.stderr[-3000:]
    return course


@pytest.fixture(scope="module")
def notebooks(course):
    return sorted(Course.at(course).released_exercises())


@pytest.fixture(scope="module")
def handed_in(notebooks):
    """What the class handed in, as the test made it: (not handed in, changed), each {(student, notebook)}."""
    missing = {(student, nb) for student in (ANN, TAM) for nb in notebooks if nb != BASICS}
    return missing | {(BO, nb) for nb in notebooks}, {(TAM, BASICS)}


@pytest.fixture(scope="module")
def server(course):
    with jupyter_server(course, token=False) as running:  # formgrader's scripts call its API: no token to pass on
        yield running


@pytest.fixture(scope="module")
def page(course, server):
    """The class report, written with the course's formgrader address set (``c.ClassReport.formgrader_url``)."""
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(f"\nc.ClassReport.formgrader_url = {server.link('formgrader')!r}\n")
    return bs4.BeautifulSoup(report(course, ASSIGNMENT).read_text(), "html.parser")


@pytest.fixture(scope="module")
def manage_submissions(server):
    """formgrader's Manage Submissions of the assignment, once its scripts ran: its DOM."""
    return dump_dom(server.link(f"formgrader/manage_submissions/{ASSIGNMENT}"), budget_ms=20000)


def words(node):
    return " ".join(node.get_text(" ").split())


def by_number(notebooks):
    return {nb.split("_")[0]: nb for nb in notebooks}


def table_lists(course, notebooks):
    """(not handed in, changed) as the grade table's notes say them: 'ann 02: not handed in', 'bo: handed in
    nothing', 'tam 01: a test cell was changed (...), check it'."""
    notes = grade_table(Course.at(course)).split("Needs attention:")[1].strip().splitlines()
    missing, changed = set(), set()
    for line in map(str.strip, notes):
        if line.endswith(": handed in nothing"):
            missing |= {(line.removesuffix(": handed in nothing"), nb) for nb in notebooks}
            continue
        student, number, what = re.fullmatch(r"(\S+) (\S+): (.*)", line).groups()
        notebook = by_number(notebooks)[number]
        if what == STATUSES["missing"].to_do:
            missing.add((student, notebook))
        if CHANGED in what:
            changed.add((student, notebook))
    return missing, changed


def report_lists(soup):
    """(not handed in, changed) as the class report lists them: its table of notebooks not handed in, and the
    rows of "Needs a person" whose words say a cell was changed."""
    missing = {(words(row[0]), notebook) for row in rows(soup, "missing") for notebook in words(row[1]).split(", ")}
    changed = {(words(row[0]), words(row[1])) for row in rows(soup, "needs") if CHANGED in words(row[2])}
    return missing, changed


def rows(soup, name):
    table = soup.find("table", class_=name)
    return [tr.find_all("td") for tr in table.find_all("tr")[1:]] if table else []


def formgrader_rows(dom):
    """{student id: [the words of each label in the Status column]} of formgrader's Manage Submissions."""
    soup = bs4.BeautifulSoup(dom, "html.parser")
    return {
        tr.select_one("td.student-id").get_text(): [words(label) for label in tr.select("td.status .label")]
        for tr in soup.select("#main-table tr")
        if tr.select_one("td.student-id")
    }


def formgrader_lists(dom, notebooks):
    """(not handed in, changed) as formgrader's Manage Submissions says them: 'not handed in' (every notebook),
    'not handed in: 02, 03', 'changed by the student: 01'."""
    missing, changed = set(), set()
    for student, labels in formgrader_rows(dom).items():
        for label in labels:
            what, _, numbers = label.partition(": ")
            named = [by_number(notebooks)[n] for n in numbers.split(", ")] if numbers else notebooks
            if what == "not handed in":
                missing |= {(student, nb) for nb in named}
            if what == "changed by the student":
                changed |= {(student, nb) for nb in named}
    return missing, changed


def test_the_grade_table_the_report_and_formgrader_name_the_same_notebooks(
    course, notebooks, handed_in, page, manage_submissions
):
    table = table_lists(course, notebooks)
    assert table == handed_in
    assert report_lists(page) == table
    assert formgrader_lists(manage_submissions, notebooks) == table


def test_manage_submissions_says_not_handed_in_and_changed_in_place_of_graded(manage_submissions):
    assert "/formgrader/kit/static/manage_submissions.js" in manage_submissions, "make venv enables grader.formgrader"
    assert formgrader_rows(manage_submissions) == {
        ANN: ["not handed in: 02, 03, 04, 05"],
        TAM: ["changed by the student: 01", "not handed in: 02, 03, 04, 05"],
        BO: ["not handed in"],
    }
    assert payloads.ran(manage_submissions) == []  # Bo's name, from the LMS, is shown as text
    assert payloads.NAMES["first_name"] in words(bs4.BeautifulSoup(manage_submissions, "html.parser"))


def test_manage_submissions_gives_no_timestamp_of_none_to_a_student_who_handed_in_nothing(manage_submissions):
    """nbgrader writes "None" where a submission has no time; Bo has no submission at all."""
    soup = bs4.BeautifulSoup(manage_submissions, "html.parser")
    stamps = {
        tr.select_one("td.student-id").get_text(): words(tr.select_one("td.timestamp"))
        for tr in soup.select("#main-table tr")
        if tr.select_one("td.student-id")
    }
    assert stamps[BO] == "nothing handed in"
    assert "None" not in (stamps[ANN], stamps[TAM]) and stamps[ANN]


def test_the_reports_commands_run_as_printed_and_name_that_notebook(course, page):
    commands = [row[3].find("code").get_text() for row in rows(page, "needs")]
    assert commands and "--force" not in words(page)
    for command, row in zip(commands, rows(page, "needs")):
        argv = shlex.split(command)
        assert argv[:3] == ["python", "-m", "grader"]
        given = vars(parser().parse_args(argv[3:]))
        assert (given["verb"], given["students"], given["notebooks"]) == ("regrade", [words(row[0])], [words(row[1])])
        chosen = select(Course.at(given["course"], given["assignment"]), given["students"], given["notebooks"])
        assert chosen.pairs == [(words(row[0]), words(row[1]))]
    late = shlex.split(page.find(class_="hand-in-later").find("code").get_text())
    given = parser().parse_args(late[3:])  # the class's autograde, which grades only what is new: not --force
    assert (late[:3], given.verb, given.force) == (["python", "-m", "grader"], "autograde", False)
    assert Course.at(given.course).root.resolve() == course.resolve()


def test_the_reports_link_opens_that_students_notebooks_in_formgrader(page):
    link = rows(page, "missing")[0][2].find("a")["href"]  # Ann's: the first student listed
    dom = bs4.BeautifulSoup(dump_dom(link, budget_ms=15000), "html.parser")
    assert f"/manage_students/{ANN}/{ASSIGNMENT}" in link
    assert BASICS.removesuffix(".ipynb") in words(dom)  # formgrader's list of Ann's notebooks
