"""The parts' points are weights: every path from part results to a score lands on the test cell's scale
(grader.checks.scoring.scaled). The exercise here weighs its two parts 2 points each, its cell 3 points."""

import sys

import nbformat
import pytest
import torch
from nbgrader.utils import determine_grade

import grader.exercises
from grader import reference
from grader.autograde.outputs import exercise_record, kit_cell
from grader.checks import check, declared, notebook, registry
from grader.checks.registry import hidden_parts
from grader.checks.running import grade_locally
from grader.demo import expected
from grader.hidden import check_hidden, edits

from .. import new_exercise
from ..conftest import SOLUTIONS
from ..course_builder import ASSIGNMENT
from ..new_exercise import NAME, POINTS, SCORES


def forget():
    """Make the registry look for the checks modules again."""
    registry.modules.cache_clear()
    registry._parts.cache_clear()
    declared.declarations.cache_clear()
    notebook.solution_points.cache_clear()
    reference.namespace.cache_clear()
    edits._reference_cells.cache_clear()


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
def attend(tmp_path, monkeypatch):
    """The exercise's module, found by the registry as grader/exercises/attend.py would be, and its notebook
    among the solutions (a folder of links to the kit's, and the new one)."""
    (tmp_path / f"{new_exercise.MODULE}.py").write_text(new_exercise.CHECKS)
    solutions = tmp_path / "solutions" / ASSIGNMENT
    solutions.mkdir(parents=True)
    for path in SOLUTIONS.glob("*.ipynb"):
        (solutions / path.name).symlink_to(path)
    nbformat.write(new_exercise.notebook(), solutions / new_exercise.NOTEBOOK)
    monkeypatch.setattr(registry, "SOLUTIONS", solutions.parent)
    path = grader.exercises.__path__
    grader.exercises.__path__ = [*path, str(tmp_path)]
    forget()
    try:
        yield
    finally:
        grader.exercises.__path__ = path
        sys.modules.pop(f"grader.exercises.{new_exercise.MODULE}", None)
        forget()


def test_the_registry_finds_the_module(attend):
    assert NAME in registry.exercise_names() and notebook.exercise_points(NAME) == POINTS
    assert sum(p.points for p in registry.visible_parts(NAME)) == 4 and sum(p.points for p in hidden_parts(NAME)) == 4


def scored_by_nbgrader(value):
    """What nbgrader makes of a test cell that returned ``value``: (score, maximum)."""
    outputs = [] if value is None else [nbformat.v4.new_output("execute_result", data={"text/plain": repr(value)})]
    cell = nbformat.v4.new_code_cell(
        "", metadata={"nbgrader": {"grade": True, "solution": False, "points": POINTS, "grade_id": f"{NAME}_test"}}
    )
    cell.outputs = outputs
    return determine_grade(cell)


@pytest.mark.parametrize("student", ["wrong", "right"])
def test_the_test_cell_run_in_jupyter_gives_the_score_on_its_scale(attend, answers, capsys, student):
    """As Jupyter, nbgrader's validate or a stock nbgrader autograde run the instructor's test cell."""
    grade = check(NAME, answers[student])
    check_hidden(grade)
    assert scored_by_nbgrader(grade.result()) == (SCORES[student], POINTS)
    said = capsys.readouterr()
    assert f"{NAME}: {SCORES[student]:g} / {POINTS} points" in (said.out if student == "right" else said.err)


def test_the_students_copy_says_the_cells_points(attend, answers, capsys):
    """The student's test cell has no hidden block: it says what the exercise is worth, and its number stays
    on the cell's scale (a raw sum of weights can exceed the cell's points, which nbgrader refuses)."""
    value = check(NAME, answers["wrong"]).result()
    assert scored_by_nbgrader(value) == (SCORES["wrong"], POINTS)
    said = " ".join(capsys.readouterr().err.split())  # a check failed: the report goes where Validate shows it
    assert (
        f"{NAME}: visible checks 1/2 passed; this exercise is worth {POINTS} points; the other checks, run at "
        "grading, try new inputs" in said
    )


@pytest.mark.parametrize("student", ["stub", "wrong", "no_softmax", "right"])
def test_the_autograded_cell_and_its_record_are_on_the_cells_scale(attend, answers, student):
    results = grade_locally(registry.visible_parts(NAME) + hidden_parts(NAME), answers[student])
    cell = nbformat.v4.new_code_cell(
        "", metadata={"nbgrader": {"grade": True, "solution": False, "points": POINTS, "grade_id": f"{NAME}_test"}}
    )
    kit_cell(cell, NAME, "graded", None, results)
    assert determine_grade(cell) == (SCORES[student], POINTS)
    assert f"{NAME}: {SCORES[student]:g} / {POINTS} points" in cell.outputs[0].text
    record = exercise_record(f"{NAME}_test", NAME, POINTS, "graded", None, results)
    assert (record.score, record.max_score) == (SCORES[student], POINTS)


@pytest.mark.parametrize("student", ["stub", "wrong", "no_softmax", "right"])
def test_the_demo_expects_the_cells_scale(attend, answers, student):
    entry = expected.grade(NAME, answers[student], [])
    assert (entry["score"], entry["max_score"]) == (SCORES[student], POINTS)


def test_the_modules_own_misconception_is_diagnosed_by_its_visible_and_hidden_parts(attend, answers):
    """The wrong answer that the module writes as an edit of the reference cell is recognised on the hidden parts'
    random inputs (by running it there), and the visible parts name the same mistake."""
    from grader.checks.grade import format_results
    from grader.checks.misconceptions import MISCONCEPTIONS

    results = grade_locally(registry.visible_parts(NAME) + hidden_parts(NAME), answers["no_softmax"])
    assert [(r.part.hidden, r.failure.misconception) for r in results] == [
        (False, new_exercise.MISCONCEPTION),
        (False, new_exercise.MISCONCEPTION),
        (True, new_exercise.MISCONCEPTION),
        (True, new_exercise.MISCONCEPTION),
    ]
    said = " ".join(format_results(NAME, results, POINTS).split())
    assert MISCONCEPTIONS[new_exercise.MISCONCEPTION].explanation in said
