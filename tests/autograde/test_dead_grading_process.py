"""A grading process that dies (a crash before its first student) fails autograde, naming its students: they
are never left ungraded behind a successful exit."""
import subprocess
import sys

import pytest

from grader.autograde import run
from grader.course import Course

pytestmark = pytest.mark.slow


def test_a_grading_process_that_dies_is_reported_not_ignored(course_copy, monkeypatch):
    course = Course.at(course_copy).resolved()
    course.grading.mkdir(parents=True, exist_ok=True)
    popen = subprocess.Popen

    def dies(command, **options):
        return popen([sys.executable, "-c", "import sys; sys.stdin.read(); sys.exit(1)"], **options)

    monkeypatch.setattr(run.subprocess, "Popen", dies)
    with pytest.raises(RuntimeError) as failed:
        run.record_grades(course, {"ada": "a", "bo": "b"}, 1)
    assert "ada" in str(failed.value) and "bo" in str(failed.value) and "exit code 1" in str(failed.value)
