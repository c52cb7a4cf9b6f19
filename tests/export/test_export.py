"""``export``: one CSV row per student and graded cell, the gradebook's scores; a score that is not real is blank."""

import csv
import datetime

import pytest

import grader.export as export_verb
from grader.course import Course
from grader.course.gradebook import read_scores
from grader.course.grades import CellGrade, NotebookGrade
from grader.export.rows import rows
from grader.records import ExerciseRecord, PartRecord
from grader.records.statuses import BY_HAND, NEEDS_MANUAL

from ..course_builder import dated_course

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"
WRONG = PartRecord(
    "weights sum to 1 along each row",
    2,
    0,
    hidden=True,
    case="a 3x3 batch",
    message="rows do not sum to 1",
    misconception="softmax_dim0",
)

GRADES = [
    NotebookGrade(
        "alice",
        BASICS,
        "graded",
        None,
        raw_score=5.0,
        max_score=10.0,
        cells=[
            CellGrade("attention_scores_test", "test", 3.0, 3.0, "graded", None),
            CellGrade(
                "softmax_scores_test",
                "test",
                0.0,
                2.0,
                "graded",
                None,
                ExerciseRecord("softmax_scores", 0, 2, parts=[WRONG]),
            ),
            CellGrade("why_scale", "written answer", 2.0, 3.0, BY_HAND, None),
            CellGrade("plot_task", "task", None, 2.0, NEEDS_MANUAL, "waiting for a grader"),
            CellGrade("context_vector_test", "test", 0.0, 2.0, "undefined", "context_vector did not exist"),
        ],
    ),
    NotebookGrade(
        "alice",
        STEPS,
        "timeout",
        "the notebook ran out of time",
        raw_score=0.0,
        max_score=4.0,
        cells=[CellGrade("scaled_scores_test", "test", None, 4.0, "timeout", None)],
    ),
    NotebookGrade(
        "bob",
        BASICS,
        "graded",
        None,
        raw_score=3.0,
        max_score=5.0,
        late_penalty=3.0,
        cells=[
            CellGrade("attention_scores_test", "test", 2.0, 3.0, "tampered", "its test cell was deleted"),
            CellGrade("double_test", "test", 1.0, 2.0, "graded", None),
        ],
        tampered=[{"grade_id": "attention_scores_test", "change": "deleted"}],
    ),
    NotebookGrade("bob", "07_unknown.ipynb", "invalid", "the notebook file could not be read", 0.0, 0.0),
]


def table():
    return {(r["student"], r["notebook"], r["exercise"]): r for r in rows(GRADES)}


def test_scores_are_the_gradebooks_with_kind_misconceptions_and_attention():
    found = table()
    right = found["alice", BASICS, "attention_scores"]
    assert (right["score"], right["max_score"], right["grade_id"], right["kind"], right["needs_attention"]) == (
        "3",
        "3",
        "attention_scores_test",
        "test",
        "no",
    )
    wrong = found["alice", BASICS, "softmax_scores"]
    assert (wrong["score"], wrong["misconceptions"], wrong["needs_attention"]) == ("0", "softmax_dim0", "no")
    manual = found["alice", BASICS, "why_scale"]
    assert (manual["score"], manual["kind"], manual["status"], manual["needs_attention"]) == (
        "2",
        "written answer",
        "graded by hand",
        "no",
    )
    assert found["bob", BASICS, "double_test"]["score"] == "1"  # a plain nbgrader test cell has a row too
    unwritten = found["alice", BASICS, "context_vector"]  # a real zero, said in words
    assert (unwritten["score"], unwritten["status"], unwritten["needs_attention"]) == ("0", "not written", "no")


def test_work_without_a_real_score_is_blank_with_a_status_and_a_reason():
    found = table()
    timeout = found["alice", STEPS, "scaled_scores"]
    assert (timeout["score"], timeout["status"], timeout["needs_attention"]) == ("", "timed out", "yes")
    task = found["alice", BASICS, "plot_task"]
    assert (task["score"], task["status"], task["needs_attention"]) == ("", "needs manual grade", "yes")
    tampered = found["bob", BASICS, "attention_scores"]
    assert (tampered["score"], tampered["reason"], tampered["needs_attention"]) == (
        "2",
        "its test cell was deleted",
        "yes",
    )


def test_a_late_penalty_is_a_row_that_makes_the_scores_add_up_to_nbgraders():
    found = table()
    late = found["bob", BASICS, "(late penalty)"]
    assert (late["score"], late["kind"], late["status"]) == ("-3", "late", "late")
    assert sum(float(r["score"]) for r in rows(GRADES) if r["student"] == "bob" and r["score"]) == 0.0
    assert ("alice", BASICS, "(late penalty)") not in found


