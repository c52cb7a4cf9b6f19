"""What the commands print: counts that add up, what was left out and why, the grade table's header and legend."""

import datetime

import pytest

from grader.autograde import table
from grader.autograde.run import summary as autograde_summary
from grader.cli.summaries import feedback_summary
from grader.course import Course
from grader.course.grades import NotebookGrade
from grader.demo.run import enrol, new_course

from ..conftest import ROOT
from ..course_builder import dated_course

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"


def grade(student, notebook, score, status="graded", late_penalty=0.0, seconds_late=0.0):
    return NotebookGrade(student, notebook, status, None, score, 10.0, late_penalty, seconds_late=seconds_late)


def test_the_table_is_headed_by_short_titles_and_explains_only_the_marks_it_uses(monkeypatch):
    grades = [grade("ann", BASICS, 7), grade("ann", STEPS, 10), grade("bob", BASICS, 10), grade("bob", STEPS, 3)]
    monkeypatch.setattr(table, "course_grades", lambda course, released: grades)
    shown = table.grade_table(Course.at(ROOT))
    header = shown.splitlines()[:3]
    assert header[0].split() == ["01", "02"]
    assert header[1].split() == ["Attention", "Self-"] and header[2].split() == [
        "student",
        "basics",
        "attention",
        "total",
    ]
    assert "L = late" not in shown and "! = needs attention" not in shown

    grades[1] = grade("ann", STEPS, 10, late_penalty=2)
    grades[2] = grade("bob", BASICS, 0, status="missing")
    shown = table.grade_table(Course.at(ROOT))
    assert "8/10 L" in shown and "0/10 !" in shown
    assert "L = late" in shown and "! = needs attention" in shown


@pytest.fixture(scope="module")
def dated(tmp_path_factory, empty_gradebook):
    """Due at 18:00, no late penalty set: notebook 01 handed in at 17:59, at 20:05:30, and at 20:05:30 by a
    student with 3 more hours."""
    return dated_course(
        tmp_path_factory.mktemp("dated") / "course",
        empty_gradebook,
        {"ontime": "2026-03-02 17:59:00", "late": "2026-03-02 20:05:30", "extended": "2026-03-02 20:05:30"},
        {"extended": datetime.timedelta(hours=3)},
    )


def test_a_notebook_handed_in_after_the_due_date_is_marked_late_without_a_late_penalty(dated):
    shown = table.grade_table(Course.at(dated))
    rows = {line.split()[0]: line for line in shown.splitlines() if line[:1].strip()}  # not the notes: indented
    assert "3/3  L" in rows["late"]  # the full score: no penalty taken off, but late
    assert "L" not in rows["ontime"].split() and "L" not in rows["extended"].split()  # on time, or within the extension
    assert "3/3" in rows["ontime"] and "3/3" in rows["extended"]
    assert "L = late: handed in after the due date; no late penalty is taken off" in shown
    assert "Needs attention" not in shown


def test_the_late_legend_says_whether_a_penalty_was_taken_off_and_a_late_notebook_to_check_says_how_late(monkeypatch):
    grades = [
        grade("ann", BASICS, 8, late_penalty=2, seconds_late=600),
        grade("ann", STEPS, 10),
        grade("bob", BASICS, 10, seconds_late=3600),
        grade("bob", STEPS, 0, status="timeout", seconds_late=7530),
    ]
    monkeypatch.setattr(table, "course_grades", lambda course, released: grades)
    shown = table.grade_table(Course.at(ROOT))
    assert "6/10 L" in shown and "10/10 L" in shown and "0/10 !" in shown  # '!' first, but the note says late
    assert "L = late: handed in after the due date; a late penalty is taken off where the gradebook has one" in shown
    assert "  bob 02: timed out, regrade or grade by hand; late by 2 hours 5 minutes" in shown.splitlines()

    grades[2] = grade("bob", BASICS, 10, late_penalty=1, seconds_late=3600)
    assert "L = late: handed in after the due date; the late penalty is taken off" in table.grade_table(Course.at(ROOT))
    grades[0], grades[2] = grade("ann", BASICS, 8, seconds_late=86400 + 3600), grade("bob", BASICS, 10)
    shown = table.grade_table(Course.at(ROOT))
    assert "L = late: handed in after the due date; no late penalty is taken off" in shown
    grades[0] = grade("ann", BASICS, 8)
    shown = table.grade_table(Course.at(ROOT))
    assert "L = late" not in shown and "late by 2 hours 5 minutes" in shown  # no 'L' shown: no legend for it


