"""A grading process that dies (a crash before its first student) fails autograde, naming its students: they
are never left ungraded behind a successful exit. Whether it was forked from the grader or started as a new
interpreter (where the grader runs other threads)."""
import os
import signal
import subprocess
import sys

import pytest

from grader.autograde import nbgrader_pass, run
from grader.course import Course

pytestmark = pytest.mark.slow


def _record_grades_fails(course_copy):
    course = Course.at(course_copy).resolved()
    course.grading.mkdir(parents=True, exist_ok=True)
    with pytest.raises(RuntimeError) as failed:
        run.record_grades(course, {"ada": "a", "bo": "b"}, 1)
    return str(failed.value)


def test_a_forked_grading_process_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    monkeypatch.setattr(nbgrader_pass.threading, "active_count", lambda: 1)
    monkeypatch.setattr(nbgrader_pass, "grade", lambda order: os.kill(os.getpid(), signal.SIGKILL))
    said = _record_grades_fails(course_copy)
    assert "ada" in said and "bo" in said and f"exit code {-signal.SIGKILL}" in said


def test_a_new_grading_interpreter_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    popen = subprocess.Popen

    def dies(command, **options):
        return popen([sys.executable, "-c", "import sys; sys.stdin.read(); sys.exit(1)"], **options)

    monkeypatch.setattr(nbgrader_pass.threading, "active_count", lambda: 2)
    monkeypatch.setattr(nbgrader_pass.subprocess, "Popen", dies)
    said = _record_grades_fails(course_copy)
    assert "ada" in said and "bo" in said and "exit code 1" in said
