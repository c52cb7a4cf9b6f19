"""What a notebook cell is to nbgrader and to the kit: one definition, used everywhere."""

import re

from .registry import exercise_of_grade_id


def nbgrader_metadata(cell):
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def is_test_cell(cell):
    """An autograded test cell: a graded code cell that is not an answer."""
    meta = nbgrader_metadata(cell)
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def cell_points(cell):
    """The points nbgrader's metadata gives a graded cell (0 when it gives none)."""
    return float(nbgrader_metadata(cell).get("points", 0))


def points_by_exercise(nb):
    """{exercise: its test cell's points} of a notebook's kit test cells: nbgrader's metadata, where an instructor
    sets them."""
    return {kit_exercise(cell): cell_points(cell) for cell in nb.get("cells", []) if kit_exercise(cell)}


def kit_exercise(cell):
    """The kit exercise a test cell grades (its grade_id is ``<exercise>_test``), or None."""
    return exercise_of_grade_id(nbgrader_metadata(cell).get("grade_id", "")) if is_test_cell(cell) else None


def definition(name=None):
    """A top-level ``def`` or ``class`` of ``name`` (of any name when None), as a pattern whose group 1 is the name."""
    names = re.escape(name) if name else r"\w+"
    return re.compile(rf"^(?:def|class)\s+({names})\b", re.MULTILINE)


def defines(source, name):
    """True when a cell's source defines ``name`` with ``def`` or ``class`` at its top level."""
    return definition(name).search(source) is not None
