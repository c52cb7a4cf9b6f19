"""A PostgreSQL gradebook (``CourseDirectory.db_url = "postgresql://..."``): the verbs work on it, and two
graders grading different students at the same time lose nothing, on PostgreSQL as on SQLite.

The server is real: the ``pgserver`` wheel's PostgreSQL binaries (requirements-test.txt), started in a
temporary folder on a private port for this module and stopped after it. The course is released on it once; each
test grades a copy (the folder, and the database through PostgreSQL's own ``CREATE DATABASE ... TEMPLATE``).
"""
import concurrent.futures
import pathlib
import subprocess
import sys

import nbformat
import pytest

from grader.api import collect, export, feedback, release, report
from grader.course import CONFIG, Course

from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, new_test_course, submission
from ..postgres import binaries, create_database, postgres_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


@pytest.fixture(scope="module")
def server():
    if binaries() is None:
        pytest.fail("the pgserver wheel is missing: make venv installs requirements-test.txt")
    with postgres_server() as url:
        yield url


@pytest.fixture(scope="module")
def released_on_postgresql(server, tmp_path_factory):
    """A course released once for this module by the kit's release verb, its gradebook the database "released"."""
    course = released_with(tmp_path_factory.mktemp("released"), create_database(server, "released"))
    assert not (course / "gradebook.db").exists()
    return course


def copied(released, folder, server, name):
    """A copy of ``released`` whose gradebook is the new database ``name``, a copy of the database "released"."""
    course, released_url = make_course(released, folder), repr(f"{server}/released")
    config = (course / CONFIG).read_text()
    assert released_url in config
    (course / CONFIG).write_text(config.replace(released_url, repr(create_database(server, name, template="released"))))
    return course


def released_with(folder, db_url):
    """A released course (through the kit's release verb) whose gradebook is at ``db_url``."""
    course = new_test_course(pathlib.Path(folder) / "course", f"\nc.CourseDirectory.db_url = {db_url!r}\n")
    release(course, ASSIGNMENT)
    return course


def enrol(course, *students):
    with Course.at(course).gradebook() as gradebook:
        for student in students:
            gradebook.update_or_create_student(student, first_name=student.title(), last_name="Test",
                                               lms_user_id=f"9{len(student)}{student[0]}")


def hand_in(course, folder, answers):
    """A ``<student>/<notebook>`` folder: the reference answers, or the release unchanged (stubs)."""
    for student, full in answers.items():
        (folder / student).mkdir(parents=True)
        nb = submission(course) if full else nbformat.read(course / "exercises" / ASSIGNMENT / BASICS, as_version=4)
        nbformat.write(nb, folder / student / BASICS)
    return collect(folder, course, ASSIGNMENT)


def scores(course):
    """{student: (score, max score) of notebook 01} from the gradebook."""
    with Course.at(course).gradebook() as gradebook:
        return {s.student.id: (s.score, s.max_score)
                for s in gradebook.notebook_submissions(BASICS.removesuffix(".ipynb"), ASSIGNMENT)}


def nbgrader_autograde(course, student):
    return subprocess.run([sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT, f"--student={student}",
                           "--force", "--log-level=ERROR"], cwd=course, capture_output=True, text=True,
                          timeout=600)


def test_every_verb_works_on_a_postgresql_gradebook(server, released_on_postgresql, tmp_path):
    course = copied(released_on_postgresql, tmp_path / "course", server, "verbs")
    assert not (course / "gradebook.db").exists()
    enrol(course, "alice", "bob")
    collected = hand_in(course, tmp_path / "handins", {"alice": True, "bob": False})
    assert len(collected.imported) == 2, str(collected)
    done = autograde(course)
    assert done.returncode == 0, done.stderr
    got = scores(course)
    assert got["alice"][0] == got["alice"][1] > 0 and got["bob"][0] == 0
    sheet = export(course, ASSIGNMENT, format="moodle").path.read_text()
    assert f"Participant 95a,Alice Test,,,{got['alice'][0]:g}," in sheet
    assert "alice" in export(course, ASSIGNMENT).read_text()
    assert feedback(course=course, assignment=ASSIGNMENT)
    assert report(course=course, assignment=ASSIGNMENT).exists()
    assert not (course / "gradebook.db").exists()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_graders_at_once_lose_nothing(backend, server, released_on_postgresql, released_course, tmp_path):
    course = copied(released_on_postgresql, tmp_path / "course", server, "graders") if backend == "postgresql" \
        else make_course(released_course, tmp_path / "course")
    enrol(course, "carol", "dave")
    hand_in(course, tmp_path / "handins", {"carol": True, "dave": False})
    with concurrent.futures.ThreadPoolExecutor(2) as graders:
        done = list(graders.map(lambda s: nbgrader_autograde(course, s), ["carol", "dave"]))
    assert [d.returncode for d in done] == [0, 0], [d.stderr[-2000:] for d in done]
    got = scores(course)
    assert got["carol"][0] == got["carol"][1] > 0 and got["dave"][0] == 0
    assert (course / "gradebook.db").exists() == (backend == "sqlite")
