"""A course as an instructor extends it: a plain nbgrader test cell, a written answer, a task, a new notebook,
a due date with late work given zero, and a manual grade; graded with the kit."""
import datetime
import pathlib

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from grader.course import course_directory, run_nbgrader, venv_on_path
from nbgrader.api import Gradebook

from .course_builder import ASSIGNMENT, BASICS, FAST_LIMITS, submission, submit
from grader.demo.run import new_course

EXTRA = "06_extra.ipynb"
LATE_PENALTY = """
c.LateSubmissionPlugin.penalty_method = "zero"
"""
DUE = "2026-01-10 12:00:00"


def graded(cell, grade_id, points=None, solution=False, grade=False, task=False, locked=False):
    cell.metadata["nbgrader"] = {"grade_id": grade_id, "grade": grade, "solution": solution, "task": task,
                                 "locked": locked, "schema_version": 3, **({"points": points} if points else {})}
    return cell


DOUBLE = graded(new_code_cell("def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"),
                "double", solution=True)
DOUBLE_TEST = graded(new_code_cell("assert double(2) == 4\n### BEGIN HIDDEN TESTS\n"
                                   "assert double(21) == 42, 'double of twenty-one is forty-two'\n"
                                   "### END HIDDEN TESTS"), "double_test", points=2, grade=True, locked=True)
WRITTEN = graded(new_markdown_cell("Why divide the scores by sqrt(d_k)?\n\n=== BEGIN MARK SCHEME ===\n"
                                   "large dot products\n=== END MARK SCHEME ===\n\nYOUR ANSWER HERE"),
                 "why_scale", points=3, solution=True, grade=True)
TASK = graded(new_markdown_cell("Task: plot the weights of one head and say what you see."), "plot_task",
              points=1, task=True, locked=True)
TRIPLE = graded(new_code_cell("def triple(x):\n    ### BEGIN SOLUTION\n    return 3 * x\n    ### END SOLUTION"),
                "triple", solution=True)
TRIPLE_TEST = graded(new_code_cell("assert triple(1) == 3\n### BEGIN HIDDEN TESTS\n"
                                   "assert triple(5) == 15, 'triple of five is fifteen'\n### END HIDDEN TESTS"),
                     "triple_test", points=4, grade=True, locked=True)


def make_extended_course(folder):
    """Released: notebook 01 with three more graded cells, and a new notebook 06 with one plain exercise."""
    course = new_course(pathlib.Path(folder))
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(FAST_LIMITS + LATE_PENALTY)
    source = course / "solutions" / ASSIGNMENT
    basics = nbformat.read(source / BASICS, as_version=4)
    basics.cells += [DOUBLE, DOUBLE_TEST, WRITTEN, TASK]
    nbformat.write(basics, source / BASICS)
    nbformat.write(new_notebook(cells=[new_markdown_cell("# 06 An extra exercise"), TRIPLE, TRIPLE_TEST],
                                metadata={"kernelspec": basics.metadata["kernelspec"]}), source / EXTRA)
    run_nbgrader(course, "db", "assignment", "add", ASSIGNMENT, f"--duedate={DUE}")
    run_nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    return course


def hand_in(course, student, answers, when, extra_answers=None):
    """Submit notebook 01 (reference answers but ``answers``) and notebook 06, at ``when``."""
    submit(course, student, submission(course, answers))
    submit(course, student, submission(course, extra_answers, notebook=EXTRA), notebook=EXTRA)
    folder = course / "submitted" / student / ASSIGNMENT
    (folder / "timestamp.txt").write_text(when)


def grade_by_hand(course, student, grade_id, score, notebook=BASICS):
    """What an instructor does in formgrader: a manual score for one cell."""
    with venv_on_path(), Gradebook(course_directory(course).db_url) as gradebook:
        grade = gradebook.find_grade(grade_id, pathlib.Path(notebook).stem, ASSIGNMENT, student)
        grade.manual_score = score
        gradebook.db.commit()
