"""The grader itself under stress: killed half-way, or started twice on one course."""
import os
import signal
import sqlite3
import subprocess
import sys
import time

import psutil
import pytest

from ..course_builder import ASSIGNMENT, records, submission, submit

pytestmark = pytest.mark.slow  # and sandbox_alone (tests/conftest.py)

WRONG = "def attention_scores(queries, keys):\n    return queries @ keys\n"
CLASS = {f"s{n:02d}": kind for n, kind in enumerate(["right", "stub", "wrong"] * 4)}
EXPECTED = {"right": 24.0, "stub": 0.0, "wrong": 21.0}


def class_course(course):
    release = (course / "exercises" / ASSIGNMENT / "01_attention_basics.ipynb").read_text()
    for student, kind in CLASS.items():
        nb = {"right": submission(course), "wrong": submission(course, {"attention_scores": WRONG}),
              "stub": release}[kind]
        submit(course, student, nb)
    return course


def start_grader(course):
    return subprocess.Popen([sys.executable, "-m", "grader", "autograde", "--course", str(course)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def assert_graded_once_and_right(course):
    found = records(course)
    assert {s: r.score for s, r in found.items()} == {s: EXPECTED[k] for s, k in CLASS.items()}
    with sqlite3.connect(course / "gradebook.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = db.execute("SELECT student_id, COUNT(*) FROM submitted_assignment GROUP BY student_id").fetchall()
        scores = db.execute(
            "SELECT submitted_assignment.student_id, SUM(COALESCE(grade.manual_score, grade.auto_score)) FROM grade "
            "JOIN submitted_notebook ON grade.notebook_id = submitted_notebook.id "
            "JOIN submitted_assignment ON submitted_notebook.assignment_id = submitted_assignment.id "
            "GROUP BY submitted_assignment.student_id").fetchall()
    assert dict(rows) == {s: 1 for s in CLASS}
    assert dict(scores) == {s: EXPECTED[k] for s, k in CLASS.items()}


def no_sandbox_left():
    return [p.pid for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == 65534]


def test_killed_grader_loses_and_duplicates_nothing(course_copy):
    course = class_course(course_copy)
    grader = start_grader(course)
    markers = course / "grading" / ASSIGNMENT
    deadline = time.monotonic() + 300
    while len(list(markers.glob("*/.complete"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(grader.pid, signal.SIGKILL)
    grader.wait()
    assert 0 < len(list(markers.glob("*/.complete"))) < len(CLASS), "killed in the middle of the class"
    time.sleep(0.5)
    assert no_sandbox_left() == []
    again = start_grader(course)
    _, errors = again.communicate(timeout=600)
    assert again.returncode == 0, errors[-2000:]
    assert_graded_once_and_right(course)


def test_two_graders_at_once_do_not_corrupt_the_course(course_copy):
    course = class_course(course_copy)
    first, second = start_grader(course), start_grader(course)
    outcomes = [p.communicate(timeout=600) for p in (first, second)]
    assert (first.returncode, second.returncode) == (0, 0), [o[1][-2000:] for o in outcomes]
    assert any("Another grader is working on this course" in o[1] for o in outcomes)
    assert_graded_once_and_right(course)
