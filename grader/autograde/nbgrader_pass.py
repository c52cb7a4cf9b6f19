"""nbgrader's own autograde for a list of students, in a process of its own (several run side by side).

Reads {"course", "assignment", "students": {student: fingerprint}} as JSON on stdin; prints each
student's id when nbgrader is done with them and their completion marker is written.
"""
import json
import os
import pathlib
import sys

from nbgrader.apps.autogradeapp import AutogradeApp


def done_marker(course, assignment, student):
    return pathlib.Path(course) / "grading" / assignment / student / ".complete"


def grade_student(course, assignment, student):
    """nbgrader autograde for one student (forced: the caller decided it needs grading)."""
    os.chdir(course)
    app = AutogradeApp()
    app.initialize([assignment, f"--student={student}", "--force", "--log-level=ERROR"])
    app.start()
    AutogradeApp.clear_instance()


def main():
    order = json.load(sys.stdin)
    os.environ["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for student, fingerprint in order["students"].items():
        grade_student(order["course"], order["assignment"], student)
        done_marker(order["course"], order["assignment"], student).write_text(fingerprint)
        print(student, flush=True)


if __name__ == "__main__":
    main()
