"""nbgrader's own autograde in a process of its own, one student at a time as the grader hands them out (several
such processes run side by side).

The process reads its requests, one JSON line each, on stdin: first {"course", "assignment"}, then one
{"student", "fingerprint"} per student, handed out by the grader as each process becomes free (a process that
happens to draw the slow students does not keep the others waiting at the end). It prints each student's id when
nbgrader is done with them and their completion marker is written, or ``! <student> <error>`` when nbgrader failed
for them (they are graded again on the next run), or ``!! <why>`` and nothing else when the sandbox cannot start
on this machine. It stops when its stdin ends.

:func:`start` forks it from the grader, which has imported nbgrader, the kit and the checks already (see
:func:`warm_up`): a new interpreter would spend seconds of CPU importing them again. A grader that runs other
threads starts a new interpreter instead (``python -m grader.autograde.nbgrader_pass``), since a fork copies
only the calling thread and leaves any lock another one holds locked.
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
from ..sandbox.worker import adopt_sandbox, start_sandbox, stop_sandbox, threads

SANDBOX_UNAVAILABLE = "!!"
_handing = []  # the request pipes of the processes forked from this one: a later fork closes its copies


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


def warm_up(exercises=None):
    """What every grading process would otherwise do on its first student, done once in the grader before they
    are forked: the checks of ``exercises`` (default: every exercise) planned (PyTorch imported, the reference
    answers computed), on one thread (a fork copies no thread, and the grading processes share the machine's
    cores). Then everything made so far is frozen out of the garbage collector: the grading processes'
    collections no longer walk it (nor copy the pages they share with the grader by touching it)."""
    import gc

    import torch

    torch.set_num_threads(1)
    from ..checks.registry import exercise_names
    from ..checks.running import sandbox_requests
    from .jobs import planned_checks

    for name in exercise_names():
        if exercises is None or name in exercises:
            sandbox_requests(planned_checks(name))
    gc.collect()
    gc.freeze()


def grade(requests, answers):
    """Grade the students ``requests`` names (lines: the course, then one student each), saying each on
    ``answers`` (a text file); return the exit code (0: all graded, 1: some failed, 3: no sandbox)."""
    header = json.loads(next(requests))
    course = Course.at(header["course"], header["assignment"])
    warnings.simplefilter("ignore")  # SQLAlchemy's and nbformat's warnings are not for instructors; errors are reported
    os.environ["PATH"] = path_with_venv()
    try:
        start_sandbox(course)
    except SandboxUnavailable as error:
        print(SANDBOX_UNAVAILABLE, str(error).replace("\n", " "), file=answers, flush=True)
        return 3
    failed = False
    try:
        for line in requests:
            request = json.loads(line)
            student = request["student"]
            try:
                grade_student(course, student)
            except (Exception, SystemExit) as error:  # one student's failure must not stop the others
                failed = True
                print(f"! {student} {type(error).__name__}: {error}", file=answers, flush=True)
                continue
            done_marker(course, student).write_text(request["fingerprint"])
            print(student, file=answers, flush=True)
    finally:
        stop_sandbox()
    return 1 if failed else 0


class Forked:
    """A grading process forked from this one, seen as a :class:`subprocess.Popen`: ``stdin`` (its requests),
    ``stdout`` (its lines) and ``wait()`` (its exit code, negative when a signal ended it). ``worker``: a warm
    sandbox worker this process started for it (grader.sandbox.worker.prestart), or None."""

    def __init__(self, log, worker=None):
        requests, self._give = os.pipe()
        read, write = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid, self.returncode = os.fork(), None
        if self.pid == 0:
            code = 1
            try:
                os.close(read)
                os.close(self._give)
                for other in _handing:  # else a process would not see its requests end until its siblings do
                    other.close()
                os.dup2(log.fileno(), 1)  # whatever else is printed goes to the log, never among the answers
                os.dup2(log.fileno(), 2)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                if worker is not None:
                    adopt_sandbox(worker)
                code = grade(iter(open(requests, encoding="utf-8")), open(write, "w", encoding="utf-8"))
            except BaseException:  # the process must end here, never return into the grader's code
                traceback.print_exc()
            finally:
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                    sys.stderr.flush()
                os._exit(code)
        os.close(write)
        os.close(requests)
        self.stdin = open(self._give, "w", encoding="utf-8")
        self.stdout = open(read, encoding="utf-8")
        _handing.append(self.stdin)

    def wait(self):
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            self.stdout.close()
        return self.returncode


def start(course, log, worker=None):
    """A grading process for ``course`` (its errors written to ``log``, an open file), told its course; hand it
    students with :func:`give` and end it with :func:`finish`. ``worker``: a warm sandbox worker for it, used when
    the process is forked."""
    if threads() == 1:
        child = Forked(log, worker)
    else:
        child = subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            env={**os.environ, "PATH": path_with_venv()},
        )
    _say(child, {"course": str(course.root), "assignment": course.assignment})
    return child


def give(child, student, fingerprint):
    """Hand ``student`` to a grading process; False when it has already gone."""
    return _say(child, {"student": student, "fingerprint": fingerprint})


def finish(child):
    """No more students for this process: it stops once it is done with the one it has."""
    with contextlib.suppress(OSError):
        child.stdin.close()
    with contextlib.suppress(ValueError):
        _handing.remove(child.stdin)


def _say(child, request):
    try:
        child.stdin.write(json.dumps(request) + "\n")
        child.stdin.flush()
        return True
    except OSError:  # it died: the grader reports it when its output ends
        return False


def main():
    """A new interpreter's grading process: requests on stdin, answers on stdout (anything else printed goes to
    stderr, the log)."""
    answers = open(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    return grade(iter(sys.stdin), answers)


if __name__ == "__main__":
    sys.exit(main())
