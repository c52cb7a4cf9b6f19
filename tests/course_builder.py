"""Small nbgrader courses for the end-to-end tests: the kit's config, and submissions made from answers.

Every test course starts from :func:`new_test_course`. Releasing takes seconds (``nbgrader
generate_assignment``), so each run releases the kit's course once (``released_course`` in
conftest.py) and each test grades a copy of its own (:func:`make_course`).
"""

import json
import pathlib
import shutil
import subprocess
import sys

import nbformat
from nbgrader.api import Gradebook
from sqlalchemy import create_engine, text

from grader.course import Course, venv_on_path
from grader.demo.fill import fill, reference_answers
from grader.demo.run import ROOT, new_course

ASSIGNMENT = "self_attention"
BASICS = "01_attention_basics.ipynb"
FAST_LIMITS = """
c.SandboxExecute.unit_seconds = 4
c.SandboxExecute.notebook_seconds = 40
c.SandboxExecute.memory_bytes = 512 << 20
"""


def new_test_course(folder, config=""):
    """A course not released yet: the kit's solutions and config, with limits small enough for tests
    and ``config`` added."""
    course = new_course(pathlib.Path(folder))
    with open(course / "nbgrader_config.py", "a") as file:
        file.write(FAST_LIMITS + config)
    return course


def release_course(folder):
    """A released course (nbgrader's release folder and a gradebook that knows the assignment)."""
    course = new_test_course(folder)
    Course.at(course, ASSIGNMENT).generate_assignment("--force")
    return course


def make_course(released, folder):
    """A released course of a test's own: a copy of ``released`` (the session's ``released_course``)."""
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(released, folder)
    return pathlib.Path(folder)


def empty_gradebook(folder):
    """A new, empty SQLite gradebook (nbgrader runs ``alembic`` to make one: seconds); conftest's
    ``empty_gradebook`` makes one per session, for tests to copy."""
    path = pathlib.Path(folder) / "gradebook.db"
    with venv_on_path(), Gradebook(f"sqlite:///{path}"):
        pass
    return path


def schema_version(path):
    """The alembic version of the SQLite gradebook at ``path``, as nbgrader and alembic read it."""
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as db:
            return db.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    finally:
        engine.dispose()


DUE = "2026-03-02 18:00:00"  # the due date of :func:`dated_course`, in UTC as nbgrader keeps it


def dated_course(folder, gradebook, handed_in, extensions=None):
    """A course whose assignment is due at ``DUE``, with no late penalty (the kit's config: nbgrader's
    AssignLatePenalties takes none off), graded in seconds without running a notebook: each student of
    ``handed_in`` ({student: time, as nbgrader's ``timestamp.txt`` has it}) hands in notebook 01 with its
    ``timestamp.txt``, which is put in the gradebook as ``nbgrader autograde`` puts it (read by nbgrader's
    ``CourseDirectory.get_existing_timestamp``), and gets full marks for its one test cell (3 points).
    ``extensions``: {student: datetime.timedelta}, nbgrader's extension of the due date. ``gradebook``: the
    session's ``empty_gradebook``, copied."""
    course = pathlib.Path(folder)
    course.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copy(gradebook, course / "gradebook.db")
    kit, notebook = Course.at(course), pathlib.PurePath(BASICS).stem
    with kit.gradebook() as book:
        book.add_assignment(ASSIGNMENT, duedate=DUE)
        book.add_notebook(notebook, ASSIGNMENT)
        book.add_grade_cell("attention_scores_test", notebook, ASSIGNMENT, max_score=3, cell_type="code")
        for student, when in handed_in.items():
            submit(course, student, "{}")
            (kit.submitted(student) / "timestamp.txt").write_text(when)
            book.update_or_create_student(student)
            handed = book.update_or_create_submission(
                ASSIGNMENT, student, timestamp=kit.directory.get_existing_timestamp(str(kit.submitted(student)))
            )
            handed.extension = (extensions or {}).get(student)
            grade = book.find_grade("attention_scores_test", notebook, ASSIGNMENT, student)
            grade.auto_score, grade.needs_manual_grade = 3, False  # as nbgrader's SaveAutoGrades leaves a pass
        book.db.commit()
    return course


def submission(course, answers=None, notebook=BASICS):
    """The released notebook filled with the reference answers, some replaced by ``answers``."""
    release = nbformat.read(course / "exercises" / ASSIGNMENT / notebook, as_version=4)
    solution = nbformat.read(course / "solutions" / ASSIGNMENT / notebook, as_version=4)
    return fill(release, {**reference_answers(solution), **(answers or {})})


def submit(course, student, nb, notebook=BASICS):
    folder = course / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(nb, str):
        (folder / notebook).write_text(nb)
    else:
        nbformat.write(nb, folder / notebook)


def worth(notebook, *exercises):
    """What the released ``notebook`` is worth (its test cells' points), or ``exercises`` of it: read from the
    committed release, so that a new exercise changes no test's numbers."""
    points = dict(Course.at(ROOT).released_exercises()[notebook])
    return sum(points[name] for name in exercises or points)


def visible_checks(notebook):
    """(exercises, visible checks) of the released ``notebook``, as the self-check counts them."""
    from grader.checks.registry import visible_parts

    names = [name for name, _ in Course.at(ROOT).released_exercises()[notebook]]
    return len(names), sum(len(visible_parts(name)) for name in names)


def graded_cell(nb, name):
    return next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == f"{name}_test")


def autograde(course, *extra):
    """``python -m grader autograde`` as the instructor runs it, with one grading process: a test's class is
    small, and a second process would cost seconds of start-up to save less (the demo, the attack suite and
    the resilience tests grade with one per core); returns the finished process."""
    workers = () if "--workers" in extra else ("--workers", "1")
    return subprocess.run(
        [sys.executable, "-m", "grader", "autograde", "--course", str(course), *workers, *extra],
        capture_output=True,
        text=True,
        timeout=600,
    )


def records(course):
    """{student: record of notebook 01} from the grading records."""
    from grader.records import read_all

    return {r.student: r for r in read_all(Course.at(course))}


def exercise(record, name):
    return next(e for e in record.exercises if e.name == name)


def dumps(nb):
    return json.dumps(nb)
