"""Hostile submissions at the root level: each attack scores zero with a clear status, nobody else's grade moves,
the walls hold and nothing is left on the machine.

One course is graded once with ``python -m grader autograde`` as root, its level forced to ``root``; every
student but 'good' and 'stubs' carries one attack (tests/sandbox/attacks.py) in the answer to
``attention_scores`` (3 points of notebook 01's 24, today). The unprivileged levels are tried in
test_isolation_levels.py.
"""

import copy
import csv
import html
import os
import pathlib
import sqlite3
import subprocess
import sys

import pytest

from grader.api import autograde
from grader.autograde.run import default_workers
from grader.boundary.student_safe import KIT_ROOT as KIT
from grader.cli.counts import count
from grader.course import Course
from grader.export import export
from grader.records import read_all

from ..course_builder import ASSIGNMENT, BASICS, exercise, graded_cell, make_course, records, submission, submit, worth
from .attacks import ATTACKS, SECRET, SHARED_MEMORY, WALL_SPIES, WRONG
from .leftovers import leftovers, orphans_adopted

pytestmark = pytest.mark.slow  # and sandbox_alone (tests/conftest.py)

HOME = pathlib.Path.home()
TAMPERING = {"deleted": "deleted", "edited": "edited", "duplicated": "duplicated", "relabelled": "relabelled"}


def tampered(course, change):
    nb = submission(course, {"attention_scores": WRONG})
    cell = graded_cell(nb, "attention_scores")
    if change == "deleted":
        nb.cells.remove(cell)
    elif change == "edited":
        cell.source = "grade = 3.0\nprint('all good')\n3.0"
    elif change == "duplicated":
        nb.cells.insert(nb.cells.index(cell), copy.deepcopy(cell))
    else:
        cell.metadata["nbgrader"]["grade"] = False
    return nb


@pytest.fixture(scope="module")
def graded(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("attacks") / "course")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write('c.SandboxExecute.isolation = "root"\n')
        # Half the test courses' memory and the kit's own 10 s a unit: on a loaded machine the memory bombs (deepheap's
        # frames, a tensor) and the crashes (recursor's C recursion) still end as themselves before their time is up
        # (with 6 s, recursor twice ended as timed out in a full `make test`, under its load).
        config.write("c.SandboxExecute.memory_bytes = 256 << 20\nc.SandboxExecute.unit_seconds = 10\n")
    submit(course, "good", submission(course))
    submit(course, "stubs", _release(course))
    answers = {**{student: answer for student, (answer, _) in {**ATTACKS, **SHARED_MEMORY}.items()}, **WALL_SPIES}
    for student, answer in answers.items():
        answer = answer.replace("{course}", str(course)).replace("{kit}", str(KIT)).replace("{home}", str(HOME))
        submit(course, student, submission(course, {"attention_scores": answer}))
    for student in TAMPERING:
        submit(course, student, tampered(course, student))
    submit(course, "broken", '{"cells": [')
    with orphans_adopted() as left:
        done = subprocess.run(
            [sys.executable, "-m", "grader", "autograde", "--course", str(course)],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, SECRET: "1"},
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return course, done, left


def _release(course):
    import nbformat

    return nbformat.read(course / "exercises" / ASSIGNMENT / "01_attention_basics.ipynb", as_version=4)


def test_sound_submissions_keep_their_grades(graded):
    course, *_ = graded
    found = records(course)
    assert found["good"].score == worth(BASICS) and found["good"].status == "graded" and not found["good"].tampered
    assert found["stubs"].score == 0 and not found["stubs"].tampered
    assert all("not implemented yet" in p.message for e in found["stubs"].exercises for p in e.parts)


@pytest.mark.parametrize("student", {**ATTACKS, **SHARED_MEMORY})
def test_attack_scores_nothing_with_a_clear_status(graded, student):
    course, *_ = graded
    entry = records(course)[student]
    target = exercise(entry, "attention_scores")
    status = {**ATTACKS, **SHARED_MEMORY}[student][1]
    assert target.status == status, (target.status, target.reason)
    if student == "spy":  # the probe of the sandbox's walls passes only if they hold
        assert target.score == 3
    else:
        assert target.score == 0
        if status != "graded":
            assert (
                status in target.reason
                or {"memory": "memory", "crashed": "crash", "timeout": "time", "malformed": "tampered"}[status]
                in target.reason
            )
    others = [e for e in entry.exercises if e.name != "attention_scores"]
    assert all(e.score == e.max_score for e in others), [(e.name, e.status, e.reason) for e in others]


@pytest.mark.parametrize("student", TAMPERING)
def test_tampered_test_cell_is_graded_from_the_instructors_copy_and_reported(graded, student):
    course, *_ = graded
    entry = records(course)[student]
    assert {"grade_id": "attention_scores_test", "change": TAMPERING[student]} in entry.tampered
    assert exercise(entry, "attention_scores").score == 0
    assert entry.score == 21


def test_untouched_submissions_raise_no_tamper_warning(graded):
    course, *_ = graded
    sound = [r for r in read_all(Course.at(course)) if r.student not in TAMPERING]
    assert all(r.tampered == [] for r in sound)


