"""nbgrader's own autograde for a list of students, in a process of its own (several run side by side).

The order is {"course", "assignment", "students": {student: fingerprint}}. The process prints each
student's id when nbgrader is done with them and their completion marker is written, or
``! <student> <error>`` when nbgrader failed for them (they are graded again on the next run),
or ``!! <why>`` and nothing else when the sandbox cannot start on this machine.

:func:`start` forks it from the grader, which has imported nbgrader and the kit already: a new
interpreter would spend most of a second of CPU importing them again. A grader that runs other
threads starts a new interpreter instead (``python -m grader.autograde.nbgrader_pass``, the order on
stdin), since a fork copies only the calling thread and leaves any lock another one holds locked.
"""
import contextlib
import json
import os
import subprocess
import sys
import traceback
import warnings

from nbgrader.apps.autogradeapp import AutogradeApp

from ..course import Course, path_with_venv
from ..sandbox.pool import SandboxUnavailable
from ..worker import start_sandbox, stop_sandbox

SANDBOX_UNAVAILABLE = "!!"


def done_marker(course, student):
    return course.grading / student / ".complete"


def grade_student(course, student):
    """nbgrader autograde for one student (forced: the caller decided it needs grading)."""
    os.chdir(course.root)
    app = autograde_app(course)
    app.coursedir.student_id = student
    app.start()


_app = {}  # the app of the last course graded here: {"key": ..., "app": AutogradeApp}


def autograde_app(course):
    """nbgrader's autograde app for ``course``, set up once per process (its configuration file read, its folders
    found) and pointed at each student in turn: nbgrader's own start() then grades that student. A new one is made
    for another course, or when stderr changed (the app's log writes to the stderr it was made with)."""
    key = (str(course.root), course.assignment, sys.stderr)
    if _app.get("key") != key:
        AutogradeApp.clear_instance()
        app = AutogradeApp()
        app.initialize([f"--assignment={course.assignment}", "--force", "--log-level=ERROR"])
        _app.update(key=key, app=app)
    return _app["app"]


def grade(order):
    """Grade the order's students; return the exit code (0: all graded, 1: some failed, 3: no sandbox)."""
    course = Course.at(order["course"], order["assignment"])
    warnings.simplefilter("ignore")  # SQLAlchemy's and nbformat's warnings are not for instructors; errors are reported
    os.environ["PATH"] = path_with_venv()
    try:
        start_sandbox(course)
    except SandboxUnavailable as error:
        print(SANDBOX_UNAVAILABLE, str(error).replace("\n", " "), flush=True)
        return 3
    failed = False
    try:
        for student, fingerprint in order["students"].items():
            try:
                grade_student(course, student)
            except (Exception, SystemExit) as error:  # one student's failure must not stop the others
                failed = True
                print(f"! {student} {type(error).__name__}: {error}", flush=True)
                continue
            done_marker(course, student).write_text(fingerprint)
            print(student, flush=True)
    finally:
        stop_sandbox()
    return 1 if failed else 0


class Forked:
    """A grading process forked from this one, seen as a :class:`subprocess.Popen`: ``stdout`` (its lines)
    and ``wait()`` (its exit code, negative when a signal ended it)."""

    def __init__(self, order, log):
        read, write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid, self.returncode = os.fork(), None
        if self.pid == 0:
            code = 1
            try:
                os.close(read)
                os.dup2(write, 1)
                os.dup2(log.fileno(), 2)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                code = grade(order)
            except BaseException:  # the process must end here, never return into the grader's code
                traceback.print_exc()
            finally:
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                    sys.stderr.flush()
                os._exit(code)
        os.close(write)
        self.stdout = open(read, encoding="utf-8")

    def wait(self):
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            self.stdout.close()
        return self.returncode


def threads():
    """How many threads this process runs, those Python did not start included (0 where /proc cannot tell)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def start(order, log):
    """A grading process for ``order``, its errors written to ``log`` (an open file)."""
    if threads() == 1:
        return Forked(order, log)
    child = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=log, text=True, env={**os.environ, "PATH": path_with_venv()})
    child.stdin.write(json.dumps(order))
    child.stdin.close()
    return child


if __name__ == "__main__":
    sys.exit(grade(json.load(sys.stdin)))
