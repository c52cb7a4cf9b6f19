"""What runs on a Dask worker: the course set up once (a WorkerPlugin), then one task per student.

The course's fixed files (nbgrader_config.py, the source and the release of the assignment) reach every worker
with the plugin, which the scheduler also gives to a worker that joins later, a restarted one included. A student's
files travel with their task: their submitted folder goes in, their autograded folder and grading records come
back, and the grader writes them into the course (where it then flags the notebooks set aside as unreadable, as
in a local run). The gradebook is the course's shared database (``db_url``), which nbgrader on the worker writes
to as it would on the instructor's machine.

Each worker process keeps one warm sandbox worker, started when the plugin is set up, at the course's isolation
setting (the strongest this machine allows, unless nbgrader_config.py says otherwise); every notebook's record
names the level. The student is graded by nbgrader_pass's own unit, nbgrader's autograde for one student.
"""

import contextlib
import hashlib
import io
import os
import shutil
import tempfile
import threading
import warnings

import sqlalchemy
from distributed import WorkerPlugin, get_worker

from ..course import CONFIG, Course, path_with_venv
from ..sandbox.pool import SandboxUnavailable
from ..sandbox.worker import start_sandbox
from .dask_files import read_files, write_files
from .nbgrader_pass import SANDBOX_UNAVAILABLE, grade_student

_one_student_at_a_time = threading.Lock()  # nbgrader works in the current folder; the sandbox worker is one
_nbgrader_log = io.StringIO()  # nbgrader's stderr while it grades here: one stream, so that its app is made once


class CourseOnWorker(WorkerPlugin):
    """The course's fixed files, written into the Dask worker's own folder, and the worker's warm sandbox."""

    def __init__(self, assignment, config, source, release):
        """``config``: the text of nbgrader_config.py; ``source``, ``release``: the assignment's folders' files."""
        self.assignment, self.config, self.source, self.release = assignment, config, source, release

    def setup(self, worker):
        warnings.simplefilter("ignore")  # as in nbgrader_pass: SQLAlchemy's and nbformat's warnings
        os.environ["PATH"] = path_with_venv()  # nbgrader runs alembic by name
        root = os.path.abspath(tempfile.mkdtemp(prefix="attention-kit-course-", dir=worker.local_directory))
        # The course is here, whatever root the instructor's copy names; a sandbox sees nothing of the Dask
        # worker's folder (other courses, the files of the tasks it holds).
        with open(os.path.join(root, CONFIG), "w") as config:
            config.write(
                f"{self.config}\nc.CourseDirectory.root = {root!r}\n"
                f"c.SandboxExecute.hidden_folders.append({worker.local_directory!r})\n"
            )
        self.course, self.unavailable = Course.at(root, self.assignment), None
        write_files(self.course.source, self.source)
        write_files(self.course.release, self.release)
        try:
            start_sandbox(self.course)
        except SandboxUnavailable as error:
            self.unavailable = f"on Dask worker {worker.address}: " + str(error).replace("\n", " ")

    def teardown(self, worker):
        with _one_student_at_a_time:  # not under a student being graded (a task the client no longer waits for)
            shutil.rmtree(self.course.root, ignore_errors=True)  # the warm sandbox stays for the next course

    def grade(self, student, submitted):
        """Grade one student from the files of their submitted folder; {"line": what nbgrader_pass prints for them,
        "log": what nbgrader logged, "autograded": their autograded folder's files, "grading": their records}."""
        if self.unavailable:
            return {"line": f"{SANDBOX_UNAVAILABLE} {self.unavailable}"}
        course = self.course
        self._forget(student)
        write_files(course.submitted(student), submitted)
        here = os.getcwd()
        try:
            with contextlib.redirect_stderr(_nbgrader_log), graded_alone(course, student):
                grade_student(course, student)
            line = student
        except (Exception, SystemExit) as error:  # reported, as nbgrader_pass does; graded again on the next run
            line = f"! {student} {type(error).__name__}: {error}"
        finally:
            os.chdir(here)
        done = {
            "line": line,
            "log": _said(),
            "autograded": read_files(course.autograded(student)),
            "grading": read_files(course.grading / student),
        }
        self._forget(student)
        return done

    def _forget(self, student):
        for folder in (self.course.submitted(student), self.course.autograded(student), self.course.grading / student):
            shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def graded_alone(course, student):
    """Hold the gradebook's lock on this student while they are graded: a task the scheduler gives to a second
    worker while the first still runs it (a worker it took for dead under load) waits, instead of rewriting the
    student's rows in the gradebook at the same time. A PostgreSQL advisory lock, held by this connection: a worker
    that dies lets it go."""
    key = int.from_bytes(hashlib.sha256(f"{course.assignment}/{student}".encode()).digest()[:8], "big", signed=True)
    engine = sqlalchemy.create_engine(course.directory.db_url, poolclass=sqlalchemy.pool.NullPool)
    try:
        with engine.connect() as connection:
            connection.execute(sqlalchemy.text("SELECT pg_advisory_lock(:key)"), {"key": key})
            try:
                yield
            finally:
                connection.execute(sqlalchemy.text("SELECT pg_advisory_unlock(:key)"), {"key": key})
    finally:
        engine.dispose()


def _said():
    """What nbgrader logged since the last call."""
    said = _nbgrader_log.getvalue()
    _nbgrader_log.seek(0)
    _nbgrader_log.truncate()
    return said


def grade_on_worker(plugin, student, submitted):
    """The Dask task for one student: graded on this worker's copy of the course (the plugin named ``plugin``)."""
    with _one_student_at_a_time:
        return get_worker().plugins[plugin].grade(student, submitted)