def test_invalid_notebook_is_recorded_not_lost(graded):
    course, *_ = graded
    entry = records(course)["broken"]
    assert entry.status == "invalid" and entry.score == 0
    assert "could not be read" in entry.reason
    assert all(e.status == "ungraded" for e in entry.exercises)
    assert (course / "submitted" / "broken" / ASSIGNMENT / "01_attention_basics.ipynb.invalid").exists()


def test_flood_of_output_is_capped(graded):
    course, *_ = graded
    autograded = course / "autograded" / "flooder" / ASSIGNMENT / "01_attention_basics.ipynb"
    assert autograded.stat().st_size < 200_000


def test_gradebook_survives_and_holds_every_student(graded):
    course, *_ = graded
    with sqlite3.connect(course / "gradebook.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        graded_students = {
            row[0]
            for row in db.execute(
                "SELECT student.id FROM student JOIN submitted_assignment ON student.id = "
                "submitted_assignment.student_id"
            )
        }
    assert graded_students >= {"good", "stubs", *ATTACKS, *TAMPERING}


@pytest.mark.parametrize("spy", WALL_SPIES)
def test_wall_holds(graded, spy):
    """/proc shows the sandbox's processes only, /proc/self/environ holds nothing of the grader's,
    nothing outside the scratch folders can be written, nothing of the kit but its student-safe part read."""
    course, *_ = graded
    target = exercise(records(course)[spy], "attention_scores")
    assert (target.status, target.score) == ("graded", 3), target.reason


def test_every_notebook_was_graded_at_the_root_level(graded):
    course, *_ = graded
    assert {r.isolation.split(";")[0] for r in read_all(Course.at(course)) if r.status != "invalid"} == {"root"}
    with open(export(course, ASSIGNMENT), newline="") as table:
        levels = {
            row["isolation"].split(";")[0]
            for row in csv.DictReader(table)
            if row["notebook"] == BASICS and row["student"] != "broken"
        }
    assert levels == {"root"}


def test_the_class_is_graded_on_every_core_the_grader_may_use(graded):
    """As many as its memory holds (tests/autograde/test_cores.py): on this machine, every core."""
    _, done, _ = graded
    assert f"recording grades with nbgrader ({count(default_workers(), 'worker')})" in done.stderr


def test_nothing_is_left_on_the_machine(graded):
    course, _, left = graded
    assert left == []  # of the grader's processes, after it exits
    assert leftovers(HOME, course) == (False, [])


def test_rerun_changes_nothing(graded, capsys):
    """The rerun in this process: what it decides is the test, not the command line's start (``graded`` runs
    that); with nothing new to grade it starts no grading process and no sandbox."""
    course, *_ = graded
    before = {r.student: r for r in read_all(Course.at(course))}
    with sqlite3.connect(course / "gradebook.db") as db:
        grades = db.execute("SELECT * FROM grade ORDER BY id").fetchall()
    capsys.readouterr()
    autograde(course)
    said = capsys.readouterr().err
    assert "nothing new to grade" in said and "--force grades them again" in said
    assert {r.student: r for r in read_all(Course.at(course))} == before
    with sqlite3.connect(course / "gradebook.db") as db:
        assert db.execute("SELECT * FROM grade ORDER BY id").fetchall() == grades


def test_export_tells_real_zeros_from_scores_that_need_attention(graded):
    course, *_ = graded
    with open(export(course, ASSIGNMENT)) as table:
        rows = {(r["student"], r["exercise"]): r for r in csv.DictReader(table)}
    crashed = rows[("exiter", "attention_scores")]
    assert crashed["status"] == "crashed" and crashed["needs_attention"] == "yes" and crashed["reason"]
    assert rows[("loopcall", "attention_scores")]["status"] == "timed out"
    assert rows[("memorybomb", "attention_scores")]["status"] == "out of memory"
    assert rows[("broken", "attention_scores")]["needs_attention"] == "yes"
    assert "could not be read" in rows[("broken", "attention_scores")]["reason"]
    real_zero = rows[("patcher", "attention_scores")]
    assert (float(real_zero["score"]), real_zero["status"], real_zero["needs_attention"]) == (0, "graded", "no")
    assert rows[("edited", "attention_scores")]["needs_attention"] == "yes"


def test_feedback_explains_the_mistake_and_leaks_no_hidden_test(graded):
    from grader.checks.misconceptions import MISCONCEPTIONS
    from grader.feedback import feedback

    course, *_ = graded
    pages = {p.parent.parent.name: p.read_text() for p in feedback(course, ASSIGNMENT) if p.stem.startswith("01")}
    assert "without transposing the keys" in pages["patcher"]
    assert MISCONCEPTIONS["scores_no_transpose"].explanation.split(".")[0] in pages["patcher"]
    assert "crash" in pages["exiter"] and "time" in pages["loopcall"]
    for student, limit in [
        ("loopcall", "s for one cell or one exercise's checks"),
        ("memorybomb", "GiB for everything the notebook runs"),
        ("exiter", ""),
    ]:
        said = " ".join(html.unescape(pages[student]).split())  # a student can act on it: the limit, what to try
        assert limit in said and "What usually causes it:" in said and "What to try:" in said, student
        assert "Your score here is 0 for now, not final" in said, student
    for page in pages.values():
        assert "check_hidden" not in page and "BEGIN HIDDEN TESTS" not in page
