"""``autograde --dask``: each student graded as a Dask task, on a cluster's workers, with the guarantees of a local
run (see grader/autograde/dask_worker.py for the worker's side).

A student's files travel with their task, so the workers need no filesystem shared with the course: the Dask
clusters that sit beside a JupyterHub (Dask Gateway, dask-kubernetes) have none. The scores go straight to the
course's gradebook, a database every worker reaches (PostgreSQL); an SQLite file is refused.

This side reports each student as their task completes, as :func:`grader.autograde.run.record_grades` does for
its grading processes: the progress bar moves, the autograded notebooks and records are written into the course,
then the student's completion marker. A worker that dies is Dask's to handle: the scheduler gives its tasks to
another worker (up to ``distributed.scheduler.allowed-failures`` times, then the student is reported as not
graded); grading a student again is harmless, since nbgrader's autograde is forced and the files are replaced whole.
"""

import contextlib
import hashlib
import pickle
import shutil
import uuid

from distributed import Client, KilledWorker, as_completed
from sqlalchemy.engine import make_url

from ..cli.counts import count
from ..cli.errors import NbgraderFailed, UsageError
from ..course import CONFIG
from ..sandbox.pool import SandboxUnavailable
from .dask_files import read_files, write_files
from .dask_worker import CourseOnWorker, grade_on_worker
from .nbgrader_pass import SANDBOX_UNAVAILABLE, done_marker
from .progress import Progress

CONNECT_SECONDS = 30


def require_shared_gradebook(course):
    """Refuse a course whose gradebook the Dask workers cannot share: an SQLite file is on one machine."""
    if make_url(course.directory.db_url).get_backend_name() == "sqlite":
        raise UsageError(
            "grading on Dask needs a gradebook that every Dask worker reaches: set "
            f"c.CourseDirectory.db_url in {CONFIG} to the course's PostgreSQL database "
            "(postgresql://user@host/database)"
        )


@contextlib.contextmanager
def connected(cluster):
    """A Dask client of ``cluster``: a scheduler's address (tcp://scheduler:8786), a cluster object (a Dask
    Gateway, dask-kubernetes or local cluster) or a Client, used as it is and left open."""
    if isinstance(cluster, Client):
        yield cluster
        return
    try:
        client = Client(cluster, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        raise UsageError(f"cannot reach the Dask scheduler at {cluster}: {error}") from None
    with client:
        yield client


def course_plugin(course):
    """The course's fixed files, as one plugin for every worker, and its name: the same course, the same name."""
    ignore = course.directory.ignore
    plugin = CourseOnWorker(
        course.assignment,
        (course.root / CONFIG).read_text(),
        read_files(course.source, ignore),
        read_files(course.release, ignore),
    )
    digest = hashlib.sha256(pickle.dumps(vars(plugin))).hexdigest()[:16]
    return plugin, f"attention-kit-{course.assignment}-{digest}"


def keep(course, student, done):
    """Write what a worker sent back into the course: the autograded folder replaced whole, as nbgrader's
    autograde replaces it, and the records."""
    shutil.rmtree(course.autograded(student), ignore_errors=True)
    write_files(course.autograded(student), done["autograded"])
    write_files(course.grading / student, done["grading"])


def record_grades_on_dask(course, fingerprints, cluster):
    """Grade the students of ``fingerprints`` on ``cluster``, one task each; what nbgrader logs goes to
    ``grading/<assignment>/nbgrader.log``, as in a local run. Raises as record_grades does."""
    if not fingerprints:
        return
    with connected(cluster) as client, open(course.grading / "nbgrader.log", "a") as log:
        plugin, name = course_plugin(course)
        client.register_plugin(plugin, name=name)
        try:
            failures = _grade(client, name, course, fingerprints, log)
        finally:
            client.unregister_worker_plugin(name)
    if failures:
        raise NbgraderFailed(
            "nbgrader's autograde failed for these students (rerun to grade them again; "
            f"details in {log.name}):\n  " + "\n  ".join(failures)
        )


def _grade(client, plugin, course, fingerprints, log):
    """A task per student, reported as each completes; the failures, in words."""
    run = uuid.uuid4().hex[:8]
    futures = {
        client.submit(
            grade_on_worker,
            plugin,
            student,
            read_files(course.submitted(student)),
            key=f"attention-kit-grade-{student}-{run}",
        ): student  # the dashboard names them
        for student in fingerprints
    }
    workers = len(client.scheduler_info()["workers"])
    progress = Progress(len(futures), f"recording grades with nbgrader on Dask ({count(workers, 'worker')})")
    failures, unavailable = [], None
    for future in as_completed(list(futures)):
        student = futures.pop(future)
        try:
            done = future.result()
        except KilledWorker as error:
            done = {
                "line": f"! {student} not graded: every Dask worker that took them died "
                f"({error.allowed_failures + 1} times)"
            }
        except Exception as error:  # the scheduler gone, the task cancelled...: not graded, and said so
            done = {"line": f"! {student} not graded: {type(error).__name__}: {error}"}
        future.release()  # kept, the scheduler would grade them again if the worker holding this result died
        line = done["line"]
        if line.startswith(SANDBOX_UNAVAILABLE):
            unavailable = line.removeprefix(SANDBOX_UNAVAILABLE).strip()
            client.cancel(list(futures))
            break
        log.write(done.get("log", ""))
        if "autograded" in done:
            keep(course, student, done)
        if line.startswith("!"):
            failures.append(line[1:].strip())
        else:
            done_marker(course, student).write_text(fingerprints[student])
        progress.step(line.strip())
    progress.close()
    if unavailable:
        raise SandboxUnavailable(unavailable)
    return failures
