"""Judging and scoring: the verdict on the cases' plain outcomes, given where the student's code never ran."""

import numpy as np

from . import plain
from .cases import CouldNotCheck, Mismatch, PartResult

BATCH_FIX = (
    "Likely fix: count dimensions from the end, so that leading batch dimensions pass through: "
    "transpose only the last two dimensions (keys.transpose(-2, -1), not keys.T), take the softmax over "
    "dim=-1 and sum over the keys with dim=-2, and write `...` for the batch dimensions in einsum."
)


def total_score(results):
    """The exercise's points: the passed parts, or nothing when a gate part failed."""
    if any(r.part.gate and r.failure for r in results):
        return 0.0
    return float(sum(r.score for r in results))


def scaled(results, points):
    """The exercise's score on the test cell's own scale: the notebook sets the points."""
    possible = sum(r.part.points for r in results)
    return points * total_score(results) / possible if possible else 0.0


def gate_note(results):
    """Why the points are gone, when a gate part failed but others passed: a fixed answer is said to
    be one only when it gave the same numbers for other inputs; anything else is wrong on new inputs."""
    gates = [r for r in results if r.part.gate and r.failure and not isinstance(r.failure, CouldNotCheck)]
    if not gates or not any(r.score for r in results):
        return None
    if any(r.fixed for r in gates):
        return (
            "No points for this exercise: it gives the same numbers whatever its inputs, so the parts it "
            "passed do not count (an answer must compute the result, not return fixed numbers)."
        )
    return (
        "No points for this exercise: it is wrong on new inputs (random inputs of other sizes), so the parts "
        "it passed do not count until it computes the right result for any input."
    )


def judge_case(case, outcome):
    """Judge one plain outcome. An error of the grader's own (in the probe, or in the judge) is
    :class:`CouldNotCheck`, never the student's wrong answer."""
    if outcome.get("type") == "grader_error":
        raise CouldNotCheck(outcome.get("error"), outcome.get("message", ""))
    if outcome.get("type") == "raised":
        error, message = outcome.get("error"), outcome.get("message", "")
        if error == "NotImplementedError":
            raise Mismatch("not implemented yet: replace `raise NotImplementedError()` with your code.")
        raise Mismatch(f"your code raised {error}: {message}")
    if outcome.get("type") == "crashed":
        raise Mismatch(f"could not be checked: {outcome.get('reason', 'the code crashed')}")
    try:
        case.judge(outcome)
    except Mismatch:
        raise
    except Exception as error:
        raise CouldNotCheck(type(error).__name__, str(error)[:500]) from None


def _passes(case, outcome):
    try:
        judge_case(case, outcome)
    except Mismatch:
        return False
    return True


def for_a_batch(mismatch, shape):
    """Say in words that an answer right on one sequence fails on a batch, and how to fix that."""
    what = f"works for one sequence but not for a batch of shape {tuple(shape)}: {mismatch.what}"
    if not mismatch.misconception:
        what += "\n" + BATCH_FIX
    return Mismatch(what, mismatch.expected, mismatch.got, mismatch.misconception)


def _input_shapes(value):
    """The shapes of the arrays in a case's parameters, in order."""
    if isinstance(value, (plain.TensorArg, np.ndarray)):
        return [np.shape(value.array if isinstance(value, plain.TensorArg) else value)]
    if isinstance(value, dict):
        value = list(value.values())
    return [shape for item in value for shape in _input_shapes(item)] if isinstance(value, (list, tuple)) else []


def _repeated(case, outcome, every_case, outcomes):
    """True when ``outcome`` holds exactly the values returned for inputs of other shapes: an answer that
    ignores its inputs (an answer that depends on the shape alone, as a mask does, is not caught by this)."""
    values = outcome.get("values")
    if values is None:
        return False
    shapes = _input_shapes(case.params)
    return any(
        other.get("values") is not None
        and _input_shapes(other_case.params) != shapes
        and np.shape(other["values"]) == np.shape(values)
        and np.array_equal(other["values"], values)
        for other_case, other in zip(every_case, outcomes)
    )


def judge_parts(planned, outcomes):
    """Judge the outcomes of :func:`plan`'s cases, given in the same order."""
    every_case = [case for _, cases in planned for case in cases]
    single_ok = all(_passes(case, outcome) for case, outcome in zip(every_case, outcomes) if case.batch is None)
    results, position = [], 0
    for part, cases in planned:
        failure, label, fixed = None, None, False
        for case in cases:
            outcome = outcomes[position]
            position += 1
            if failure is None:
                try:
                    judge_case(case, outcome)
                except Mismatch as mismatch:
                    failure, label = mismatch, case.label
                    fixed = part.gate and _repeated(case, outcome, every_case, outcomes)
                    if case.batch is not None and single_ok:
                        failure = for_a_batch(mismatch, case.batch)
        results.append(PartResult(part, failure, label, fixed))
    return results
