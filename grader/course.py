"""An nbgrader course folder, as the instructor's verbs see it: its paths, notebooks, students, records."""
import contextlib
import functools
import os
import pathlib
import subprocess
import sys

from nbgrader.api import Gradebook
from sqlalchemy.engine import make_url
from nbgrader.coursedir import CourseDirectory
from traitlets.config.loader import PyFileConfigLoader

from .records import NOTEBOOK_STATUSES, ExerciseRecord, NotebookRecord, read_all
from .selfcheck.notebook import read, exercise_cells


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
        raise RuntimeError(f"nbgrader {' '.join(arguments)} failed:\n{done.stderr}{done.stdout}")
    return done.stderr


def released_exercises(course, assignment):
    """{notebook file name: [(exercise, points), ...]} of the released notebooks."""
    release = folder(course, "release", ".", assignment)
    return {path.name: exercise_cells(read(path)) for path in sorted(release.glob("*.ipynb"))}


def gradebook_students(course):
    """The students in the course's gradebook (none when there is no gradebook yet)."""
    if not gradebook_exists(course):
        return []
    with venv_on_path(), Gradebook(course_directory(course).db_url) as gradebook:
        return [student.id for student in gradebook.students]


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


def all_records(course, assignment):
    """Every grading record, plus a 'missing' record for each student's notebook that has none.

    The students are those of the gradebook and of the records; the notebooks those released
    and those graded.
    """
    records = read_all(course, assignment)
    exercises = released_exercises(course, assignment)
    have = {(r.student, _stem(r.notebook)) for r in records}
    students = sorted(set(gradebook_students(course)) | {r.student for r in records})
    notebooks = {_stem(name): name for name in [r.notebook for r in records] + list(exercises)}
    missing = [_missing(student, assignment, name, exercises.get(name, []))
               for student in students for stem, name in sorted(notebooks.items()) if (student, stem) not in have]
    return sorted(records + missing, key=lambda r: (r.student, r.notebook))


def _stem(notebook):
    return pathlib.Path(notebook).stem


def _missing(student, assignment, notebook, exercises):
    reason = NOTEBOOK_STATUSES["missing"]
    return NotebookRecord(student, assignment, notebook, status="missing", reason=reason, exercises=[
        ExerciseRecord(name, 0.0, points, status="ungraded", reason=reason) for name, points in exercises])
