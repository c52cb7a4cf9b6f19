"""A course's first ``generate_assignment``, and the kit's first opening of its gradebook, find the gradebook made,
at the version nbgrader would give it, so that nbgrader starts no ``alembic`` process to learn the version (about a
second of CPU)."""

import nbgrader.api
import pytest
from nbgrader.api import Gradebook

from grader.course import Course, new_gradebook

from ..course_builder import ASSIGNMENT, new_test_course, schema_version


@pytest.mark.slow  # nbgrader's own way: an alembic process
def test_a_new_gradebook_has_the_version_nbgrader_gives_one_and_nbgrader_asks_alembic_nothing(tmp_path, monkeypatch):
    path = tmp_path / "gradebook.db"
    new_gradebook.make_if_empty(f"sqlite:///{path}", tmp_path)
    assert schema_version(path) == nbgrader.api.get_alembic_version()
    asked = []
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", lambda: asked.append("alembic") or "none")
    with Gradebook(f"sqlite:///{path}") as book:
        book.add_student("ada")
    assert asked == []


def test_generate_assignment_finds_its_gradebook_made(tmp_path, monkeypatch):
    course = Course.at(new_test_course(tmp_path / "course"), ASSIGNMENT)
    found = []
    monkeypatch.setattr(Course, "run_nbgrader", lambda self, *arguments: found.append((arguments[0], self.root)))
    course.generate_assignment("--force")
    assert found == [("generate_assignment", course.root)]
    assert schema_version(course.root / "gradebook.db") == new_gradebook.newest_schema()


def test_the_kits_first_opening_of_a_courses_gradebook_asks_alembic_nothing(tmp_path, monkeypatch):
    course = Course.at(new_test_course(tmp_path / "course"), ASSIGNMENT)
    asked = []
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", lambda: asked.append("alembic") or "none")
    with course.gradebook() as book:
        book.add_student("ada")
    assert asked == [] and schema_version(course.root / "gradebook.db") == new_gradebook.newest_schema()


def test_a_relative_sqlite_path_is_the_courses_and_a_gradebook_there_is_left_as_it_is(tmp_path, monkeypatch):
    course, elsewhere = tmp_path / "course", tmp_path / "elsewhere"
    course.mkdir()
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    new_gradebook.make_if_empty("sqlite:///grades.db", course)
    assert [p.name for p in course.iterdir()] == ["grades.db"] and list(elsewhere.iterdir()) == []
    before = (course / "grades.db").read_bytes()
    new_gradebook.make_if_empty("sqlite:///grades.db", course)
    assert (course / "grades.db").read_bytes() == before


def test_a_gradebook_that_cannot_be_reached_is_left_for_nbgrader_to_report(tmp_path):
    new_gradebook.make_if_empty("postgresql+nosuchdriver://nobody@localhost/none", tmp_path)
    new_gradebook.make_if_empty("postgresql://nobody@127.0.0.1:1/none", tmp_path)
    assert list(tmp_path.iterdir()) == []
