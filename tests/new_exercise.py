"""A kit-style exercise added as the README's "Adding an exercise" says: its notebook and one exercise module.

``attend(scores, values)`` takes a softmax of the scores over the keys and weighs the values with it. Its module
has two visible parts and two hidden ones (a gate on random score vectors, then random score matrices), the
words of one misconception of its own (the softmax left out) and that misconception's wrong answer, written as
an edit of the reference cell. Each part weighs 2 points, the test cell 3: the parts' points are weights, the
cell sets the scale.
"""

import nbformat

from .notebooks.test_notebooks import TEST_CELL

NAME, MODULE, NOTEBOOK, POINTS = "attend", "attend", "06_attend.ipynb", 3
MISCONCEPTION = "attend_without_softmax"

CHECKS = '''\
"""06 · Attending to values (06_attend.ipynb): its exercise's checks, written once."""
import numpy as np
import torch

from .. import reference
from ..checks.cases import Case, Part
from ..checks.judges import expect
from ..checks.misconceptions import Misconception
from ..checks.plain import call
from ..hidden.catalogue import diagnosis
from ..hidden.edits import edit, reference_cell
from ..hidden.wrong_answers import Wrong, making

NOTEBOOK = "06_attend.ipynb"

MISCONCEPTIONS = (
    Misconception(
        "attend_without_softmax", "weighing the values by the raw scores",
        "It looks like you multiplied the scores by the values without a softmax. The weights must be "
        "non-negative and sum to 1 over the keys: take torch.softmax(scores, dim=-1) first.",
        "Weighed the values by the raw scores, without a softmax."),
)

SCORES = np.array([[1.0, 2.0, 0.0], [0.5, 0.5, 3.0], [2.0, 1.0, 1.0]], dtype=np.float32)
VALUES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=np.float32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _one_query():
    judge = expect("Tensor", _softmax(SCORES[0]) @ VALUES, "attend(scores, values) for one query",
                   diagnoses=[("attend_without_softmax", SCORES[0] @ VALUES)])
    return [Case("one query's scores [1, 2, 0]", judge, call(SCORES[0], VALUES))]


def _every_query():
    judge = expect("Tensor", _softmax(SCORES) @ VALUES, "attend(scores, values)",
                   diagnoses=[("softmax_dim0", _softmax(SCORES, axis=0) @ VALUES),
                              ("attend_without_softmax", SCORES @ VALUES)])
    return [Case("a (3, 3) matrix of scores", judge, call(SCORES, VALUES))]


# ---- hidden: checks on random scores, compared with the reference solution ----
def _random(*shape):
    rng = np.random.default_rng(len(shape))
    scores, values = (rng.standard_normal(s).astype(np.float32) for s in (shape, (shape[-1], 4)))
    expected = reference.of(NOTEBOOK).attend(torch.from_numpy(scores), torch.from_numpy(values)).numpy()
    wrong = diagnosis("attend_without_softmax", "attend", "no_softmax", torch.from_numpy(scores),
                      torch.from_numpy(values))
    judge = expect("Tensor", expected, f"attend on random scores of shape {shape}", diagnoses=wrong)
    return [Case(f"random scores of shape {shape}", judge, call(scores, values))]


WRONG_ANSWERS = (
    *making("attend_without_softmax",
        Wrong("attend", "no_softmax", edit(reference_cell("attend"), (
            "torch.softmax(scores, dim=-1) @ values", "scores @ values")))),
)


PARTS = {"attend": [
    Part("one query: a vector of scores", 2, _one_query),
    Part("every query: a matrix of scores, one softmax per row", 2, _every_query),
    Part("random score vectors", 2, lambda: _random(5), gate=True, hidden=True),
    Part("random score matrices", 2, lambda: _random(4, 6), hidden=True),
]}
'''

SOLUTION = '''\
def attend(scores, values):
    """The values weighed by the softmax of the scores over the keys: (..., n) and (n, d) -> (..., d)."""
    ### BEGIN SOLUTION
    return torch.softmax(scores, dim=-1) @ values
    ### END SOLUTION'''

ANSWERS = {  # student: their answer cell, or None for the released stub left as it is
    "stub": None,
    "wrong": "def attend(scores, values):\n    return torch.softmax(scores, dim=0) @ values",  # softmax_dim0
    "no_softmax": "def attend(scores, values):\n    return scores @ values",  # the module's own misconception
    "right": "def attend(scores, values):\n    return torch.softmax(scores, dim=-1) @ values",
}
# softmax_dim0 is right on one query (a vector) only: half the parts, so half the cell's points.
SCORES = {"stub": 0, "wrong": 1.5, "no_softmax": 0, "right": 3}


def _nbgrader(grade_id, *, solution=False, points=None):
    meta = {
        "grade": points is not None,
        "grade_id": grade_id,
        "locked": not solution,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    return {"nbgrader": {**meta, **({"points": points} if points is not None else {})}}


def notebook():
    """The instructor's notebook: a title with its points, the given code, the solution cell, the test cell."""
    return nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell(f"# 06 · Attending to values\n\nThis notebook is worth **{POINTS} points**."),
            nbformat.v4.new_code_cell("import torch"),
            nbformat.v4.new_code_cell(SOLUTION, metadata=_nbgrader(NAME, solution=True)),
            nbformat.v4.new_code_cell(TEST_CELL.format(name=NAME), metadata=_nbgrader(f"{NAME}_test", points=POINTS)),
        ],
        metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
    )


def add_to(kit):
    """Add the exercise to a copy of the kit: its notebook and its exercise module, nothing else."""
    nbformat.write(notebook(), kit / "solutions" / "self_attention" / NOTEBOOK)
    (kit / "grader" / "exercises" / f"{MODULE}.py").write_text(CHECKS)
