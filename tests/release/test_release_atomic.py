"""``release`` never destroys the course: nbgrader generates into a temporary folder, swapped in only on success."""

import shutil

import pytest

from grader.api import release

from ..conftest import EXERCISES, ROOT, SOLUTIONS

pytestmark = pytest.mark.slow


@pytest.fixture
def course(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(SOLUTIONS, course / "solutions" / "self_attention")
    shutil.copytree(EXERCISES, course / "exercises" / "self_attention")
    shutil.copy(ROOT / "nbgrader_config.py", course)
    return course


def tree(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_failing_generate_assignment_leaves_the_release_intact(course):
    before = tree(course / "exercises")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write('\nc.CourseDirectory.db_url = "postgresql+nosuchdriver://nobody@localhost/none"\n')
    with pytest.raises(RuntimeError, match="generate_assignment"):
        release(course, "self_attention")
    assert tree(course / "exercises") == before
    assert not list(course.glob(".release-*"))


def test_a_successful_release_replaces_the_folder_and_leaves_no_scratch(course):
    stale = course / "exercises" / "self_attention" / "stale.ipynb"
    stale.write_text("{}")
    release(course, "self_attention")
    assert not stale.exists()
    assert {p.name for p in (course / "exercises" / "self_attention").glob("*.ipynb")} == {
        p.name for p in EXERCISES.glob("*.ipynb")
    }
    assert not list(course.glob(".release-*"))
