"""A notebook's cells, read as plain JSON, and where the kit's exercises stand among them."""

import functools
import json

from . import registry
from .cells import is_test_cell, kit_exercise, nbgrader_metadata, points_by_exercise


class Node(dict):
    """A JSON object whose keys read as attributes too, as nbformat's nodes do."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def read(path):
    """A notebook's cells, read as plain JSON: quick, because nbformat's import alone takes a second."""
    with open(path, encoding="utf-8") as handle:
        nb = json.load(handle, object_hook=Node)
    for cell in nb["cells"]:
        if isinstance(cell.get("source"), list):
            cell["source"] = "".join(cell["source"])
    return nb


def exercise_cells(nb):
    """{exercise: test cell} for the kit's test cells, in notebook order."""
    return {kit_exercise(cell): cell for cell in nb.cells if kit_exercise(cell)}


def sources_before(nb, name):
    """The code cells that run before the test cell of exercise ``name`` (a kit exercise), as the grader reads them."""
    sources = []
    for cell in nb.cells:
        if is_test_cell(cell):
            if registry.grades_exercise(nbgrader_metadata(cell).get("grade_id", ""), name):
                break
        elif cell.cell_type == "code":
            sources.append(cell.source)
    return sources


def exercise_points(name):
    """What exercise ``name`` is worth in its notebook: its test cell's points; its parts' points are weights on
    that scale. The student's copy of its module says (``POINTS``); in the kit, the solution notebook does."""
    module = registry.module_of(name)
    return module.POINTS[name] if hasattr(module, "POINTS") else solution_points()[name]


@functools.cache
def solution_points():
    """{exercise: points} of the kit's solution notebooks' test cells."""
    return {
        name: points
        for path in sorted(registry.SOLUTIONS.glob("*/*.ipynb"))
        for name, points in points_by_exercise(read(path)).items()
    }
