"""The grading processes: forked from a grader that runs one thread, new interpreters where it runs more (a fork
would copy the locks the other threads hold, locked for ever). One that dies (a crash before its first student)
fails autograde, naming its students: they are never left ungraded behind a successful exit."""

import os
import signal
import subprocess
import sys
import threading

import pytest

from grader.autograde import nbgrader_pass, run
from grader.cli.errors import NbgraderFailed
from grader.course import Course

from ..course_builder import make_course

pytestmark = pytest.mark.slow


def _record_grades_fails(course_copy):
    course = Course.at(course_copy).resolved()
    course.grading.mkdir(parents=True, exist_ok=True)
    with pytest.raises(NbgraderFailed) as failed:  # the command line says it in words, no traceback
        run.record_grades(course, {"ada": "a", "bo": "b"}, 1)
    return str(failed.value)


def test_a_forked_grading_process_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    monkeypatch.setattr(nbgrader_pass, "threads", lambda: 1)
    monkeypatch.setattr(nbgrader_pass, "grade", lambda requests, answers: os.kill(os.getpid(), signal.SIGKILL))
    said = _record_grades_fails(course_copy)
    assert "ada" in said and "bo" in said and f"exit code {-signal.SIGKILL}" in said


def test_a_new_grading_interpreter_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    popen = subprocess.Popen

    def dies(command, **options):
        return popen([sys.executable, "-c", "import sys; sys.stdin.readline(); sys.exit(1)"], **options)

    monkeypatch.setattr(nbgrader_pass, "threads", lambda: 2)
    monkeypatch.setattr(nbgrader_pass.subprocess, "Popen", dies)
    said = _record_grades_fails(course_copy)
    assert "ada" in said and "bo" in said and "exit code 1" in said


def test_a_grader_that_runs_other_threads_starts_new_interpreters(monkeypatch):
    started, stop = [], threading.Event()
    monkeypatch.setattr(nbgrader_pass, "Forked", lambda log, worker: started.append("fork"))
    monkeypatch.setattr(nbgrader_pass.subprocess, "Popen", lambda command, **options: started.append(command[-1]))
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        nbgrader_pass.start(Course.at("."), None)
    except AttributeError:  # the stand-in above has no stdin to write the course to
        pass
    finally:
        stop.set()
        other.join()
    assert started == ["grader.autograde.nbgrader_pass"]


def test_a_grading_process_sets_nbgrader_up_once_per_course_and_log(course_copy, tmp_path, monkeypatch):
    """nbgrader's app is made once and pointed at each student; another course, or another stderr (the app logs
    to the stderr it was made with: a Dask worker captures each student's log), gets a new one."""
    course = Course.at(course_copy).resolved()
    monkeypatch.chdir(course.root)
    app = nbgrader_pass.autograde_app(course)
    assert nbgrader_pass.autograde_app(course) is app
    assert app.coursedir.assignment_id == course.assignment and app.coursedir.root == str(course.root)
    other = Course.at(make_course(course_copy, tmp_path / "other")).resolved()
    monkeypatch.chdir(other.root)  # as grade_student does: nbgrader finds the course in the current folder
    before = nbgrader_pass.autograde_app(other)
    assert before.coursedir.root == str(other.root)
    with open(tmp_path / "log", "w") as log:
        monkeypatch.setattr(sys, "stderr", log)
        assert nbgrader_pass.autograde_app(other) is not before
