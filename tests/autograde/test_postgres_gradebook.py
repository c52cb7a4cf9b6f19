"""A PostgreSQL gradebook (``CourseDirectory.db_url = "postgresql://..."``): the verbs work on it, and two
graders grading different students at the same time lose nothing, on PostgreSQL as on SQLite; a regrade after a
student hands in a corrected notebook names the submission as the reason, applies through nbgrader's own gradebook
(formgrader reads the same rows) and is undone.

The server is real: the ``pgserver`` wheel's PostgreSQL binaries (requirements-test.txt), started in a
temporary folder on a private port for this module and stopped after it. The course is released on it once; each
test grades a copy (the folder, and the database through PostgreSQL's own ``CREATE DATABASE ... TEMPLATE``); the
verbs and the regrade read one class graded once by the kit's autograde.
"""

import concurrent.futures
import csv
import pathlib
import subprocess
import sys

import nbformat
import pytest

from grader.api import collect, export, feedback, release, report
from grader.cli import main as grader
from grader.course import CONFIG, Course

from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, new_test_course, submission, submit, worth
from ..postgres import binaries, create_database, postgres_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

WRONG = {"softmax_scores": "def softmax_scores(scores):\n    return F.softmax(scores, dim=0)"}
CELL = "softmax_scores_test"


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
            gradebook.update_or_create_student(
                student, first_name=student.title(), last_name="Test", lms_user_id=f"9{len(student)}{student[0]}"
            )


def hand_in(course, folder, answers):
    """A ``<student>/<notebook>`` folder: the reference answers (True), some of them replaced (a dict of
    answers), or the release unchanged (stubs: False)."""
    for student, full in answers.items():
        (folder / student).mkdir(parents=True)
        nb = (
            nbformat.read(course / "exercises" / ASSIGNMENT / BASICS, as_version=4)
            if full is False
            else submission(course, None if full is True else full)
        )
        nbformat.write(nb, folder / student / BASICS)
    return collect(folder, course, ASSIGNMENT)


def scores(course):
    """{student: (score, max score) of notebook 01} from the gradebook."""
    with Course.at(course).gradebook() as gradebook:
        return {
            s.student.id: (s.score, s.max_score)
            for s in gradebook.notebook_submissions(BASICS.removesuffix(".ipynb"), ASSIGNMENT)
        }


def nbgrader_autograde(course, student):
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "nbgrader",
            "autograde",
            ASSIGNMENT,
            f"--student={student}",
            "--force",
            "--log-level=ERROR",
        ],
        cwd=course,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def graded_on_postgresql(server, released_on_postgresql, tmp_path_factory):
    """A copy graded once by the kit's autograde: alice right, bob the stubs, erin softmax_scores wrong."""
    folder = tmp_path_factory.mktemp("verbs")
    course = copied(released_on_postgresql, folder / "course", server, "verbs")
    assert not (course / "gradebook.db").exists()
    enrol(course, "alice", "bob", "erin")
    collected = hand_in(course, folder / "handins", {"alice": True, "bob": False, "erin": WRONG})
    assert len(collected.imported) == 3, str(collected)
    done = autograde(course)
    assert done.returncode == 0, done.stderr
    return course


def test_every_verb_works_on_a_postgresql_gradebook(graded_on_postgresql):
    course = graded_on_postgresql
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
    course = (
        copied(released_on_postgresql, tmp_path / "course", server, "graders")
        if backend == "postgresql"
        else make_course(released_course, tmp_path / "course")
    )
    enrol(course, "carol", "dave")
    hand_in(course, tmp_path / "handins", {"carol": True, "dave": False})
    with concurrent.futures.ThreadPoolExecutor(2) as graders:
        done = list(graders.map(lambda s: nbgrader_autograde(course, s), ["carol", "dave"]))
    assert [d.returncode for d in done] == [0, 0], [d.stderr[-2000:] for d in done]
    got = scores(course)
    assert got["carol"][0] == got["carol"][1] > 0 and got["dave"][0] == 0
    assert (course / "gradebook.db").exists() == (backend == "sqlite")


def regrade(course, *options):
    done = subprocess.run(
        [sys.executable, "-m", "grader", "regrade", "--course", str(course), "--workers", "1", *options],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_regrade_applies_to_a_postgresql_gradebook_and_is_undone(graded_on_postgresql, capsys):
    """erin hands in a corrected copy after grading; it runs after the verbs' test, which reads the class as
    graded."""
    course = graded_on_postgresql
    assert cell_score(course) == 0
    submit(course, "erin", submission(course))  # a corrected copy, handed in after grading
    said = regrade(course, "--student", "erin", "--apply")
    diff = pathlib.Path(next(line for line in said.splitlines() if line.startswith("diff: "))[6:].split(" and ")[0])
    with open(diff.with_suffix(".csv"), newline="") as sheet:
        rows = [(r["student"], r["exercise"], r["before"], r["after"], r["why"]) for r in csv.DictReader(sheet)]
    points = worth(BASICS, "softmax_scores")
    assert rows == [
        (
            "erin",
            "softmax_scores",
            "0",
            f"{points:g}",
            "the submission changed (the file handed in differs from the one graded)",
        )
    ]
    assert not (course / "gradebook.db").exists() and cell_score(course) == points
    grader(["regrade", "--course", str(course), "--undo"])  # in this process: the grader the commands above ran
    assert "erin" in capsys.readouterr().out
    assert cell_score(course) == 0


def cell_score(course):
    """erin's score of softmax_scores' test cell, read through nbgrader's gradebook."""
    with Course.at(course).gradebook() as gradebook:
        return gradebook.find_grade(CELL, BASICS.removesuffix(".ipynb"), ASSIGNMENT, "erin").score
