"""A released course and its autograder.zip for each Gradescope test module, and where its /autograder roots go."""
import pathlib
import shutil
import tempfile

import pytest

from grader.gradescope.build import gradescope

from ..conftest import ROOT
from ..course_builder import ASSIGNMENT, make_course


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    """A released course, with the kit's own time limits: a busy machine must not time out a sound answer
    on one side of the comparison only."""
    course = make_course(released_course, tmp_path_factory.mktemp("gradescope") / "course")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write("c.SandboxExecute.unit_seconds = 10\nc.SandboxExecute.notebook_seconds = 60\n")
    return course


@pytest.fixture(scope="module")
def roots():
    """Where the /autograder folders go: not under /tmp, which every sandbox replaces by its own, so
    that the walls around /autograder are really tried."""
    (ROOT / "build").mkdir(exist_ok=True)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="gradescope-tests-", dir=ROOT / "build"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def autograder(course):
    return gradescope(course=course, assignment=ASSIGNMENT, out=course.parent / "autograder.zip")
