"""Every reference passes everything; every stub and every known mistake is graded as it should be."""
import pytest

from grader.checks.framework import grade_locally, total_score
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.cells import is_test_cell
from grader.checks.registry import exercise_names, notebook_of, notebooks, visible_parts
from grader.reference import of as solutions_of
from grader.hidden import hidden_parts
from grader.selfcheck.notebook import read, run_code_cells, exercise_cells

from .conftest import EXERCISES, SOLUTIONS, wrong_answers


def grade_all(name, obj):
    parts = visible_parts(name) + hidden_parts(name)
    results = grade_locally(parts, obj)
    return results, total_score(results), sum(p.points for p in parts)


def reference(name):
    """The instructor's own solution, from the solution notebook."""
    return getattr(solutions_of(notebook_of(name)), name)


@pytest.fixture(scope="module")
def stubs():
    """Each exercise's stub, taken from the released notebook that grades it."""
    found = {}
    for notebook in notebooks():
        namespace = run_code_cells(read(EXERCISES / notebook), EXERCISES)[0]
        found.update({name: namespace[name] for name, _ in exercise_cells(read(EXERCISES / notebook))})
    return found


def test_every_kit_test_cell_has_checks_and_every_exercise_a_test_cell():
    """Exercises are found, not counted: the solution notebooks' ``<exercise>_test`` cells and the checks agree."""
    graded = {}
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        for cell in read(path).cells:
            if is_test_cell(cell) and cell.metadata["nbgrader"]["grade_id"].endswith("_test"):
                graded[cell.metadata["nbgrader"]["grade_id"].removesuffix("_test")] = path.name
    assert graded == {name: notebook_of(name) for name in exercise_names()}


@pytest.mark.parametrize("name", exercise_names())
def test_reference_gets_full_marks(name):
    results, score, total = grade_all(name, reference(name))
    assert [r.failure for r in results if r.failure] == []
    assert score == total > 0


@pytest.mark.parametrize("name", exercise_names())
def test_every_exercise_has_visible_and_hidden_checks(name):
    assert visible_parts(name) and not any(p.hidden for p in visible_parts(name))
    assert hidden_parts(name) and all(p.hidden for p in hidden_parts(name))
    assert any(p.gate for p in hidden_parts(name)), "a randomised gate part stops hard-coded answers"


@pytest.mark.parametrize("name", exercise_names())
def test_untouched_stub_scores_zero_and_says_so(name, stubs):
    results, score, _ = grade_all(name, stubs[name])
    assert score == 0
    assert all("not implemented yet" in r.failure.what for r in results)


@pytest.mark.parametrize("name,misconception,answer", wrong_answers(),
                         ids=lambda v: v if isinstance(v, str) else getattr(v, "__name__", None))
def test_wrong_answer_loses_points_with_its_diagnosis(name, misconception, answer):
    results, score, total = grade_all(name, answer)
    assert score < total
    diagnosed = {r.failure.misconception for r in results if r.failure}
    if misconception is None:
        assert diagnosed == {None}
    else:
        assert misconception in diagnosed


def test_every_misconception_is_recognised_somewhere():
    assert {row[1] for row in wrong_answers()} - {None} == set(MISCONCEPTIONS)
