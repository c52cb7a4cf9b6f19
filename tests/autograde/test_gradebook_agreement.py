"""One source of truth for scores: the grade table, the CSV, the feedback pages and the class report all show
the scores of nbgrader's gradebook (``nbgrader export``), late penalties and manual grades included, on a
course extended by an instructor; and nbgrader's release_feedback / fetch_feedback deliver the kit's pages."""

import csv
import html
import re

import bs4
import pytest
from nbgrader.plugins import CsvExportPlugin

from grader.api import export, feedback, report
from grader.autograde.table import grade_table
from grader.course import Course

from ..course_builder import ASSIGNMENT, BASICS, autograde
from ..extended_course import DUE, EXTRA, as_student, collect, grade_by_hand, hand_in, make_extended_course

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

WRONG_DOUBLE = "def double(x):\n    return 3 * x"  # fails the visible assert
SLY_DOUBLE = "def double(x):\n    return 4 if x == 2 else x"  # passes it, fails the hidden one
WRONG_SOFTMAX = "import torch\ndef softmax_scores(scores):\n    return torch.softmax(scores, dim=0)"
NOTEBOOKS = [BASICS.removesuffix(".ipynb"), EXTRA.removesuffix(".ipynb")]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = make_extended_course(tmp_path_factory.mktemp("extended"))
    hand_in(course, "ontime", {"double": WRONG_DOUBLE, "softmax_scores": WRONG_SOFTMAX})
    hand_in(course, "late", {"double": SLY_DOUBLE})
    collect(course, {"ontime": "2026-01-09 10:00:00", "late": "2026-01-11 10:00:00"})
    assert DUE == "2026-01-10 12:00:00"
    done = autograde(course)
    assert done.returncode == 0, done.stderr[-3000:]
    grade_by_hand(course, "ontime", "why_scale", 2)
    grade_by_hand(course, "late", "why_scale", 3)
    grade_by_hand(course, "ontime", "plot_task", 1)
    return course, nbgrader_export(course), done


def nbgrader_export(course):
    """{student: row} of the totals that ``nbgrader export`` writes: its exporter (CsvExportPlugin, the course's
    config sets no other) on the gradebook, which it only reads, run here rather than as a command: the command
    is not what this module tests."""
    with Course.at(course).gradebook() as book:
        CsvExportPlugin(to=str(course / "grades.csv")).export(book)
    with open(course / "grades.csv") as exported:
        return {row["student_id"]: row for row in csv.DictReader(exported)}


def test_autograde_prints_what_an_instructor_needs_and_no_library_warnings(course):
    done = course[2]
    assert "of 2 students in" in done.stderr and "ontime" in done.stdout
    assert "Warning" not in done.stderr and "warn" not in done.stderr.lower(), done.stderr


def cells_in_gradebook(course):
    """{(student, notebook, grade_id): score}, read straight from nbgrader's API."""
    with Course.at(course).gradebook() as book:
        return {
            (nb.student.id, nb.name, grade.name): grade.score
            for submission in book.assignment_submissions(ASSIGNMENT)
            for nb in submission.notebooks
            for grade in nb.grades
        }


def test_the_course_has_a_late_student_and_manual_grades(course):
    course, totals, _ = course
    late = totals["late"]  # nbgrader computed the penalty (all it had) at autograde; the manual grade came later
    assert float(late["late_submission_penalty"]) > 0 and float(late["score"]) < float(late["raw_score"])
    assert float(totals["ontime"]["late_submission_penalty"]) == 0
    scores = cells_in_gradebook(course)
    assert scores["ontime", NOTEBOOKS[0], "why_scale"] == 2 and scores["ontime", NOTEBOOKS[0], "plot_task"] == 1


def test_csv_has_every_graded_cell_with_the_gradebooks_score_and_adds_up_to_nbgrader_export(course):
    course, totals, _ = course
    with open(export(course, ASSIGNMENT)) as table:
        rows = list(csv.DictReader(table))
    scores = cells_in_gradebook(course)
    shown = {(r["student"], r["notebook"].removesuffix(".ipynb"), r["grade_id"]): r for r in rows if r["grade_id"]}
    submitted = {key for key in scores if key[1] in NOTEBOOKS}
    assert submitted <= set(shown)  # every graded cell: kit tests, plain tests, written answers, tasks
    for key in submitted:
        if shown[key]["score"] == "":  # not a real score: only a cell nobody has graded by hand yet
            assert (shown[key]["status"], scores[key]) == ("needs manual grade", 0), key
        else:
            assert float(shown[key]["score"]) == scores[key], key
    for student, row in totals.items():
        assert sum(float(r["score"]) for r in rows if r["student"] == student and r["score"]) == float(row["score"])
    assert shown["ontime", NOTEBOOKS[0], "why_scale"]["status"] == "graded by hand"
    assert shown["late", NOTEBOOKS[1], "triple_test"]["score"] == "4"  # the new notebook ran and has its score


