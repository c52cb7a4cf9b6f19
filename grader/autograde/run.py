"""``autograde``: every student's submission through nbgrader's own autograde, with the kit's sandbox as its executor.

Steps: take the course's grading lock; set aside notebooks nbgrader cannot read (recorded as
'invalid'); then let nbgrader's own autograde do its usual work, the students shared out over one
process per core, each with its own warm sandbox worker (nbgrader_config.py puts the kit's
SandboxExecute in place of nbgrader's kernel). A student whose submission was fully graded before
is skipped unless ``force``: a grader killed half-way simply picks up where it stopped. Last, each
notebook set aside gets a stand-in that formgrader lists (grader.autograde.unreadable).
"""

import contextlib
import fcntl
import hashlib
import sqlite3
import sys
import time
import warnings

import nbformat
from nbformat.reader import NotJSONError
from sqlalchemy.engine import make_url

from .. import records as record
from ..cli.counts import count
from ..cli.errors import NbgraderFailed
from ..course import Course
from ..sandbox.cgroup import usable_cores, usable_memory
from ..sandbox.pool import SandboxUnavailable
from ..sandbox.worker import prestart_sandboxes, stop_prestarted
from . import nbgrader_pass
from .missing import show_missing
from .nbgrader_pass import SANDBOX_UNAVAILABLE, done_marker
from .progress import Progress, lines_as_they_come
from .table import grade_table
from .unreadable import show_unreadable

INVALID_SUFFIX = ".invalid"
# A run's peak memory as its container counts it (bench/autograde_speed.py, 40 students of this course): 595 MiB
# with one worker, 286 MiB more with each other one; the grader, nbgrader and the first worker's share make the rest.
GRADER_MIB, WORKER_MIB = 310, 290
NOT_JSON = (
    "the file could not be read as a notebook: it is not complete JSON (it may have been cut off "
    "while it was saved or uploaded, or changed outside Jupyter)"
)
NOT_A_NOTEBOOK = "the file could not be read as a notebook: it is JSON, but not in the notebook format Jupyter opens"


