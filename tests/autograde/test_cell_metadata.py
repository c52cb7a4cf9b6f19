"""The kit's cell-metadata check (grader/autograde/metadata.py) gives nbgrader's own verdict on every notebook:
the same notebooks pass, and a broken label fails with the same error, whichever of nbgrader's rules it breaks."""

import copy

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell
from nbgrader.nbgraderformat import MetadataValidator, ValidationError

from grader.autograde.metadata import CheckCellMetadataOnce, kit_validator

from ..conftest import EXERCISES, SOLUTIONS
from ..course_builder import BASICS

GOOD = {
    "grade_id": "mine",
    "grade": True,
    "solution": True,
    "locked": False,
    "task": False,
    "points": 2,
    "schema_version": 3,
}
BROKEN = {
    "points that are not a number": ({"points": "two"}, new_code_cell),
    "a grade id that is not a string": ({"grade_id": 7}, new_code_cell),
    "an unknown key": ({"colour": "red"}, new_code_cell),
    "no grade id": ({"grade_id": None}, new_code_cell),
    "an empty grade id": ({"grade_id": ""}, new_code_cell),
    "a graded cell without points": ({"points": None}, new_code_cell),
    "a markdown grade cell that is not a solution": ({"solution": False}, new_markdown_cell),
    "a markdown solution cell that is not graded": ({"grade": False}, new_markdown_cell),
    "a code task cell": ({"task": True, "grade": False, "solution": False}, new_code_cell),
    "an old schema version": ({"schema_version": 2}, new_code_cell),
    "a schema version from the future": ({"schema_version": 4}, new_code_cell),
    "no schema version": ({"schema_version": None}, new_code_cell),
    "a grade id used twice": ({"grade_id": "softmax_scores"}, new_code_cell),
}


def verdict(validator, nb):
    """None when ``nb`` passes, else the error's type and text."""
    try:
        validator.validate_nb(nb)
    except Exception as error:
        return type(error).__name__, str(error)
    return None


def with_cell(nb, changes, make):
    nb = copy.deepcopy(nb)
    meta = {key: value for key, value in {**GOOD, **changes}.items() if value is not None}
    nb.cells.append(make("x = 1", metadata={"nbgrader": meta}))
    return nb


@pytest.mark.parametrize("folder", [EXERCISES, SOLUTIONS])
def test_the_kits_notebooks_pass_both_checks(folder):
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert verdict(MetadataValidator(), nb) is None
        assert verdict(kit_validator(), nb) is None


@pytest.mark.parametrize("broken", BROKEN)
def test_a_broken_label_fails_with_nbgraders_own_error(broken):
    nb = with_cell(nbformat.read(EXERCISES / BASICS, as_version=4), *BROKEN[broken])
    expected = verdict(MetadataValidator(), nb)
    assert expected is not None
    assert verdict(kit_validator(), nb) == expected


def test_the_preprocessor_refuses_a_broken_notebook_as_nbgraders_does():
    nb = with_cell(nbformat.read(EXERCISES / BASICS, as_version=4), *BROKEN["points that are not a number"])
    with pytest.raises(ValidationError, match="the nbgrader metadata may be corrupted"):
        CheckCellMetadataOnce().preprocess(nb, {})
    good = nbformat.read(EXERCISES / BASICS, as_version=4)
    assert CheckCellMetadataOnce().preprocess(good, {})[0] is good