def test_table_shows_nbgraders_totals_and_the_new_notebook(course):
    course, totals, _ = course
    table = grade_table(Course.at(course))
    lines = {
        line.split()[0]: line for line in table.split("\nNeeds attention:")[0].splitlines()
    }  # the rows, not the notes
    for student, row in totals.items():
        assert lines[student].split()[-1] == f"{float(row['score']):g}/{float(row['max_score']):g}", lines[student]
    assert "4/4" in lines["ontime"] and "0/4  L" in lines["late"]


def test_report_shows_nbgraders_totals(course):
    course, totals, _ = course
    soup = bs4.BeautifulSoup(report(course, ASSIGNMENT).read_text(), "html.parser")
    students = {
        tr.find_all("td")[0].text: [td.text for td in tr.find_all("td")[1:]]
        for tr in soup.find("table", class_="students").find_all("tr")[1:]
    }
    assert students == {s: [f"{float(r['score']):g}", f"{float(r['max_score']):g}"] for s, r in totals.items()}


@pytest.fixture(scope="module")
def pages(course):
    course, _, _ = course
    return {(p.parent.parent.name, p.stem): p for p in feedback(course, ASSIGNMENT)}


def test_feedback_pages_show_the_gradebooks_scores(course, pages):
    course, _, _ = course
    scores = cells_in_gradebook(course)
    with Course.at(course).gradebook() as book:
        notebooks = {
            (nb.student.id, nb.name): (nb.score - (nb.late_submission_penalty or 0), nb.max_score)
            for submission in book.assignment_submissions(ASSIGNMENT)
            for nb in submission.notebooks
        }
    assert set(pages) == {key for key in notebooks if key[1] in NOTEBOOKS}
    for (student, notebook), path in pages.items():
        text = path.read_text()
        score, most = notebooks[student, notebook]
        assert f"(Score: {round(score, 2)} / {round(most, 2)})" in text
        soup = bs4.BeautifulSoup(text, "html.parser")
        cells = {grade_id: score for (who, nb, grade_id), score in scores.items() if (who, nb) == (student, notebook)}
        shown = {}
        for grade_id in cells:  # nbgrader's page anchors a task cell as comment-<grade_id> only
            anchor = soup.find("a", attrs={"name": grade_id}) or soup.find("a", attrs={"name": f"comment-{grade_id}"})
            heading = anchor.find_next("div", class_="panel-heading").get_text()
            shown[grade_id] = float(re.search(r"Score: ([\d.]+) /", heading).group(1))
        assert shown == cells, (student, notebook)
    assert "Late submission penalty" in pages["late", NOTEBOOKS[0]].read_text()
    wrong = html.unescape(pages["ontime", NOTEBOOKS[0]].read_text())
    assert "Likely mistake" in wrong and "BEGIN HIDDEN TESTS" not in wrong and "double(21)" not in wrong
    assert "assert double(2) == 4" in wrong and "AssertionError" in wrong  # a plain test's own error


def test_a_failed_hidden_assert_in_a_plain_test_cell_shows_no_hidden_line(course, pages):
    course, _, _ = course
    with Course.at(course).gradebook() as book:
        assert book.find_grade("double_test", NOTEBOOKS[0], ASSIGNMENT, "late").auto_score == 0
    sly = html.unescape(re.sub(r"<[^>]+>", "", pages["late", NOTEBOOKS[0]].read_text()))
    assert "AssertionError" in sly and "a hidden test failed" in sly
    assert "double(21)" not in sly and "twenty-one" not in sly


def test_release_feedback_and_fetch_feedback_deliver_the_kits_pages(course, pages):
    course, _, _ = course
    Course.at(course).run_nbgrader("release_feedback", ASSIGNMENT)
    for student in ("ontime", "late"):
        home = as_student(course, student, "fetch_feedback", ASSIGNMENT)
        fetched = {p.stem: p.read_text() for p in (home / ASSIGNMENT / "feedback").rglob("*.html")}
        assert fetched == {notebook: pages[student, notebook].read_text() for notebook in NOTEBOOKS}
