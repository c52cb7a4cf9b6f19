"""Checks as data: the cases run on the student's code, the parts they make up, what their judges raise."""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

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
        super().__init__(
            f"the grader could not check this ({self.detail}). This is a problem of the grader, not of your code."
        )


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
    hidden: bool = False  # run at grading only; the student's copy of the module does not hold it
    gate: bool = False  # failing it zeroes the exercise: the answer does not compute in general
    requires: frozenset = frozenset()  # kinds of requirement (keys of REQUIREMENTS) its cases grade

    def __post_init__(self):
        object.__setattr__(self, "requires", frozenset(self.requires))
        unknown = self.requires - set(REQUIREMENTS)
        if unknown:
            raise ValueError(f"unknown requirement kinds {sorted(unknown)} in part {self.title!r}")


def known_random_batches(titles, known, cases, random, batches, requires=(), random_requires=("shape",), hidden=False):
    """Parts of weight 1 on ``known()``, ``cases(*random)`` (the gate) and ``cases(*batches)``, all ``requires``
    and all ``hidden`` or visible."""
    known_title, random_title, batches_title = titles
    return [
        Part(known_title, 1, known, requires=requires, hidden=hidden),
        Part(
            random_title,
            1,
            functools.partial(cases, *random),
            gate=True,
            requires={*requires, *random_requires},
            hidden=hidden,
        ),
        Part(batches_title, 1, functools.partial(cases, *batches), requires={*requires, "batch"}, hidden=hidden),
    ]


@dataclass
class PartResult:
    part: Part
    failure: Mismatch | None
    case_label: str | None = None
    fixed: bool = False  # its failing answer is the very one given for other inputs: it ignores its inputs

    @property
    def score(self):
        return 0.0 if self.failure else self.part.points
