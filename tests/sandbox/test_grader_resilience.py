"""The grader itself under stress: killed half-way, then started twice at once on the course it left.

One class, graded by three graders in turn: the first is killed half-way; the next two start at the same time, so
that one of them takes over where the killed one stopped while the other waits for it, then finds the work done.
"""

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time

import psutil
import pytest

from ..course_builder import ASSIGNMENT, make_course, records, submission, submit
from .leftovers import still_running, tree

pytestmark = pytest.mark.slow  # and sandbox_alone (tests/conftest.py)

WRONG = "def attention_scores(queries, keys):\n    return queries @ keys\n"
# Two of each kind: the grader killed once two students are done leaves most of the class to the next ones.
CLASS = {f"s{n:02d}": kind for n, kind in enumerate(["right", "stub", "wrong"] * 2)}
EXPECTED = {"right": 24.0, "stub": 0.0, "wrong": 21.0}
NOBODY = 65534  # the root level's sandbox user


def class_course(course):
    release = (course / "exercises" / ASSIGNMENT / "01_attention_basics.ipynb").read_text()
    for student, kind in CLASS.items():
        nb = {"right": submission(course), "wrong": submission(course, {"attention_scores": WRONG}), "stub": release}[
            kind
        ]
        submit(course, student, nb)
    return course


def start_grader(course):
    return subprocess.Popen(
        [sys.executable, "-m", "grader", "autograde", "--course", str(course)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


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
            "GROUP BY submitted_assignment.student_id"
        ).fetchall()
    assert dict(rows) == {s: 1 for s in CLASS}
    assert dict(scores) == {s: EXPECTED[k] for s, k in CLASS.items()}


def stop_while_a_sandbox_runs(grader, ready, seconds=300):
    """Stop the grader's process group (SIGSTOP) once ``ready()`` at a moment when one of its processes runs as
    nobody, the root level's sandbox user: looked at while stopped, and let go on until then, so that a sandbox
    that ends between a look and the stop does not count. Returns every process of the grader's tree at the stop:
    those still running after the kill are its own, not another test's (other modules' sandboxes run meanwhile)."""
    deadline = time.monotonic() + seconds
    while True:
        if ready() or time.monotonic() > deadline:
            os.killpg(grader.pid, signal.SIGSTOP)
            processes = tree(psutil.Process(grader.pid))
            if NOBODY in users_of(processes) or time.monotonic() > deadline:
                return processes
            os.killpg(grader.pid, signal.SIGCONT)
        time.sleep(0.02)


def users_of(processes):
    """The real users of those of ``processes`` still there."""
    users = set()
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            users.add(process.uids().real)
    return users


def kill(grader, processes):
    """SIGKILL the grader's stopped process group; return the users of ``processes`` (its processes when it was
    stopped) and those of them that still run ten seconds on."""
    users = users_of(processes)
    os.killpg(grader.pid, signal.SIGKILL)
    grader.wait()
    return users, still_running(processes)


@pytest.fixture(scope="module")
def stressed(released_course, tmp_path_factory):
    """The class's course after its grader was killed half-way and two graders then ran at once: {"course",
    "done at the kill", "users" (of the killed grader's processes), "processes left" (of them, running
    ten seconds on), "graders": their (exit code, standard error)}."""
    course = class_course(make_course(released_course, tmp_path_factory.mktemp("stress") / "course"))
    killed = start_grader(course)
    markers = course / "grading" / ASSIGNMENT
    processes = stop_while_a_sandbox_runs(killed, lambda: len(list(markers.glob("*/.complete"))) >= 2)
    users, left = kill(killed, processes)
    done_at_kill = len(list(markers.glob("*/.complete")))
    graders = [start_grader(course), start_grader(course)]
    errors = [grader.communicate(timeout=600)[1] for grader in graders]
    return {
        "course": course,
        "done at the kill": done_at_kill,
        "users": users,
        "processes left": left,
        "graders": [(grader.returncode, said) for grader, said in zip(graders, errors)],
    }


def test_killed_grader_loses_and_duplicates_nothing(stressed):
    assert 0 < stressed["done at the kill"] < len(CLASS), "killed in the middle of the class"
    assert NOBODY in stressed["users"], "the grader was killed while a sandbox ran"
    assert stressed["processes left"] == []
    assert all(code == 0 for code, _ in stressed["graders"]), [errors[-2000:] for _, errors in stressed["graders"]]
    assert_graded_once_and_right(stressed["course"])


def test_two_graders_at_once_do_not_corrupt_the_course(stressed):
    graders = stressed["graders"]
    assert [code for code, _ in graders] == [0, 0], [errors[-2000:] for _, errors in graders]
    assert any("Another grader is working on this course" in errors for _, errors in graders)
    assert_graded_once_and_right(stressed["course"])