def test_a_time_late_is_said_in_plain_words():
    from grader.course.grades import time_in_words

    assert [time_in_words(s) for s in (0.4, 1, 59, 60, 125, 3600, 7559, 86400, 97259, 172860)] == [
        "less than a second",
        "1 second",
        "59 seconds",
        "1 minute",
        "2 minutes",
        "1 hour",
        "2 hours 5 minutes",
        "1 day",
        "1 day 3 hours",
        "2 days",
    ]


def test_autograde_says_what_it_graded_and_how_to_grade_again():
    assert autograde_summary({}, [], ["ann", "bob"], 0.4) == (
        "nothing new to grade: 2 students already graded; --force grades them again"
    )
    assert autograde_summary({"ann": [BASICS, STEPS], "bob": [BASICS]}, ["bob/02_x.ipynb"], ["cy"], 12.0) == (
        "graded 3 notebooks of 2 students in 12.0 s; 1 notebook could not be read (bob/02_x.ipynb); "
        "1 student already graded, left as they were (--force grades them again)"
    )
    assert "collect" in autograde_summary({}, [], [], 0.1)


def test_feedback_counts_pages_and_says_which_notebooks_have_none(tmp_path):
    course = new_course(tmp_path / "course")
    handed_in = {"ann": [BASICS, STEPS], "bob": [BASICS, STEPS + ".invalid"], "cy": [BASICS]}
    pages = []
    for student, names in handed_in.items():
        for name in names:
            (course / "submitted" / student / "self_attention").mkdir(parents=True, exist_ok=True)
            (course / "submitted" / student / "self_attention" / name).write_text("{}")
            if student != "cy" and not name.endswith(".invalid"):
                pages.append(course / "feedback" / student / "self_attention" / name.replace(".ipynb", ".html"))
    assert feedback_summary(pages, Course.at(course)) == (
        f"feedback: 3 pages for 2 students in {course / 'feedback'}; none for 2 notebooks handed in: "
        f"bob/{STEPS} (could not be read), cy/{BASICS} (not graded yet)"
    )


def test_the_demo_class_has_names_and_emails_in_the_gradebook(tmp_path):
    course = Course.at(new_course(tmp_path / "course"))
    enrol(course, ["aisha", "elif", "zofia"])
    with course.gradebook() as gradebook:
        shown = {s["id"]: (s["first_name"], s["last_name"], s["email"]) for s in gradebook.student_dicts()}
    assert shown == {
        "aisha": ("Aisha", "Karimi", "aisha.karimi@students.example.edu"),
        "elif": ("Elif", "Yılmaz", "elif.yilmaz@students.example.edu"),
        "zofia": ("Zofia", "Wiśniewska", "zofia.wisniewska@students.example.edu"),
    }


@pytest.mark.slow
def test_one_grade_table_reads_the_gradebook_once_and_the_release_once(course_copy, monkeypatch):
    """A course with a gradebook, a student and the release: one session of the gradebook, one read of each
    released notebook, however many notebooks, cells and verbs' helpers the table needs."""
    import contextlib

    from grader.checks import notebook

    course = Course.at(course_copy)
    enrol(course, ["aisha"])
    opened, read = [], []
    real_gradebook, real_read = Course.gradebook, notebook.read

    @contextlib.contextmanager
    def counted(self):
        opened.append(1)
        with real_gradebook(self) as book:
            yield book

    monkeypatch.setattr(Course, "gradebook", counted)
    monkeypatch.setattr("grader.course.read", lambda path: read.append(path) or real_read(path))
    shown = table.grade_table(course)
    assert "aisha" in shown
    assert len(opened) == 1
    assert sorted(read) == sorted(course.release.glob("*.ipynb"))