@contextlib.contextmanager
def grading_lock(course):
    """One grader at a time per course: a second one waits, then finds the work done."""
    path = course.grading / ".lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("Another grader is working on this course; waiting for it to finish.", file=sys.stderr)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _fingerprint(notebooks):
    digest = hashlib.sha256()
    for path in notebooks:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def set_aside_invalid(course, student, path):
    """Rename a notebook nbgrader cannot read to ``*.ipynb.invalid`` and record why it got no score, in words
    (the error's own text quotes the file: it is not kept). The notebook is validated once, as it is read."""
    refused = {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # cells without ids are fine: nbgrader adds them
            nbformat.read(path, as_version=4, capture_validation_error=refused)
        if not refused:
            return False
        reason = NOT_A_NOTEBOOK  # the format's schema refuses it
    except NotJSONError:
        reason = NOT_JSON
    except Exception:  # JSON, but not a notebook
        reason = NOT_A_NOTEBOOK
    path.rename(path.with_name(path.name + INVALID_SUFFIX))
    exercises = course.released_exercises().get(path.name, [])
    record.write(
        course,
        record.NotebookRecord(
            student,
            course.assignment,
            path.name,
            "invalid",
            reason,
            exercises=[record.ExerciseRecord(name, 0.0, points, "ungraded", reason) for name, points in exercises],
        ),
    )
    return True


def _gradebook_wal(course):
    """Let several nbgrader processes share an SQLite gradebook: readers no longer block the writer.
    Other databases (PostgreSQL) need nothing."""
    url = make_url(course.directory.db_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        with sqlite3.connect(url.database, timeout=30) as db:
            db.execute("PRAGMA journal_mode=WAL")


def default_workers():
    """One worker per core the grader may use, as many as fit in the memory it may use, and at least one: a
    container of 8 cores and 1 GiB runs 2, Gradescope's 768 MB one."""
    fit = (usable_memory() // 2**20 - GRADER_MIB) // WORKER_MIB
    return max(1, min(usable_cores(), fit))


def record_grades(course, fingerprints, processes, notebooks=None):
    """nbgrader's own autograde, students handed out one at a time to ``processes`` processes as each becomes free;
    what nbgrader logs goes to ``grading/<assignment>/nbgrader.log``, not to the instructor's screen. The checks of
    the exercises of ``notebooks`` (the handed-in notebooks' names; default: every exercise) are planned before the
    processes are forked, while their warm workers start; any other is planned where needed."""
    if not fingerprints:
        return  # no process to start, no check to plan
    _gradebook_wal(course)
    log = open(course.grading / "nbgrader.log", "a")
    waiting = list(fingerprints)
    processes = min(processes, len(waiting))
    progress = Progress(len(fingerprints), f"recording grades with nbgrader ({count(processes, 'worker')})")
    forking = nbgrader_pass.threads() == 1
    workers = prestart_sandboxes(course, processes) if forking else [None] * processes
    try:
        if forking:
            nbgrader_pass.warm_up(None if notebooks is None else handed_in_exercises(course, notebooks))
        children = [nbgrader_pass.start(course, log, worker) for worker in workers]
        failures, unavailable = _hand_out(children, waiting, fingerprints, progress)
    finally:
        stop_prestarted()
        progress.close()
        log.close()
    if unavailable:
        raise SandboxUnavailable(unavailable)
    if failures:
        raise NbgraderFailed(
            "nbgrader's autograde failed for these students (rerun to grade them again; "
            f"details in {log.name}):\n  " + "\n  ".join(failures)
        )


def _hand_out(children, waiting, fingerprints, progress):
    """Give each grading process a student, and the next one each time it says it is done; (failures, why the
    sandbox cannot start or None)."""
    holding = [set() for _ in children]  # the students each process has and has not finished

    def next_for(index):
        if waiting and not unavailable:
            student = waiting.pop(0)
            if nbgrader_pass.give(children[index], student, fingerprints[student]):
                holding[index].add(student)
                return
            waiting.insert(0, student)  # it has died: another process takes the student
        nbgrader_pass.finish(children[index])

    failures, unavailable = [], None
    for index in range(len(children)):
        next_for(index)
    for index, line in lines_as_they_come([child.stdout for child in children]):  # as each is done
        if line.startswith(SANDBOX_UNAVAILABLE):
            unavailable = line.removeprefix(SANDBOX_UNAVAILABLE).strip()
            for child in children:
                nbgrader_pass.finish(child)
            continue
        said = line.removeprefix("!").strip()
        progress.step(said)
        holding[index].discard(said.split(" ", 1)[0])
        if line.startswith("!"):
            failures.append(said)
        next_for(index)
    for child, held in zip(children, holding):
        nbgrader_pass.finish(child)
        if child.wait() != 0:  # a process that died says nothing of the students it did not finish
            failures += [
                f"{student} not graded: the grading process stopped (exit code {child.returncode})"
                for student in sorted(held)
            ]
    if not unavailable:
        failures += [f"{student} not graded: every grading process stopped" for student in waiting]
    return failures, unavailable


def autograde(course=".", assignment="self_attention", force=False, workers=None, dask=None):
    """Grade every submission of ``assignment``; return the grade table. ``dask``: grade on a Dask cluster
    instead of this machine (its scheduler's address, a cluster or a Client: grader/autograde/dask_grading.py)."""
    course = Course.at(course, assignment).resolved()
    if dask is not None:
        from .dask_grading import record_grades_on_dask, require_shared_gradebook

        require_shared_gradebook(course)
    started = time.monotonic()
    with grading_lock(course):
        todo, unreadable, already = {}, [], []
        for student_dir in sorted(course.every_student("submitted").glob(f"*/{course.assignment}")):
            student = student_dir.parent.name
            unreadable += [
                f"{student}/{path.name}"
                for path in sorted(student_dir.glob("*.ipynb"))
                if set_aside_invalid(course, student, path)
            ]
            notebooks = sorted(student_dir.glob("*.ipynb"))
            if not notebooks:
                continue
            marker = done_marker(course, student)
            if not force and marker.exists() and marker.read_text() == _fingerprint(notebooks):
                already.append(student)
                continue
            todo[student] = notebooks
        fingerprints = {s: _fingerprint(n) for s, n in todo.items()}
        if dask is not None:
            record_grades_on_dask(course, fingerprints, dask)
        else:
            record_grades(
                course,
                fingerprints,
                workers or default_workers(),
                {path.name for paths in todo.values() for path in paths},
            )
        show_unreadable(course)
        show_missing(course)
    print(summary(todo, unreadable, already, time.monotonic() - started), file=sys.stderr)
    return grade_table(course)


def handed_in_exercises(course, notebooks):
    """The exercises of the released notebooks named in ``notebooks``: a run that grades one notebook plans that
    notebook's checks only. Finding them imports the exercises, and PyTorch."""
    released = course.released_exercises()
    return sorted({name for notebook in notebooks for name, _ in released.get(notebook, [])})


def summary(todo, unreadable, already, seconds):
    """One line: the notebooks graded, those that could not be read, the students skipped as graded before."""
    if not todo and not unreadable:
        return (
            f"nothing new to grade: {count(len(already), 'student')} already graded; --force grades them again"
            if already
            else "nothing to grade: no notebook handed in (run python -m grader collect first)"
        )
    students = {s for s in todo} | {name.split("/")[0] for name in unreadable}
    line = (
        f"graded {count(sum(map(len, todo.values())), 'notebook')} of {count(len(students), 'student')} "
        f"in {seconds:.1f} s"
    )
    if unreadable:
        line += f"; {count(len(unreadable), 'notebook')} could not be read ({', '.join(unreadable)})"
    if already:
        line += f"; {count(len(already), 'student')} already graded, left as they were (--force grades them again)"
    return line