def test_a_notebook_without_graded_cells_still_has_a_row():
    row = table()["bob", "07_unknown.ipynb", "(whole notebook)"]
    assert (row["score"], row["status"], row["needs_attention"]) == ("", "not readable", "yes")


def test_the_plain_csv_runs_no_formula_and_keeps_numbers(tmp_path, monkeypatch):
    evil = [
        NotebookGrade(start + "cmd|' /C calc'!A0", BASICS, "invalid", start + "1+1", 2.0, 2.0, late_penalty=1.0)
        for start in ("=", "+", "-", "@")
    ]
    monkeypatch.setattr(export_verb, "table", lambda course: rows(evil))
    with open(export_verb.export(tmp_path, "self_attention")) as sheet:
        found = list(csv.DictReader(sheet))
    assert len(found) == 8  # per student: the whole notebook, and the late penalty
    for row in found:
        assert row["student"][0] == "'" and row["student"][1] in "=+-@", row
    assert all(row["reason"][0] == "'" for row in found if row["kind"] != "late")
    assert [row["score"] for row in found if row["kind"] == "late"] == ["-1"] * 4  # a number, not neutralised


HANDED_IN = {"ontime": "2026-03-02 17:59:00", "late": "2026-03-02 20:05:30", "extended": "2026-03-02 20:05:30"}
COLUMNS = [
    "student",
    "notebook",
    "exercise",
    "grade_id",
    "kind",
    "score",
    "max_score",
    "status",
    "reason",
    "misconceptions",
    "needs_attention",
    "isolation",
]  # as they were before the ``late`` column


@pytest.fixture(scope="module")
def dated(tmp_path_factory, empty_gradebook):
    """Due at 18:00, no late penalty set: notebook 01 handed in at 17:59, at 20:05:30, and at 20:05:30 by a
    student with 3 more hours."""
    return dated_course(
        tmp_path_factory.mktemp("dated") / "course",
        empty_gradebook,
        HANDED_IN,
        {"extended": datetime.timedelta(hours=3)},
    )


def test_a_notebook_handed_in_after_the_due_date_says_how_late_without_a_late_penalty(dated):
    with open(export_verb.export(dated)) as sheet:
        reader = csv.DictReader(sheet)
        header, found = reader.fieldnames, list(reader)
    assert header == COLUMNS + ["late"]
    by_student = {row["student"]: row for row in found}
    assert len(found) == len(by_student) == 3  # one graded cell each, and no late penalty row
    assert [by_student[s]["score"] for s in HANDED_IN] == ["3", "3", "3"]  # nothing taken off
    assert by_student["late"]["late"] == "2 hours 5 minutes"
    assert by_student["ontime"]["late"] == by_student["extended"]["late"] == ""  # on time, or within the extension


def test_the_seconds_late_are_nbgraders_read_in_the_one_read_of_the_gradebook(dated):
    scores = {s.student: s.seconds_late for s in read_scores(Course.at(dated)).notebook_scores}
    with Course.at(dated).gradebook() as book:
        assert scores == {s: book.find_submission("self_attention", s).total_seconds_late for s in HANDED_IN}
    assert scores == {"ontime": 0, "late": 2 * 3600 + 5 * 60 + 30, "extended": 0}


def test_every_row_of_a_late_notebook_says_how_late_the_late_penalty_row_included():
    late = [
        NotebookGrade(
            "cy",
            BASICS,
            "graded",
            None,
            2.0,
            3.0,
            late_penalty=1.0,
            seconds_late=93784.0,
            cells=[
                CellGrade("attention_scores_test", "test", 2.0, 3.0, "graded", None),
                CellGrade("why_scale", "written answer", None, 2.0, NEEDS_MANUAL, None),
            ],
        ),
        NotebookGrade("cy", "07_unknown.ipynb", "invalid", "unreadable", 0.0, 0.0, seconds_late=61.0),
        NotebookGrade(
            "cy",
            STEPS,
            "graded",
            None,
            1.0,
            1.0,
            seconds_late=0.0,
            cells=[CellGrade("scaled_scores_test", "test", 1.0, 1.0, "graded", None)],
        ),
    ]
    found = {(r["notebook"], r["exercise"]): r["late"] for r in rows(late)}
    assert found == {
        (BASICS, "attention_scores"): "1 day 2 hours",
        (BASICS, "why_scale"): "1 day 2 hours",
        (BASICS, "(late penalty)"): "1 day 2 hours",
        ("07_unknown.ipynb", "(whole notebook)"): "1 minute",
        (STEPS, "scaled_scores"): "",
    }
    assert {r["late"] for r in rows(GRADES) if r["student"] == "alice"} == {""}
    assert {r["late"] for r in rows(GRADES) if r["notebook"] == BASICS and r["student"] == "bob"} == {"yes"}
