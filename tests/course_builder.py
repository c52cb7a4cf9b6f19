"""Small nbgrader courses for the end-to-end tests: the kit's config, and submissions made from answers."""
import json
import pathlib
import subprocess
import sys

import nbformat

from grader.demo.fill import fill, reference_answers
from grader.demo.run import new_course

ASSIGNMENT = "self_attention"
BASICS = "01_attention_basics.ipynb"
FAST_LIMITS = """
c.SandboxExecute.unit_seconds = 4
c.SandboxExecute.notebook_seconds = 40
c.SandboxExecute.memory_bytes = 512 << 20
"""


def make_course(folder):
    """A released course with limits small enough for tests."""
    course = new_course(pathlib.Path(folder))
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(FAST_LIMITS)
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force",
                    "--log-level=ERROR"], cwd=course, check=True, capture_output=True)
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


def graded_cell(nb, name):
    return next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == f"{name}_test")


def autograde(course, *extra):
    """``python -m grader autograde`` as the instructor runs it; returns the finished process."""
    return subprocess.run([sys.executable, "-m", "grader", "autograde", "--course", str(course), *extra],
                          capture_output=True, text=True, timeout=600)


def records(course):
    """{student: record of notebook 01} from the grading records."""
    from grader.records import read_all
    return {r.student: r for r in read_all(course, ASSIGNMENT)}


def exercise(record, name):
    return next(e for e in record.exercises if e.name == name)


def dumps(nb):
    return json.dumps(nb)
