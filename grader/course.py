"""An nbgrader course folder, as the instructor's verbs see it: its configuration, folders and notebooks."""
import contextlib
import functools
import os
import pathlib
import subprocess
import sys

from sqlalchemy.engine import make_url
from nbgrader.coursedir import CourseDirectory
from traitlets.config.loader import PyFileConfigLoader

from .errors import NbgraderFailed
from .checks.cells import cell_points
from .checks.notebook import read, exercise_cells


def course_directory(course):
    """nbgrader's view of the course: its folders, as ``nbgrader_config.py`` sets them."""
    return _course_directory(pathlib.Path(course).resolve())


@functools.cache
def _course_directory(root):
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    return CourseDirectory(config=config, root=str(root))


def folder(course, name, student, assignment):
    """One of the course's configured folders (release, submitted, feedback...) as a Path."""
    directory = course_directory(course)
    return pathlib.Path(directory.format_path(getattr(directory, f"{name}_directory"), student, assignment))


def run_nbgrader(course, *arguments):
    """Run a stock ``nbgrader`` command in the course folder; fail with its own error output."""
    done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments, "--log-level=ERROR"],
                          cwd=course, capture_output=True, text=True, env={**os.environ, "PATH": path_with_venv()})
    if done.returncode != 0:
        raise NbgraderFailed(f"nbgrader {' '.join(arguments)} failed:\n{done.stderr}{done.stdout}")
    return done.stderr


def released_exercises(course, assignment):
    """{notebook file name: [(exercise, points), ...]} of the released notebooks."""
    release = folder(course, "release", ".", assignment)
    return {path.name: [(name, cell_points(cell)) for name, cell in exercise_cells(read(path)).items()]
            for path in sorted(release.glob("*.ipynb"))}


def gradebook_exists(course):
    """False only for an SQLite gradebook whose file is not there yet (opening it would create it)."""
    url = make_url(course_directory(course).db_url)
    return url.get_backend_name() != "sqlite" or not url.database or pathlib.Path(url.database).exists()


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
