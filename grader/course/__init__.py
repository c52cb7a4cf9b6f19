"""One assignment of an nbgrader course, as the instructor's verbs see it: its folders, its gradebook, its notebooks.

Every verb builds one :class:`Course` from its ``course`` and ``assignment`` arguments and hands it down.
nbgrader's folders come from one ``CourseDirectory``, as ``nbgrader_config.py`` sets them; the kit's
own folders (``grading/``, ``collected/``, ``reports/``, ``downloads/``) are named here and nowhere else.
"""

import contextlib
import dataclasses
import functools
import os
import pathlib
import subprocess
import sys

from nbgrader.api import Gradebook
from nbgrader.coursedir import CourseDirectory
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from traitlets.config.loader import PyFileConfigLoader

from ..checks.cells import cell_points
from ..checks.notebook import exercise_cells, read
from ..cli.errors import NbgraderFailed
from . import new_gradebook

ASSIGNMENT = "self_attention"
CONFIG = "nbgrader_config.py"
SIMILARITY_PAGE = "similarity.html"  # written by the similarity verb beside the class report, which links it


@dataclasses.dataclass(frozen=True)
class Course:
    """An assignment of the nbgrader course in ``root``. ``root`` is the folder as given, so that the paths the
    verbs return are the instructor's; nbgrader's folders are absolute, as nbgrader makes them."""

    root: pathlib.Path
    assignment: str = ASSIGNMENT

    @classmethod
    def at(cls, course=".", assignment=ASSIGNMENT):
        """The course of a verb's ``course`` and ``assignment`` arguments; a Course is taken as it is."""
        return course if isinstance(course, Course) else cls(pathlib.Path(course), assignment)

    @classmethod
    def of_notebook(cls, preprocessor, resources):
        """The course of the notebook that nbgrader's ``preprocessor`` works on: built once, by the first of the
        kit's preprocessors, from nbgrader's configuration, and handed to the next ones in ``resources``, as nbgrader
        hands its own (``resources["nbgrader"]``)."""
        kit = resources.setdefault("attention_kit", {})
        if "course" not in kit:
            kit["course"] = cls.running(preprocessor.config, resources["nbgrader"]["assignment"])
        return kit["course"]

    @classmethod
    def running(cls, config, assignment):
        """The course of the nbgrader command running in this process, as its configuration sets it
        (its command line included): for the kit's nbgrader preprocessors."""
        directory = CourseDirectory(config=config)
        return cls(pathlib.Path(directory.root), assignment)._with(directory)

    def resolved(self):
        """The same course, its root an absolute path (for another process, or a path to print as absolute)."""
        course = dataclasses.replace(self, root=self.root.resolve())
        return course._with(self.directory) if "directory" in vars(self) else course

    def _with(self, directory):
        object.__setattr__(self, "directory", directory)  # the cached property's value: made once
        return self

    @functools.cached_property
    def config(self):
        """The course's nbgrader configuration, as its ``nbgrader_config.py`` sets it."""
        return PyFileConfigLoader(CONFIG, path=str(self.root.resolve())).load_config()

    @functools.cached_property
    def directory(self):
        """nbgrader's view of the course, as ``nbgrader_config.py`` sets it."""
        return CourseDirectory(config=self.config, root=str(self.root.resolve()))

    # nbgrader's folders of the assignment
    def folder(self, step, student="."):
        """nbgrader's folder of ``step`` (source, release, submitted, autograded, feedback) for ``student``."""
        directory = self.directory
        return pathlib.Path(directory.format_path(getattr(directory, f"{step}_directory"), student, self.assignment))

    @property
    def source(self):
        return self.folder("source")

    @property
    def release(self):
        return self.folder("release")

    def submitted(self, student):
        return self.folder("submitted", student)

    def autograded(self, student):
        return self.folder("autograded", student)

    def feedback(self, student):
        return self.folder("feedback", student)

    def every_student(self, step):
        """The folder of ``step`` that holds every student's (``submitted/``): ``<student>/<assignment>/`` in it."""
        return self.folder(step, "*").parent.parent

    # the kit's own folders
    @property
    def grading(self):
        """The grading records, the grading lock and nbgrader's log of autograde."""
        return self.root / "grading" / self.assignment

    @property
    def collected(self):
        """What collect did: a log per collection, the students' LMS identities, the versions collected."""
        return self.root / "collected" / self.assignment

    @property
    def reports(self):
        """Where export and report write by default."""
        return self.root / "reports"

    @property
    def downloads(self):
        """What students download: the bundle and the student wheel."""
        return self.root / "downloads"

    # the gradebook and nbgrader
    @contextlib.contextmanager
    def gradebook(self):
        """nbgrader's gradebook of the course, opened where nbgrader can find ``alembic``; made first if it is new
        (grader/course/new_gradebook.py)."""
        db_url = self.directory.db_url  # the configuration is read once
        new_gradebook.make_if_empty(db_url, self.root)
        with venv_on_path(), Gradebook(db_url) as book:
            yield book

    def gradebook_exists(self):
        """False only for an SQLite gradebook whose file is not there yet (opening it would create it)."""
        url = make_url(self.directory.db_url)
        return url.get_backend_name() != "sqlite" or not url.database or pathlib.Path(url.database).exists()

    def gradebook_unreachable(self):
        """Why the course's gradebook server cannot be reached, in one line, or None (an SQLite gradebook is a
        file, made when missing)."""
        url = make_url(self.directory.db_url)
        if url.get_backend_name() == "sqlite":
            return None
        engine = create_engine(
            url, connect_args={"connect_timeout": 10} if url.get_backend_name() == "postgresql" else {}
        )
        try:
            with engine.connect():
                return None
        except SQLAlchemyError as error:
            reason = str(getattr(error, "orig", None) or error).strip().splitlines() or [type(error).__name__]
            return f"cannot reach the course's gradebook {url.render_as_string(hide_password=True)}: {reason[0]}"
        finally:
            engine.dispose()

    def generate_assignment(self, *options):
        """``nbgrader generate_assignment`` of the course's assignment, its gradebook made first if it is new
        (grader/course/new_gradebook.py: nbgrader would start ``alembic`` for it)."""
        new_gradebook.make_if_empty(self.directory.db_url, self.root)
        return self.run_nbgrader("generate_assignment", self.assignment, *options)

    def run_nbgrader(self, *arguments):
        """Run a stock ``nbgrader`` command in the course folder; fail with its own error output."""
        return self.run_module("nbgrader", *arguments, "--log-level=ERROR")

    def run_module(self, module, *arguments):
        """Run ``python -m <module> <arguments>`` in the course folder (this environment's commands first on PATH);
        fail with its error output."""
        done = subprocess.run(
            [sys.executable, "-m", module, *arguments],
            cwd=self.root,
            capture_output=True,
            text=True,
            env={**os.environ, "PATH": path_with_venv()},
        )
        if done.returncode != 0:
            raise NbgraderFailed(f"{module} {' '.join(arguments)} failed:\n{done.stderr}{done.stdout}")
        return done.stderr

    def released_notebooks(self):
        """{notebook file name: notebook} of the release, read now."""
        return {path.name: read(path) for path in sorted(self.release.glob("*.ipynb"))}

    def released_exercises(self):
        """{notebook file name: [(exercise, points), ...]} of the released notebooks."""
        return {
            path.name: [(name, cell_points(cell)) for name, cell in exercise_cells(read(path)).items()]
            for path in sorted(self.release.glob("*.ipynb"))
        }


def path_with_venv():
    """PATH with this interpreter's folder first: nbgrader runs ``alembic`` by name, venv activated or not."""
    return os.pathsep.join([str(pathlib.Path(sys.executable).parent), os.environ.get("PATH", "")])


@contextlib.contextmanager
def venv_on_path():
    saved = os.environ.get("PATH", "")
    os.environ["PATH"] = path_with_venv()
    try:
        yield
    finally:
        os.environ["PATH"] = saved
