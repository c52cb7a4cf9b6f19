"""Checks as data: cases to run on the student's code, judged where that code never ran."""
import functools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import plain
from .misconceptions import MISCONCEPTIONS


class Mismatch(Exception):
    """A case's answer is wrong: what was expected, what came back, and the likely mistake."""

    def __init__(self, what, expected=None, got=None, misconception=None):
        super().__init__(what)
        self.what, self.expected, self.got, self.misconception = what, expected, got, misconception

    def explain(self, with_misconception=True):
        lines = [self.what]
        if self.expected is not None:
            lines.append(f"  expected: {self.expected}")
        if self.got is not None:
            lines.append(f"  got:      {self.got}")
        if self.misconception and with_misconception:
            lines.append(f"  likely mistake: {MISCONCEPTIONS[self.misconception].explanation}")
        return "\n".join(lines)


class CouldNotCheck(Mismatch):
    """The grader itself failed on a case (a probe, a judge, a library it relies on): not the student's mistake."""

    def __init__(self, error, message=""):
        self.detail = f"{error}: {message}" if message else str(error)
        super().__init__(f"the grader could not check this ({self.detail}). This is a problem of the grader, "
                         "not of your code.")


BATCH_FIX = ("Likely fix: count dimensions from the end, so that leading batch dimensions pass through: "
             "transpose only the last two dimensions (keys.transpose(-2, -1), not keys.T), take the softmax over "
             "dim=-1 and sum over the keys with dim=-2, and write `...` for the batch dimensions in einsum.")


UNREADABLE = {"type": "crashed", "reason": "the notebook's code cells are not available to read (run the check "
              "in the notebook, or with pytest on the notebook)"}


@dataclass(frozen=True)
class Case:
    """One probe of the student's exercise and the judge of what comes back.

    ``probe="source"`` cases never run the student's code: their outcome is
    :func:`grader.checks.policy.source_outcome` of ``params["name"]`` over the notebook's code
    cells, computed wherever the grade is decided. ``batch`` names the batch shape of a case that
    adds leading batch dimensions to inputs the exercise also takes without them.
    """
    label: str
    judge: Callable[[dict], None]
    params: dict = field(default_factory=dict)
    probe: str = "call"
    batch: tuple | None = None

    def request(self):
        return {"probe": self.probe, "params": plain.to_plain(self.params)}


# The kinds of requirement a part can grade. A hidden part only varies the data: every kind it
# grades is also graded by a visible part of the same exercise (a test holds the kit to it).
REQUIREMENTS = {
    "batch": "leading batch dimensions",
    "large": "large scores without overflow",
    "dtype": "the dtype of the result",
    "edge": "edge sizes: one step, one key, one row",
    "shape": "other sizes, non-square inputs",
    "argument": "optional arguments and flags",
    "inputs": "inputs left unchanged",
    "policy": "a rule about how the code is written",
    "weights": "given weights loaded into a module",
    "mode": "training and evaluation mode, dropout",
    "layout": "where labels, titles and colour bars go",
    "numpy": "NumPy arrays as well as tensors",
    "causal": "a later token never changes an earlier output",
}


@dataclass(frozen=True)
class Part:
    """A group of cases that must all pass; ``points`` is its weight, scaled to the test cell's points."""
    title: str
    points: float
    cases: Callable[[], list]
    hidden: bool = False  # set for the parts of the hidden checks package, never by hand
    gate: bool = False  # failing it zeroes the exercise: the answer does not compute in general
    requires: frozenset = frozenset()  # kinds of requirement (keys of REQUIREMENTS) its cases grade

    def __post_init__(self):
        object.__setattr__(self, "requires", frozenset(self.requires))
        unknown = self.requires - set(REQUIREMENTS)
        if unknown:
            raise ValueError(f"unknown requirement kinds {sorted(unknown)} in part {self.title!r}")


@dataclass
class PartResult:
    part: Part
    failure: Mismatch | None
    case_label: str | None = None
    fixed: bool = False  # its failing answer is the very one given for other inputs: it ignores its inputs

    @property
    def score(self):
        return 0.0 if self.failure else self.part.points


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
        return ("No points for this exercise: it gives the same numbers whatever its inputs, so the parts it "
                "passed do not count (an answer must compute the result, not return fixed numbers).")
    return ("No points for this exercise: it is wrong on new inputs (random inputs of other sizes), so the parts "
            "it passed do not count until it computes the right result for any input.")


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


def plan(parts):
    """Build every part's cases, in order: [(part, [case, ...]), ...]; built once, they never change."""
    return _plan(tuple(parts))


@functools.cache
def _plan(parts):
    return [(part, part.cases()) for part in parts]


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
    return any(other.get("values") is not None and _input_shapes(other_case.params) != shapes
               and np.shape(other["values"]) == np.shape(values) and np.array_equal(other["values"], values)
               for other_case, other in zip(every_case, outcomes))


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


def grade_locally(parts, obj, sources=None):
    """Plan, run here and judge every case of ``parts`` on the student's ``obj``: the part results."""
    planned = plan(parts)
    return judge_parts(planned, run_locally(obj, planned, sources))


def sandbox_requests(planned):
    """The requests for the process that runs the student's code: every case but the source ones."""
    return [case.request() for _, cases in planned for case in cases if case.probe != "source"]


def with_source_outcomes(planned, outcomes, sources):
    """All outcomes in plan order: ``outcomes`` (of :func:`sandbox_requests`) with the source cases'
    outcomes, read from ``sources`` (the notebook's code cells that ran before the test cell; None
    when they are not available, and the source cases then fail, saying why)."""
    from .policy import source_outcome
    merged, others = [], iter(outcomes)
    for _, cases in planned:
        for case in cases:
            if case.probe == "source":
                merged.append(UNREADABLE if sources is None else source_outcome(case.params["name"], sources))
            else:
                merged.append(next(others))
    return merged


def notebook_sources():
    """The cells run so far in this IPython session (its ``In`` history), or None outside IPython."""
    import sys
    if "IPython" not in sys.modules:
        return None
    shell = sys.modules["IPython"].get_ipython()
    history = getattr(shell, "user_ns", {}).get("In") if shell is not None else None
    return [cell for cell in history if isinstance(cell, str)] if isinstance(history, list) else None


def run_locally(obj, planned, sources=None):
    """Run every case here, round-tripping each outcome through plain data as a sandbox would.

    Source cases read ``sources`` (the code cells that ran, in order); without them, the cells run
    so far in this IPython session; outside IPython they cannot be checked and fail, saying why.
    """
    from .probes import run_probe
    if sources is None:
        sources = notebook_sources()
    outcomes = [run_probe(obj, r["probe"], plain.from_plain(r["params"])) for r in sandbox_requests(planned)]
    return [plain.loads(plain.dumps(o)) for o in with_source_outcomes(planned, outcomes, sources)]
