"""A class of one, graded, for the tests of regrade's preview: its id and its course's folder hold a space and a
quote; it hands in notebook 01. Each class is graded once for the run (``made_once``): the tests copy it."""

import shutil

import pytest

from grader.regrade import preview

from ..conftest import made_once
from ..course_builder import autograde, make_course, submission, submit
from .class_of_one import DIM0, STUDENT


@pytest.fixture(scope="module")
def kit_as_it_was(tmp_path_factory):
    """The kit's code as the preview hashes it (grader.regrade.preview.KIT): a copy of this checkout's made as the
    module starts, so that someone editing the checkout meanwhile does not make every preview stale."""
    kit = shutil.copytree(
        preview.KIT, tmp_path_factory.mktemp("kit") / "grader", ignore=shutil.ignore_patterns("__pycache__")
    )
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(preview, "KIT", kit)
        yield kit


def graded(released_course, folder, answers):
    course = make_course(released_course, folder / "course")
    submit(course, STUDENT, submission(course, answers))
    done = autograde(course)
    assert done.returncode == 0, done.stderr
    return course


@pytest.fixture(scope="session")
def right(released_course, tmp_path_factory):
    """The class graded, its answers right; never changed: copy it."""
    return made_once(tmp_path_factory, "regrade_right", lambda folder: graded(released_course, folder, {}))


@pytest.fixture(scope="session")
def wrong(released_course, tmp_path_factory):
    """The class graded, softmax_scores answered along the wrong dimension; never changed: copy it."""
    return made_once(
        tmp_path_factory, "regrade_wrong", lambda folder: graded(released_course, folder, {"softmax_scores": DIM0})
    )
