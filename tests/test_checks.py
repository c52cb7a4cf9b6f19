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


@pytest.mark.parametrize("name", exercise_names())
def test_hidden_checks_vary_the_data_never_the_specification(name):
    """Every kind of requirement a hidden part grades is also graded by a visible part."""
    visible = frozenset().union(*(part.requires for part in visible_parts(name)))
    for part in hidden_parts(name):
        assert part.requires <= visible, f"{part.title!r} grades {sorted(part.requires - visible)} only when hidden"


def _visible_failures(name, answer):
    planned = plan(visible_parts(name))
    return [r.failure for r in judge_parts(planned, run_locally(answer, planned, sources_of(name, answer)))
            if r.failure]


@pytest.mark.parametrize("name,answer,fix", [
    ("sum_weighted_values", "sum_dim1", "dim=-2"),
    ("self_attention", "attention_dot_t", "transpose only the last two dimensions"),
    ("weighted_values", "weighted_seed004", "`...`"),
])
def test_answer_right_on_one_sequence_fails_a_visible_batch_check_that_says_so(name, answer, fix):
    """Answers that passed every visible check and lost points only when hidden checks tried a batch."""
    from .wrong_answers import step_by_step
    failures = _visible_failures(name, getattr(step_by_step, answer))
    assert failures, "the visible checks should catch it"
    assert "works for one sequence but not for a batch of shape" in failures[0].what
    assert fix in failures[0].what


@pytest.mark.parametrize("name,answer", [
    ("attention_weights", "weights_unstable"),
    ("attention", "attention_unstable"),
])
def test_unstable_softmax_fails_a_visible_check_with_its_diagnosis(name, answer):
    from .wrong_answers import numpy_attention, step_by_step
    module = step_by_step if name == "attention_weights" else numpy_attention
    failures = _visible_failures(name, getattr(module, answer))
    assert [f.misconception for f in failures] == ["softmax_unstable"]


def test_torch_softmax_through_a_closure_loses_exactly_the_rule_point():
    """The issue's evasion got 6/6; the direct call got 5/6."""
    from .wrong_answers.numpy_attention import softmax_torch_closure
    results, score, total = grade_all("softmax", softmax_torch_closure)
    assert (score, total) == (5, 6)
    assert [r.part.title for r in results if r.failure] == ["written with NumPy only, without SciPy"]


def test_every_misconception_has_catalogue_words():
    from grader.checks.misconceptions import TITLES
    assert set(TITLES) == set(MISCONCEPTIONS)
    assert all(" " in title and title != key for key, title in TITLES.items())


def test_softmax_without_dim_is_described_as_pytorch_behaves():
    """torch.softmax(scores) raises TypeError; only torch.nn.functional.softmax guesses a dimension."""
    import torch
    with pytest.raises(TypeError):
        torch.softmax(torch.zeros(2, 3))
    text = MISCONCEPTIONS["softmax_implicit_dim"]
    assert "torch.nn.functional.softmax" in text and "TypeError" in text
