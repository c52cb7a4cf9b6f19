"""``regrade`` on a PostgreSQL gradebook (a real server: tests/postgres.py): a student hands in a corrected notebook
after grading; the regrade of that student names the submission as the reason, applies through nbgrader's own
gradebook (formgrader reads the same rows) and is undone."""
import csv
import pathlib
import subprocess
import sys

import pytest
from nbgrader.api import Gradebook

from grader.cli import main as grader
from grader.course import Course, venv_on_path

from ..course_builder import ASSIGNMENT, BASICS, autograde, new_test_course, submission, submit, worth
from ..postgres import binaries, create_database, postgres_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

WRONG = {"softmax_scores": "def softmax_scores(scores):\n    return F.softmax(scores, dim=0)"}
CELL = "softmax_scores_test"


def regrade(course, *options):
    done = subprocess.run([sys.executable, "-m", "grader", "regrade", "--course", str(course), "--workers", "1",
                           *options], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return done.stdout


def score(db_url):
    with venv_on_path(), Gradebook(db_url) as book:
        return book.find_grade(CELL, BASICS.removesuffix(".ipynb"), ASSIGNMENT, "alice").score


def test_a_regrade_applies_to_a_postgresql_gradebook_and_is_undone(tmp_path, capsys):
    if binaries() is None:
        pytest.fail("the pgserver wheel is missing: make venv installs requirements-test.txt")
    with postgres_server() as server:
        db_url = create_database(server, "regrade")
        course = new_test_course(tmp_path / "course", f"\nc.CourseDirectory.db_url = {db_url!r}\n")
        Course.at(course).run_nbgrader("generate_assignment", ASSIGNMENT, "--force")  # no student package: not used
        submit(course, "alice", submission(course, WRONG))
        assert autograde(course).returncode == 0
        assert score(db_url) == 0
        submit(course, "alice", submission(course))  # a corrected copy, handed in after grading
        said = regrade(course, "--student", "alice", "--apply")
        diff = pathlib.Path(next(line for line in said.splitlines() if line.startswith("diff: "))[6:].split(" and ")[0])
        with open(diff.with_suffix(".csv"), newline="") as sheet:
            rows = [(r["student"], r["exercise"], r["before"], r["after"], r["why"]) for r in csv.DictReader(sheet)]
        points = worth(BASICS, "softmax_scores")
        assert rows == [("alice", "softmax_scores", "0", f"{points:g}",
                         "the submission changed (the file handed in differs from the one graded)")]
        assert not (course / "gradebook.db").exists() and score(db_url) == points
        grader(["regrade", "--course", str(course), "--undo"])  # in this process: the grader the commands above ran
        assert "alice" in capsys.readouterr().out
        assert score(db_url) == 0
