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
from grader.course import Course

pytestmark = pytest.mark.slow


def _record_grades_fails(course_copy):
    course = Course.at(course_copy).resolved()
    course.grading.mkdir(parents=True, exist_ok=True)
    with pytest.raises(RuntimeError) as failed:
        run.record_grades(course, {"ada": "a", "bo": "b"}, 1)
    return str(failed.value)


def test_a_forked_grading_process_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    monkeypatch.setattr(nbgrader_pass, "threads", lambda: 1)
    monkeypatch.setattr(nbgrader_pass, "grade", lambda order: os.kill(os.getpid(), signal.SIGKILL))
    said = _record_grades_fails(course_copy)
    assert "ada" in said and "bo" in said and f"exit code {-signal.SIGKILL}" in said


def test_a_new_grading_interpreter_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    popen = subprocess.Popen

    def dies(command, **options):
        return popen([sys.executable, "-c", "import sys; sys.stdin.read(); sys.exit(1)"], **options)

    monkeypatch.setattr(nbgrader_pass, "threads", lambda: 2)
    monkeypatch.setattr(nbgrader_pass.subprocess, "Popen", dies)
    said = _record_grades_fails(course_copy)
    assert "ada" in said and "bo" in said and "exit code 1" in said


def test_a_grader_that_runs_other_threads_starts_new_interpreters(monkeypatch):
    started, stop = [], threading.Event()
    monkeypatch.setattr(nbgrader_pass, "Forked", lambda order, log: started.append("fork"))
    monkeypatch.setattr(nbgrader_pass.subprocess, "Popen", lambda command, **options: started.append(command[-1]))
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        nbgrader_pass.start({}, None)
    except AttributeError:  # the stand-in above has no stdin to write the order to
        pass
    finally:
        stop.set()
        other.join()
    assert started == ["grader.autograde.nbgrader_pass"]
