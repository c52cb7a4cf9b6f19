"""The parts' points are weights: every path from part results to a score lands on the test cell's scale
(grader.checks.scoring.scaled). The exercise here weighs its two parts 2 points each, its cell 3 points."""
import sys

import nbformat
import pytest
import torch
from nbgrader.utils import determine_grade

import grader.checks
from grader.autograde.outputs import exercise_record, kit_cell
from grader.checks import check, registry
from grader.checks.running import grade_locally
from grader.demo import expected
from grader.hidden import check_hidden, hidden_parts

from .. import new_exercise
from ..new_exercise import NAME, POINTS, SCORES


def forget():
    """Make the registry look for the checks modules again."""
    registry.modules.cache_clear()
    registry._parts.cache_clear()
    hidden_parts.cache_clear()


@pytest.fixture(scope="module")
def answers():
    """{student: answer} of tests/new_exercise.py, defined as their answer cells define them."""
    found = {}
    for student, source in new_exercise.ANSWERS.items():
        namespace = {"torch": torch}
        exec(source or f"def {NAME}(scores, values):\n    raise NotImplementedError()", namespace)
        found[student] = namespace[NAME]
    return found


@pytest.fixture
def attend(tmp_path):
    """The exercise's checks module, found by the registry as grader/checks/attend.py would be."""
    (tmp_path / f"{new_exercise.MODULE}.py").write_text(new_exercise.CHECKS)
    path = grader.checks.__path__
    grader.checks.__path__ = [*path, str(tmp_path)]
    forget()
    try:
        yield
    finally:
        grader.checks.__path__ = path
        sys.modules.pop(f"grader.checks.{new_exercise.MODULE}", None)
        forget()


def test_the_registry_finds_the_module(attend):
    assert NAME in registry.exercise_names() and registry.exercise_points(NAME) == POINTS
    assert sum(p.points for p in registry.visible_parts(NAME)) == 4 and hidden_parts(NAME) == []


def scored_by_nbgrader(value):
    """What nbgrader makes of a test cell that returned ``value``: (score, maximum)."""
    outputs = [] if value is None else [nbformat.v4.new_output("execute_result", data={"text/plain": repr(value)})]
    cell = nbformat.v4.new_code_cell("", metadata={"nbgrader": {"grade": True, "solution": False, "points": POINTS,
                                                               "grade_id": f"{NAME}_test"}})
    cell.outputs = outputs
    return determine_grade(cell)


@pytest.mark.parametrize("student", ["wrong", "right"])
def test_the_test_cell_run_in_jupyter_gives_the_score_on_its_scale(attend, answers, capsys, student):
    """As Jupyter, nbgrader's validate or a stock nbgrader autograde run the instructor's test cell."""
    grade = check(NAME, answers[student])
    check_hidden(grade)
    assert scored_by_nbgrader(grade.result()) == (SCORES[student], POINTS)
    assert f"{NAME}: {SCORES[student]:g} / {POINTS} points" in capsys.readouterr().out


def test_the_students_copy_says_the_cells_points(attend, answers, capsys):
    """The student's test cell has no hidden block: it says what the exercise is worth, and its number stays
    on the cell's scale (a raw sum of weights can exceed the cell's points, which nbgrader refuses)."""
    value = check(NAME, answers["wrong"]).result()
    assert scored_by_nbgrader(value) == (SCORES["wrong"], POINTS)
    said = " ".join(capsys.readouterr().out.split())
    assert f"{NAME}: visible checks 1/2 passed; this exercise is worth {POINTS} points, the other checks run at " \
           "grading" in said


@pytest.mark.parametrize("student", ["stub", "wrong", "right"])
def test_the_autograded_cell_and_its_record_are_on_the_cells_scale(attend, answers, student):
    results = grade_locally(registry.visible_parts(NAME) + hidden_parts(NAME), answers[student])
    cell = nbformat.v4.new_code_cell("", metadata={"nbgrader": {"grade": True, "solution": False, "points": POINTS,
                                                               "grade_id": f"{NAME}_test"}})
    kit_cell(cell, NAME, "graded", None, results)
    assert determine_grade(cell) == (SCORES[student], POINTS)
    assert f"{NAME}: {SCORES[student]:g} / {POINTS} points" in cell.outputs[0].text
    record = exercise_record(f"{NAME}_test", NAME, POINTS, "graded", None, results)
    assert (record.score, record.max_score) == (SCORES[student], POINTS)


@pytest.mark.parametrize("student", ["stub", "wrong", "right"])
def test_the_demo_expects_the_cells_scale(attend, answers, student):
    entry = expected.grade(NAME, answers[student], [])
    assert (entry["score"], entry["max_score"]) == (SCORES[student], POINTS)
