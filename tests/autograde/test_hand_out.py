"""Students are handed to the grading processes one at a time, as each becomes free: a process that stops takes
only the student it had with it, and the others grade the rest (shared out in advance, its whole share was lost)."""

import os
import signal

import pytest

from grader.autograde import nbgrader_pass, run
from grader.cli.errors import NbgraderFailed
from grader.course import Course

pytestmark = pytest.mark.slow

STUDENTS = ["ada", "bo", "cy", "dee", "eve", "fay"]


@pytest.fixture
def graded_here(course_copy, monkeypatch):
    """record_grades with nbgrader's grading of one student replaced: 'bo' kills its process, the others pass.
    Returns the course and the students each process graded, in order."""
    course = Course.at(course_copy).resolved()
    course.grading.mkdir(parents=True, exist_ok=True)
    log = course.grading / "order.log"

    def grade_student(course, student):
        if student == "bo":
            os.kill(os.getpid(), signal.SIGKILL)
        with open(log, "a") as said:
            said.write(f"{os.getpid()} {student}\n")

    monkeypatch.setattr(nbgrader_pass, "threads", lambda: 1)  # forked, as from a grader with one thread
    monkeypatch.setattr(nbgrader_pass, "grade_student", grade_student)
    monkeypatch.setattr(nbgrader_pass, "warm_up", lambda exercises: None)
    monkeypatch.setattr(nbgrader_pass, "start_sandbox", lambda course: None)
    monkeypatch.setattr(nbgrader_pass, "stop_sandbox", lambda: None)
    monkeypatch.setattr(run, "prestart_sandboxes", lambda course, count: [None] * count)
    for student in STUDENTS:
        (course.grading / student).mkdir(parents=True, exist_ok=True)
    return course, log


def test_a_process_that_stops_loses_only_the_student_it_had(graded_here):
    course, log = graded_here
    with pytest.raises(NbgraderFailed) as failed:
        run.record_grades(course, {student: f"print-{student}" for student in STUDENTS}, 2)
    said = str(failed.value)
    assert "bo not graded: the grading process stopped" in said
    assert not any(other in said for other in STUDENTS if other != "bo")
    graded = sorted(line.split()[1] for line in log.read_text().splitlines())
    assert graded == sorted(set(STUDENTS) - {"bo"})
    for student in graded:  # each one's completion marker holds their own fingerprint
        assert nbgrader_pass.done_marker(course, student).read_text() == f"print-{student}"
    assert not nbgrader_pass.done_marker(course, "bo").exists()
