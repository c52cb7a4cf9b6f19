"""Where each exercise lives in a notebook: its answer cell and its test cell."""

import re

from ..checks.cells import definition
from ..checks.notebook import exercise_cells
from ..checks.registry import exercise_names


def _nbgrader(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def _solution_cells(nb):
    """{exercise: solution cell} for the solution cells that define an exercise."""
    found = {}
    for cell in nb.cells:
        meta = _nbgrader(cell)
        if cell.cell_type == "code" and meta.get("solution") and not meta.get("grade"):
            names = [n for n in definition().findall(cell.source) if n in exercise_names()]
            if names:
                found.setdefault(names[0], cell)
    return found


def answer_cells(nb):
    """{exercise: answer cell} for the exercises this notebook grades."""
    graded_here = exercise_cells(nb)
    return {name: cell for name, cell in _solution_cells(nb).items() if name in graded_here}


def pasted_cells(nb):
    """{exercise: answer cell} for exercises graded in another notebook, whose answer is pasted here for use."""
    graded_here = exercise_cells(nb)
    return {name: cell for name, cell in _solution_cells(nb).items() if name not in graded_here}


def grade_id(cell):
    return _nbgrader(cell)["grade_id"]


def graded(cell):
    """True for an nbgrader cell (answer or test): not part of the narrative."""
    meta = _nbgrader(cell)
    return bool(meta.get("solution") or meta.get("grade"))


def mentions(cell, name):
    return cell.cell_type == "code" and re.search(rf"\b{re.escape(name)}\b", cell.source) is not None


def isolated(nb, name):
    """True when no other exercise's answer or test cell mentions exercise ``name``.

    Only such an exercise may hang or crash when called: no other exercise's grade depends on it.
    """
    own = {id(answer_cells(nb).get(name)), id(exercise_cells(nb).get(name))}
    return not any(graded(cell) and id(cell) not in own and mentions(cell, name) for cell in nb.cells)


def demo_cells(nb, name):
    """The narrative code cells that use exercise ``name``."""
    return [cell for cell in nb.cells if not graded(cell) and mentions(cell, name)]
