"""A released course for each Gradescope test module, the run's autograder.zip, and where its /autograder roots go."""

import pathlib
import shutil
import tempfile

import pytest

from grader.gradescope.build import gradescope

from ..conftest import made_once
from ..course_builder import ASSIGNMENT, make_course

KIT_LIMITS = "c.SandboxExecute.unit_seconds = 10\nc.SandboxExecute.notebook_seconds = 60\n"


def with_kit_limits(released, folder):
    """A copy of the released course with the kit's own time limits: a busy machine must not time out a sound
    answer on one side of the comparison only."""
    course = make_course(released, folder)
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(KIT_LIMITS)
    return course


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    """A released course of this module's own, with the kit's own time limits."""
    return with_kit_limits(released_course, tmp_path_factory.mktemp("gradescope") / "course")


@pytest.fixture(scope="session")
def autograder(released_course, tmp_path_factory):
    """The autograder.zip of a course like ``course``, built once for the run and never changed (run_autograder
    grades in a copy of it unpacked under its own root); built as on most machines, where Python writes the
    bytecode of the modules it imports (the build runs nbgrader, which imports the staged kit)."""

    def build(folder):
        kit = with_kit_limits(released_course, folder / "course")
        with pytest.MonkeyPatch.context() as patch:
            patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
            return gradescope(course=kit, assignment=ASSIGNMENT, out=folder / "autograder.zip")

    return made_once(tmp_path_factory, "autograder", build)


@pytest.fixture(scope="module")
def roots():
    """Where the /autograder folders go: not under /tmp, which every sandbox replaces by its own, nor in the kit's
    checkout, which the sandbox hides as a copy of the kit (only the zip's ``hidden_folders`` may hide them), and
    open to every user (mkdtemp makes it the owner's alone), so that the walls around /autograder are really
    tried."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="gradescope-tests-", dir="/srv"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
