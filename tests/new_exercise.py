"""A kit-style exercise added as the tutorial "Add an exercise" (docs/extending/) says, from its own code blocks.

``attend(scores, values)`` takes a softmax of the scores over the keys and weighs the values with it. Its module
has two visible parts and two hidden ones (a gate on random score vectors, then random score matrices), the
words of one misconception of its own (the softmax left out) and that misconception's wrong answer, written as
an edit of the reference cell. Each part weighs 2 points, the test cell 3: the parts' points are weights, the
cell sets the scale.
"""

import pathlib
import re
import textwrap

import nbformat

from .notebooks.test_notebooks import TEST_CELL

NAME, MODULE, NOTEBOOK, POINTS = "attend", "attend", "06_attend.ipynb", 3
MISCONCEPTION = "attend_without_softmax"

TUTORIAL = pathlib.Path(__file__).resolve().parents[1] / "docs" / "extending" / "tutorial-add-exercise.md"


def tutorial_block(starts_with):
    """The tutorial's Python code block that starts with ``starts_with``, dedented, as a reader copies it."""
    for block in re.findall(r"^( *)```python\n(.*?)^\1```", TUTORIAL.read_text(encoding="utf-8"), re.M | re.S):
        code = textwrap.dedent(block[1])
        if code.startswith(starts_with):
            return code
    raise LookupError(f"no code block of {TUTORIAL.name} starts with {starts_with!r}")


CHECKS = tutorial_block('"""06 · Attending to values')  # the exercise module, as the tutorial writes it
SOLUTION = tutorial_block("def attend(scores, values):").rstrip("\n")  # the solution cell

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
