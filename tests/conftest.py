"""Shared helpers for the kit's tests."""
import fcntl
import importlib
import os
import pathlib
import sys
import tempfile

import pytest

from . import course_builder

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions" / "self_attention"
EXERCISES = ROOT / "exercises" / "self_attention"

# nbgrader runs `alembic` and `jupyter` by name: the venv's must come first on PATH.
os.environ["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def wrong_answers():
    """Every (exercise, misconception, wrong answer) row of tests/wrong_answers."""
    rows = []
    for path in sorted((ROOT / "tests" / "wrong_answers").glob("*.py")):
        if path.stem != "__init__":
            rows.extend(importlib.import_module(f"tests.wrong_answers.{path.stem}").WRONG)
    return rows


def pytest_collection_modifyitems(items):
    """For ``make test`` (pytest-xdist, ``--dist loadgroup --no-loadscope-reorder``): each module's tests stay on
    one worker (its fixtures are made once); the ``sandbox_alone`` modules share one worker and come first, so
    that the other worker runs the modules without a sandbox meanwhile; the ``sandbox`` modules come last."""
    def rank(item):
        return 0 if item.get_closest_marker("sandbox_alone") else 2 if item.get_closest_marker("sandbox") else 1

    items.sort(key=rank)
    for item in items:
        group = "sandbox_alone" if rank(item) == 0 else item.module.__name__
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="module", autouse=True)
def sandboxes_apart(request):
    """Under pytest-xdist (``make test``), a module marked ``sandbox_alone`` (it checks that no sandbox is left
    on the machine) runs while no other module runs a sandbox; ``sandbox`` modules run side by side."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    alone = request.node.get_closest_marker("sandbox_alone") is not None
    if run is None or not (alone or request.node.get_closest_marker("sandbox")):
        yield
        return
    with open(pathlib.Path(tempfile.gettempdir()) / f"self-attention-kit-tests-{run}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        yield


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def released_course(tmp_path_factory):
    """The kit's course released once for the session, with test limits; never changed: copy it
    (``course_builder.make_course``, or the ``course_copy`` fixture)."""
    return course_builder.release_course(tmp_path_factory.mktemp("released") / "course")


@pytest.fixture
def course_copy(released_course, tmp_path):
    """A released course of this test's own."""
    return course_builder.make_course(released_course, tmp_path / "course")


@pytest.fixture(scope="session")
def empty_gradebook(tmp_path_factory):
    """A new, empty gradebook file made once for the session: copy it to a course's gradebook.db."""
    return course_builder.empty_gradebook(tmp_path_factory.mktemp("gradebook"))
