"""nbgrader's own autograde for a list of students, in a process of its own (several run side by side).

Reads {"course", "assignment", "students": {student: fingerprint}} as JSON on stdin; prints each
student's id when nbgrader is done with them and their completion marker is written, or
``! <student> <error>`` when nbgrader failed for them (they are graded again on the next run),
or ``!! <why>`` and nothing else when the sandbox cannot start on this machine.
"""
import json
import os
import sys
import warnings

from nbgrader.apps.autogradeapp import AutogradeApp

from ..course import Course, path_with_venv
from ..sandbox.pool import SandboxUnavailable
from ..worker import start_sandbox

SANDBOX_UNAVAILABLE = "!!"


def done_marker(course, student):
    return course.grading / student / ".complete"


def grade_student(course, student):
    """nbgrader autograde for one student (forced: the caller decided it needs grading)."""
    os.chdir(course.root)
    app = AutogradeApp()
    app.initialize([course.assignment, f"--student={student}", "--force", "--log-level=ERROR"])
    app.start()
    AutogradeApp.clear_instance()


def main():
    order = json.load(sys.stdin)
    course = Course.at(order["course"], order["assignment"])
    warnings.simplefilter("ignore")  # SQLAlchemy's and nbformat's warnings are not for instructors; errors are reported
    os.environ["PATH"] = path_with_venv()
    try:
        start_sandbox(course)
    except SandboxUnavailable as error:
        print(SANDBOX_UNAVAILABLE, str(error).replace("\n", " "), flush=True)
        sys.exit(3)
    failed = False
    for student, fingerprint in order["students"].items():
        try:
            grade_student(course, student)
        except (Exception, SystemExit) as error:  # one student's failure must not stop the others
            failed = True
            print(f"! {student} {type(error).__name__}: {error}", flush=True)
            continue
        done_marker(course, student).write_text(fingerprint)
        print(student, flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
