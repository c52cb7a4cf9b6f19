"""A submission's nbgrader cells against the release's: what the student changed, and the release's labels put back.

nbgrader's autograde stops on a notebook whose labels are not the release's: ``DeduplicateIds`` keeps the last copy
of a cell and empties the others' labels, ``OverwriteCells`` takes the grade_id off a cell the gradebook does not
know but leaves its other labels, then reads the grade_id of every labelled cell (``add_missing_grade_cells``,
``add_missing_task_cells``: KeyError) and looks up the points of a released answer relabelled as graded
(MissingEntry), and ``CheckCellMetadata`` rejects an emptied or half label. So, before them, each released cell's
original gets the release's labels back and every other cell loses its own: a copy, or a cell the student marked,
is a plain cell of theirs, which runs and is graded as nothing.
"""

import copy

from ..checks.cells import is_test_cell
from ..records import TEST_CELL

MARKS = ("grade", "solution", "locked", "task")


def _labels(cell):
    meta = cell.get("metadata", {}).get("nbgrader")
    return meta if isinstance(meta, dict) else {}


def _grade_id(cell):
    grade_id = _labels(cell).get("grade_id")
    return grade_id if isinstance(grade_id, str) else None


def marked(cell):
    """True for a cell that nbgrader grades, restores or locks."""
    return any(_labels(cell).get(mark) for mark in MARKS)


def kind(cell):
    """What the cell's labels make it, in words: 'answer cell', 'written answer cell', 'test cell'..."""
    labels, code = _labels(cell), cell.get("cell_type") == "code"
    if labels.get("task"):
        return "task cell"
    if labels.get("solution"):
        return ("graded answer cell" if labels.get("grade") else "answer cell") if code else "written answer cell"
    if labels.get("grade"):
        return TEST_CELL if code else "graded cell"
    return "locked cell" if labels.get("locked") else "cell"


def released_cells(released):
    """{grade_id: cell} of the release's nbgrader cells."""
    return {_grade_id(c): c for c in released.cells if marked(c) and _grade_id(c)}


def originals(submitted, released):
    """{grade_id: the submitted cell that stands for the released one}: of the cells with its grade_id, the one
    with the released cell's id (JupyterLab gives a pasted copy a new id), else the first."""
    found = {}
    for grade_id, cell in released_cells(released).items():
        copies = [c for c in submitted.cells if _grade_id(c) == grade_id]
        if copies:
            found[grade_id] = next((c for c in copies if cell.get("id") and c.get("id") == cell.get("id")), copies[0])
    return found


def _normalised(source):
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def _marks(cell):
    labels = _labels(cell)
    return cell.get("cell_type"), [bool(labels.get(mark)) for mark in MARKS], labels.get("points")


def _change(released, original, copies, sources):
    """How one released cell was changed (None when it was not): duplicated, deleted, edited or relabelled."""
    if copies > 1:
        return "duplicated"
    if original is None:  # an answer taken out is the student's loss; a test cell is put back by nbgrader
        moved = _normalised(released.source) in sources
        return ("relabelled" if moved else "deleted") if is_test_cell(released) else None
    if is_test_cell(released) and _normalised(original.source) != _normalised(released.source):
        return "edited"
    return "relabelled" if _marks(original) != _marks(released) else None


def _entry(grade_id, change, cell_kind):
    """A record's ``tampered`` entry; a test cell's has no ``cell``, as the records had before other cells."""
    return {"grade_id": grade_id, "change": change, **({} if cell_kind == TEST_CELL else {"cell": cell_kind})}


def tampering(submitted, released):
    """How the submission's nbgrader cells differ from the release's: [{grade_id, change, cell}, ...]; a released
    cell duplicated, deleted, edited (a test cell) or relabelled, or a cell of the student's marked for grading
    (added); ``cell`` is the cell's kind, left out for a test cell."""
    found, chosen = released_cells(released), originals(submitted, released)
    sources = {_normalised(c.source) for c in submitted.cells if c.get("cell_type") == "code"}
    changes = []
    for grade_id, cell in found.items():
        copies = sum(_grade_id(c) == grade_id for c in submitted.cells)
        if change := _change(cell, chosen.get(grade_id), copies, sources):
            changes.append(_entry(grade_id, change, kind(cell)))
    for cell in submitted.cells:
        if marked(cell) and _grade_id(cell) not in found:
            changes.append(_entry(_grade_id(cell) or "", "added", kind(cell)))
    return changes


def restore_labels(submitted, released):
    """Give each released cell's original the release's labels and take every other cell's off: nbgrader then
    grades the instructor's cells, and a copy or a cell the student marked is a plain cell of theirs."""
    found = released_cells(released)
    kept = {id(cell): grade_id for grade_id, cell in originals(submitted, released).items()}
    for cell in submitted.cells:
        if id(cell) in kept:
            cell.metadata["nbgrader"] = copy.deepcopy(found[kept[id(cell)]].metadata["nbgrader"])
        else:
            cell.get("metadata", {}).pop("nbgrader", None)
