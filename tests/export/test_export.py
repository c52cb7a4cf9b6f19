"""``export``: one CSV row per student and graded cell, the gradebook's scores; a score that is not real is blank."""
import csv

import grader.export as export_verb
from grader.export.rows import rows
from grader.grades import CellGrade, NotebookGrade
from grader.records import ExerciseRecord, PartRecord
from grader.statuses import BY_HAND, NEEDS_MANUAL

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"
WRONG = PartRecord("weights sum to 1 along each row", 2, 0, hidden=True, case="a 3x3 batch",
                   message="rows do not sum to 1", misconception="softmax_dim0")

GRADES = [
    NotebookGrade("alice", BASICS, "graded", None, raw_score=5.0, max_score=10.0, cells=[
        CellGrade("attention_scores_test", "test", 3.0, 3.0, "graded", None),
        CellGrade("softmax_scores_test", "test", 0.0, 2.0, "graded", None,
                  ExerciseRecord("softmax_scores", 0, 2, parts=[WRONG])),
        CellGrade("why_scale", "written answer", 2.0, 3.0, BY_HAND, None),
        CellGrade("plot_task", "task", None, 2.0, NEEDS_MANUAL, "waiting for a grader"),
        CellGrade("context_vector_test", "test", 0.0, 2.0, "undefined", "context_vector did not exist")]),
    NotebookGrade("alice", STEPS, "timeout", "the notebook ran out of time", raw_score=0.0, max_score=4.0, cells=[
        CellGrade("scaled_scores_test", "test", None, 4.0, "timeout", None)]),
    NotebookGrade("bob", BASICS, "graded", None, raw_score=3.0, max_score=5.0, late_penalty=3.0, cells=[
        CellGrade("attention_scores_test", "test", 2.0, 3.0, "tampered", "its test cell was deleted"),
        CellGrade("double_test", "test", 1.0, 2.0, "graded", None)],
        tampered=[{"grade_id": "attention_scores_test", "change": "deleted"}]),
    NotebookGrade("bob", "07_unknown.ipynb", "invalid", "the notebook file could not be read", 0.0, 0.0),
]


def table():
    return {(r["student"], r["notebook"], r["exercise"]): r for r in rows(GRADES)}


def test_scores_are_the_gradebooks_with_kind_misconceptions_and_attention():
    found = table()
    right = found["alice", BASICS, "attention_scores"]
    assert (right["score"], right["max_score"], right["grade_id"], right["kind"], right["needs_attention"]) == (
        "3", "3", "attention_scores_test", "test", "no")
    wrong = found["alice", BASICS, "softmax_scores"]
    assert (wrong["score"], wrong["misconceptions"], wrong["needs_attention"]) == ("0", "softmax_dim0", "no")
    manual = found["alice", BASICS, "why_scale"]
    assert (manual["score"], manual["kind"], manual["status"], manual["needs_attention"]) == (
        "2", "written answer", "graded by hand", "no")
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
        "2", "its test cell was deleted", "yes")


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
    evil = [NotebookGrade(start + "cmd|' /C calc'!A0", BASICS, "invalid", start + "1+1", 2.0, 2.0, late_penalty=1.0)
            for start in ("=", "+", "-", "@")]
    monkeypatch.setattr(export_verb, "table", lambda course: rows(evil))
    with open(export_verb.export(tmp_path, "self_attention")) as sheet:
        found = list(csv.DictReader(sheet))
    assert len(found) == 8  # per student: the whole notebook, and the late penalty
    for row in found:
        assert row["student"][0] == "'" and row["student"][1] in "=+-@", row
    assert all(row["reason"][0] == "'" for row in found if row["kind"] != "late")
    assert [row["score"] for row in found if row["kind"] == "late"] == ["-1"] * 4  # a number, not neutralised
