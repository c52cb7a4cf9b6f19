"""Every reference passes everything; every stub and every known mistake is graded as it should be."""
import importlib
import inspect

import pytest

from grader.checks.framework import judge_parts, plan, run_locally, total_score
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import NOTEBOOKS, exercise_names, visible_parts
from grader.hidden import hidden_parts
from grader.selfcheck.notebook import exercise_cells, read, run_code_cells, sources_before

from .conftest import EXERCISES, wrong_answers


def sources_of(name, obj):
    """An answer's code as a notebook would hold it: its module's source, then ``name`` bound to it."""
    alias = [] if obj.__name__ == name else [f"{name} = {obj.__name__}\n"]
    return [inspect.getsource(inspect.getmodule(obj)), *alias]


def grade_all(name, obj, sources=None):
    parts = visible_parts(name) + hidden_parts(name)
    planned = plan(parts)
    results = judge_parts(planned, run_locally(obj, planned, sources or sources_of(name, obj)))
    return results, total_score(results), sum(p.points for p in parts)


def reference(name):
    for module in NOTEBOOKS:
        found = getattr(importlib.import_module(f"grader.reference.{module}"), name, None)
        if found is not None:
            return found
    raise LookupError(name)


@pytest.fixture(scope="module")
def stubs():
    """Each exercise's stub, taken from the released notebook that grades it."""
    found = {}
    for notebook in NOTEBOOKS.values():
        nb = read(EXERCISES / notebook)
        namespace = run_code_cells(nb, EXERCISES)[0]
        found.update({name: (namespace[name], sources_before(nb, name)) for name, _ in exercise_cells(nb)})
    return found


def test_catalogue_has_all_exercises():
    assert len(exercise_names()) == 23


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
    results, score, _ = grade_all(name, *stubs[name])
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
