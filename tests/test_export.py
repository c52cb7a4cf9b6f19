"""``export``: one CSV row per student and exercise; a score that is not real is blank, with its reason."""
import csv
import shutil

import pytest
from nbgrader.api import Gradebook

from grader.api import export
from grader import records as record
from grader.records import ExerciseRecord, NotebookRecord, PartRecord
from grader.course import venv_on_path

from .conftest import ROOT, SOLUTIONS

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"
BASICS_EXERCISES = {"softmax_scores", "context_vector", "compute_keys", "project_qkv", "query_scores",
                    "attention_scores"}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("course")
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    (tmp_path / "exercises" / "self_attention").mkdir(parents=True)
    shutil.copy(SOLUTIONS / BASICS, tmp_path / "exercises" / "self_attention")  # only its test cells are read
    with venv_on_path(), Gradebook(f"sqlite:///{tmp_path}/gradebook.db") as gradebook:
        for student in ("alice", "bob", "carol"):
            gradebook.add_student(student)
    wrong = PartRecord("weights sum to 1 along each row", 2, 0, hidden=True, case="a 3x3 batch",
                       message="rows do not sum to 1", misconception="softmax_dim0")
    record.write(tmp_path, NotebookRecord("alice", "self_attention", BASICS, exercises=[
        ExerciseRecord("attention_scores", 3, 3),
        ExerciseRecord("softmax_scores", 0, 2, parts=[wrong]),
        ExerciseRecord("context_vector", 0, 1, status="undefined", reason="not defined")]))
    record.write(tmp_path, NotebookRecord("alice", "self_attention", STEPS, status="timeout",
                                          reason="the notebook ran out of time", exercises=[
                                              ExerciseRecord("scaled_scores", 0, 4, status="ungraded")]))
    record.write(tmp_path, NotebookRecord("bob", "self_attention", BASICS, exercises=[
        ExerciseRecord("attention_scores", 2, 3), ExerciseRecord("softmax_scores", 0, 2, status="crashed",
                                                                 reason="the kernel died in this check")],
        tampered=[{"grade_id": "attention_scores_test", "change": "deleted"}]))
    return tmp_path


@pytest.fixture(scope="module")
def table(course):
    path = export(course, "self_attention")
    assert path == course / "reports" / "self_attention_grades.csv"
    with path.open() as rows:
        return {(r["student"], r["notebook"], r["exercise"]): r for r in csv.DictReader(rows)}


def test_real_scores_are_numbers_and_need_no_attention(table):
    right = table["alice", BASICS, "attention_scores"]
    assert (right["score"], right["max_score"], right["status"], right["needs_attention"]) == ("3", "3", "graded", "no")
    wrong = table["alice", BASICS, "softmax_scores"]
    assert (wrong["score"], wrong["misconceptions"], wrong["needs_attention"]) == ("0", "softmax_dim0", "no")
    undefined = table["alice", BASICS, "context_vector"]
    assert (undefined["score"], undefined["status"], undefined["needs_attention"]) == ("0", "undefined", "no")


def test_ungraded_work_has_a_blank_score_a_status_and_a_reason(table):
    timeout = table["alice", STEPS, "scaled_scores"]
    assert (timeout["score"], timeout["status"], timeout["reason"], timeout["needs_attention"]) == (
        "", "timeout", "the notebook ran out of time", "yes")
    crashed = table["bob", BASICS, "softmax_scores"]
    assert (crashed["score"], crashed["status"], crashed["reason"]) == ("", "crashed", "the kernel died in this check")
    tampered = table["bob", BASICS, "attention_scores"]
    assert (tampered["score"], tampered["status"], tampered["reason"], tampered["needs_attention"]) == (
        "2", "tampered", "its test cell was deleted", "yes")


def test_missing_submissions_are_rows_of_their_own(table):
    carol = {exercise: row for (student, notebook, exercise), row in table.items() if student == "carol"}
    assert set(carol) == BASICS_EXERCISES | {"(whole notebook)"}  # STEPS was not released here: one row
    assert all(r["score"] == "" and r["status"] == "missing" and r["needs_attention"] == "yes" for r in carol.values())
    assert carol["attention_scores"]["reason"] == "no submission for this notebook"
    assert table["bob", STEPS, "(whole notebook)"]["status"] == "missing"
