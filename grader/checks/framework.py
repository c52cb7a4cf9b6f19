"""Checks as data: cases to run on the student's code, judged where that code never ran."""
import functools
from dataclasses import dataclass, field
from typing import Callable

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
            lines.append(f"  likely mistake: {MISCONCEPTIONS[self.misconception]}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Case:
    """One probe of the student's exercise and the judge of what comes back."""
    label: str
    judge: Callable[[dict], None]
    params: dict = field(default_factory=dict)
    probe: str = "call"

    def request(self):
        return {"probe": self.probe, "params": plain.to_plain(self.params)}


@dataclass(frozen=True)
class Part:
    """A group of cases worth some points: all of them must pass."""
    title: str
    points: float
    cases: Callable[[], list]
    hidden: bool = False
    gate: bool = False  # failing it zeroes the exercise: the answer does not compute in general


@dataclass
class PartResult:
    part: Part
    failure: Mismatch | None
    case_label: str | None = None

    @property
    def score(self):
        return 0.0 if self.failure else self.part.points


def total_score(results):
    """The exercise's points: the passed parts, or nothing when a gate part failed."""
    if any(r.part.gate and r.failure for r in results):
        return 0.0
    return float(sum(r.score for r in results))


def gate_note(results):
    """Why the points are gone, when a gate part failed but others passed."""
    if any(r.part.gate and r.failure for r in results) and any(r.score for r in results):
        return ("No points for this exercise: the function is wrong on new inputs, so the parts it "
                "passed do not count (an answer must compute the result, not return fixed numbers).")
    return None


def judge_case(case, outcome):
    """Judge one plain outcome; a malformed outcome counts as a wrong answer."""
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
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise Mismatch(f"the answer has an unexpected form ({type(error).__name__}: {error})")


def plan(parts):
    """Build every part's cases, in order: [(part, [case, ...]), ...]; built once, they never change."""
    return _plan(tuple(parts))


@functools.cache
def _plan(parts):
    return [(part, part.cases()) for part in parts]


def judge_parts(planned, outcomes):
    """Judge the outcomes of :func:`plan`'s cases, given in the same order."""
    results, position = [], 0
    for part, cases in planned:
        failure, label = None, None
        for case in cases:
            outcome = outcomes[position]
            position += 1
            if failure is None:
                try:
                    judge_case(case, outcome)
                except Mismatch as mismatch:
                    failure, label = mismatch, case.label
        results.append(PartResult(part, failure, label))
    return results


def grade_locally(parts, obj):
    """Plan, run here and judge every case of ``parts`` on the student's ``obj``: the part results."""
    planned = plan(parts)
    return judge_parts(planned, run_locally(obj, planned))


def run_locally(obj, planned):
    """Run every case here, round-tripping each outcome through plain data as a sandbox would."""
    from .probes import run_probe
    outcomes = []
    for _, cases in planned:
        for case in cases:
            request = case.request()
            params = plain.from_plain(request["params"])
            outcome = run_probe(obj, request["probe"], params)
            outcomes.append(plain.loads(plain.dumps(outcome)))
    return outcomes
