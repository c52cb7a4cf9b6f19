"""A course as an instructor extends it: a plain nbgrader test cell, a written answer, a task, a new notebook,
a due date with late work given zero; students who hand in through nbgrader's exchange; a manual grade."""

import os
import pathlib
import subprocess
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from nbgrader.api import Gradebook

from grader.course import Course, path_with_venv, venv_on_path

from .course_builder import ASSIGNMENT, BASICS, new_test_course, submission

EXTRA = "06_extra.ipynb"
LATE_PENALTY = """
c.LateSubmissionPlugin.penalty_method = "zero"
"""
DUE = "2026-01-10 12:00:00"


def graded(cell, grade_id, points=None, solution=False, grade=False, task=False, locked=False):
    cell.metadata["nbgrader"] = {
        "grade_id": grade_id,
        "grade": grade,
        "solution": solution,
        "task": task,
        "locked": locked,
        "schema_version": 3,
        **({"points": points} if points else {}),
    }
    return cell


DOUBLE = graded(
    new_code_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"),
    "double",
    solution=True,
)
DOUBLE_TEST = graded(
    new_code_cell(
        "assert double(2) == 4\n### BEGIN HIDDEN TESTS\n"
        "assert double(21) == 42, 'double of twenty-one is forty-two'\n"
        "### END HIDDEN TESTS"
    ),
    "double_test",
    points=2,
    grade=True,
    locked=True,
)
WRITTEN = graded(
    new_markdown_cell(
        "Why divide the scores by sqrt(d_k)?\n\n=== BEGIN MARK SCHEME ===\n"
        "large dot products\n=== END MARK SCHEME ===\n\nYOUR ANSWER HERE"
    ),
    "why_scale",
    points=3,
    solution=True,
    grade=True,
)
TASK = graded(
    new_markdown_cell("Task: plot the weights of one head and say what you see."),
    "plot_task",
    points=1,
    task=True,
    locked=True,
)
TRIPLE = graded(
    new_code_cell("def triple(x):\n    ### BEGIN SOLUTION\n    return 3 * x\n    ### END SOLUTION"),
    "triple",
    solution=True,
)
TRIPLE_TEST = graded(
    new_code_cell(
        "assert triple(1) == 3\n### BEGIN HIDDEN TESTS\n"
        "assert triple(5) == 15, 'triple of five is fifteen'\n### END HIDDEN TESTS"
    ),
    "triple_test",
    points=4,
    grade=True,
    locked=True,
)


def make_extended_course(folder):
    """Released to the exchange: notebook 01 with three more graded cells, a new notebook 06 with a plain exercise.
    The assignment gets its due date as ``nbgrader db assignment add --duedate`` gives it (``DbAssignmentAddApp``:
    the same gradebook, rows and course id), in this process rather than in one of its own."""
    folder = pathlib.Path(folder)
    course = new_test_course(folder / "course", LATE_PENALTY + exchange_config(folder))
    directory = Course.at(course).directory
    with venv_on_path(), Gradebook(directory.db_url, directory.course_id) as book:
        book.update_or_create_assignment(ASSIGNMENT, duedate=DUE)
    (folder / "exchange").mkdir(mode=0o777)
    os.chmod(folder / "exchange", 0o777)
    source = course / "solutions" / ASSIGNMENT
    basics = nbformat.read(source / BASICS, as_version=4)
    basics.cells += [DOUBLE, DOUBLE_TEST, WRITTEN, TASK]
    nbformat.write(basics, source / BASICS)
    nbformat.write(
        new_notebook(
            cells=[new_markdown_cell("# 06 An extra exercise"), TRIPLE, TRIPLE_TEST],
            metadata={"kernelspec": basics.metadata["kernelspec"]},
        ),
        source / EXTRA,
    )
    Course.at(course, ASSIGNMENT).generate_assignment("--force")
    Course.at(course).run_nbgrader("release_assignment", ASSIGNMENT, "--force")
    return course


def exchange_config(folder):
    return f"c.Exchange.root = {str(folder / 'exchange')!r}\n"


def as_student(course, student, *arguments):
    """A stock nbgrader command run by ``student`` in their own folder (next to the course)."""
    home = course.parent / "students" / student
    home.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbgrader",
            *arguments,
            f"--student={student}",
            "--CourseDirectory.course_id=self_attention_kit",
            "--log-level=ERROR",
            f"--Exchange.root={course.parent / 'exchange'}",
            f"--Exchange.cache={home / 'cache'}",
        ],
        cwd=home,
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": path_with_venv()},
    )
    assert done.returncode == 0, done.stderr
    return home


def hand_in(course, student, answers=None, extra_answers=None):
    """``nbgrader submit`` of notebook 01 (reference answers but ``answers``) and notebook 06."""
    work = course.parent / "students" / student / ASSIGNMENT
    work.mkdir(parents=True, exist_ok=True)
    nbformat.write(submission(course, answers), work / BASICS)
    nbformat.write(submission(course, extra_answers, notebook=EXTRA), work / EXTRA)
    as_student(course, student, "submit", ASSIGNMENT)


def collect(course, handed_in_at):
    """``nbgrader collect``, then the hand-in times of ``{student: time}`` (the exchange stamps them now)."""
    Course.at(course).run_nbgrader("collect", ASSIGNMENT)
    for student, when in handed_in_at.items():
        (course / "submitted" / student / ASSIGNMENT / "timestamp.txt").write_text(when)


def grade_by_hand(course, student, grade_id, score, notebook=BASICS):
    """What an instructor does in formgrader: a manual score for one cell."""
    with Course.at(course).gradebook() as book:
        grade = book.find_grade(grade_id, pathlib.Path(notebook).stem, ASSIGNMENT, student)
        grade.manual_score = score
        book.db.commit()
