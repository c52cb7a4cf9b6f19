"""A kit-style exercise added as the README's "Adding an exercise" says: its notebook and one visible checks module.

``attend(scores, values)`` takes a softmax of the scores over the keys and weighs the values with it. Its two
parts weigh 2 points each, its test cell 3 points: the parts' points are weights, the cell sets the scale.
It has no hidden checks, no wrong answer or misconception of its own and no mistake in the demo.
"""
import nbformat

from .notebooks.test_notebooks import TEST_CELL

NAME, MODULE, NOTEBOOK, POINTS = "attend", "attend", "06_attend.ipynb", 3

CHECKS = '''\
"""Visible checks for 06_attend."""
import numpy as np

from .cases import Case, Part
from .judges import expect
from .plain import call

NOTEBOOK = "06_attend.ipynb"

SCORES = np.array([[1.0, 2.0, 0.0], [0.5, 0.5, 3.0], [2.0, 1.0, 1.0]], dtype=np.float32)
VALUES = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], dtype=np.float32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _one_query():
    judge = expect("Tensor", _softmax(SCORES[0]) @ VALUES, "attend(scores, values) for one query")
    return [Case("one query's scores [1, 2, 0]", judge, call(SCORES[0], VALUES))]


def _every_query():
    judge = expect("Tensor", _softmax(SCORES) @ VALUES, "attend(scores, values)",
                   diagnoses=[("softmax_dim0", _softmax(SCORES, axis=0) @ VALUES)])
    return [Case("a (3, 3) matrix of scores", judge, call(SCORES, VALUES))]


PARTS = {"attend": [Part("one query: a vector of scores", 2, _one_query),
                    Part("every query: a matrix of scores, one softmax per row", 2, _every_query)]}
POINTS = {"attend": 3}
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
    "right": "def attend(scores, values):\n    return torch.softmax(scores, dim=-1) @ values",
}
SCORES = {"stub": 0, "wrong": 1.5, "right": 3}  # the wrong answer passes one part of two: half the cell's points


def _nbgrader(grade_id, *, solution=False, points=None):
    meta = {"grade": points is not None, "grade_id": grade_id, "locked": not solution, "schema_version": 3,
            "solution": solution, "task": False}
    return {"nbgrader": {**meta, **({"points": points} if points is not None else {})}}


def notebook():
    """The instructor's notebook: a title with its points, the given code, the solution cell, the test cell."""
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(f"# 06 · Attending to values\n\nThis notebook is worth **{POINTS} points**."),
        nbformat.v4.new_code_cell("import torch"),
        nbformat.v4.new_code_cell(SOLUTION, metadata=_nbgrader(NAME, solution=True)),
        nbformat.v4.new_code_cell(TEST_CELL.format(name=NAME), metadata=_nbgrader(f"{NAME}_test", points=POINTS)),
    ], metadata={"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                 "language_info": {"name": "python"}})


def add_to(kit):
    """Add the exercise to a copy of the kit: its notebook and its checks module, nothing else."""
    nbformat.write(notebook(), kit / "solutions" / "self_attention" / NOTEBOOK)
    (kit / "grader" / "checks" / f"{MODULE}.py").write_text(CHECKS)
