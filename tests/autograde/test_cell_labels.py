"""A submission's nbgrader cells against the release's (grader/autograde/tampering.py): a copied, added or
relabelled answer, written answer or locked cell is reported, the release's labels are put back on the
instructor's cells, and every other cell is left a plain cell of the student's, which nbgrader's own
sanitising (DeduplicateIds, OverwriteCells with add_missing_cells, CheckCellMetadata) then accepts."""

import copy

import nbformat
import pytest
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.v4 import new_code_cell, new_markdown_cell
from nbgrader.nbgraderformat import MetadataValidator
from nbgrader.preprocessors import CheckCellMetadata, DeduplicateIds, OverwriteCells
from traitlets.config import Config

from grader.autograde.tampering import restore_labels, tampering
from grader.course import Course
from grader.course.review import changed

from ..conftest import EXERCISES
from ..course_builder import ASSIGNMENT, BASICS

ANSWER, TEST = "softmax_scores", "softmax_scores_test"


@pytest.fixture
def release():
    return nbformat.read(EXERCISES / BASICS, as_version=4)


def labelled(cell, grade_id, **flags):
    """``cell`` marked as nbgrader's toolbar would mark it."""
    cell.metadata["nbgrader"] = {
        "grade_id": grade_id,
        "grade": False,
        "solution": False,
        "locked": False,
        "task": False,
        "schema_version": 3,
        **flags,
    }
    return cell


def position(nb, grade_id):
    return next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def pasted(nb, grade_id, at, source=None):
    """A copy of cell ``grade_id`` pasted at ``at``, as JupyterLab pastes: a new cell id, the same labels."""
    cell = copy.deepcopy(nb.cells[position(nb, grade_id)])
    cell.id, cell.source = "pasted1", source or cell.source
    nb.cells.insert(at, cell)
    return cell


def prepared(nb, release):
    """(what changed, the notebook with the release's labels back)."""
    changes = tampering(nb, release)
    restore_labels(nb, release)
    return changes, nb


def labels(nb):
    return [c.metadata.get("nbgrader") for c in nb.cells]


def grade_ids(nb):
    """The grade_ids of the labelled cells, in order."""
    return [label["grade_id"] for label in labels(nb) if label]


def test_an_untouched_notebook_is_left_as_it_is(release):
    untouched = copy.deepcopy(release)
    assert prepared(untouched, release) == ([], release)


@pytest.mark.parametrize("where", ["below", "above", "at the end"])
def test_a_copied_answer_cell_is_reported_and_the_original_keeps_its_label_wherever_the_copy_is(release, where):
    nb = copy.deepcopy(release)
    original = nb.cells[position(nb, ANSWER)]
    at = {"below": position(nb, ANSWER) + 1, "above": position(nb, ANSWER), "at the end": len(nb.cells)}[where]
    copied = pasted(nb, ANSWER, at, "def softmax_scores(scores):\n    return scores\n")
    changes, nb = prepared(nb, release)
    assert changes == [{"grade_id": ANSWER, "change": "duplicated", "cell": "answer cell"}]
    assert original.metadata["nbgrader"] == release.cells[position(release, ANSWER)].metadata["nbgrader"]
    assert "nbgrader" not in copied.metadata and copied.source.endswith("return scores\n")  # a plain cell of theirs
    assert len(nb.cells) == len(release.cells) + 1


def test_a_copied_written_answer_pasted_above_does_not_take_the_originals_label(release):
    release.cells.append(
        labelled(new_markdown_cell("Why scale?\n\nYOUR ANSWER HERE"), "why", solution=True, grade=True, points=3)
    )
    nb = copy.deepcopy(release)
    original = nb.cells[-1]
    original.source = "Scaling keeps the softmax soft."
    copied = pasted(nb, "why", len(nb.cells) - 1, "A first try.")
    changes, nb = prepared(nb, release)
    assert changes == [{"grade_id": "why", "change": "duplicated", "cell": "written answer cell"}]
    assert original.metadata["nbgrader"]["grade_id"] == "why" and "nbgrader" not in copied.metadata


def test_without_cell_ids_the_first_copy_is_the_original(release):
    for cell in release.cells:
        del cell["id"]
    nb = copy.deepcopy(release)
    first = nb.cells[position(nb, ANSWER)]
    copied = pasted(nb, ANSWER, position(nb, ANSWER) + 1)
    del copied["id"]
    prepared(nb, release)
    assert first.metadata["nbgrader"]["grade_id"] == ANSWER and "nbgrader" not in copied.metadata


@pytest.mark.parametrize(
    "cell, kind",
    [
        (new_code_cell("print('bonus')"), "graded answer cell"),
        (new_markdown_cell("My own answer."), "written answer cell"),
        (new_code_cell("notes = 1"), "locked cell"),
        (new_code_cell("assert True"), "test cell"),
    ],
)
def test_a_cell_of_the_students_own_marked_for_grading_is_reported_and_left_plain(release, cell, kind):
    flags = {
        "graded answer cell": {"solution": True, "grade": True, "points": 10},
        "written answer cell": {"solution": True, "grade": True, "points": 2},
        "locked cell": {"locked": True},
        "test cell": {"grade": True, "locked": True, "points": 7},
    }[kind]
    nb = copy.deepcopy(release)
    nb.cells.insert(position(nb, TEST) + 1, labelled(cell, "mine", **flags))
    changes, nb = prepared(nb, release)
    assert changes == [{"grade_id": "mine", "change": "added", **({} if kind == "test cell" else {"cell": kind})}]
    assert "nbgrader" not in cell.metadata and cell in nb.cells
    assert (
        labels(nb)
        == labels(release)[: position(release, TEST) + 1] + [None] + labels(release)[position(release, TEST) + 1 :]
    )


@pytest.mark.parametrize("change", ["deleted", "edited", "duplicated", "relabelled"])
def test_a_changed_test_cell_is_reported_as_before(release, change):
    nb = copy.deepcopy(release)
    test = nb.cells[position(nb, TEST)]
    if change == "deleted":
        nb.cells.remove(test)
    elif change == "edited":
        test.source = "grade = 3.0"
    elif change == "duplicated":
        nb.cells.insert(position(nb, TEST), copy.deepcopy(test))
    else:
        test.metadata["nbgrader"]["grade"] = False
    changes, nb = prepared(nb, release)
    assert changes == [{"grade_id": TEST, "change": change}]
    assert grade_ids(nb) == [i for i in grade_ids(release) if change != "deleted" or i != TEST]


def test_what_was_changed_is_said_in_words():
    tampered = [
        {"grade_id": TEST, "change": "edited"},
        {"grade_id": ANSWER, "change": "duplicated", "cell": "answer cell"},
        {"grade_id": "mine", "change": "added", "cell": "locked cell"},
    ]
    assert changed(tampered[:1]) == ["a test cell was changed (graded on the instructor's copy), check it"]
    assert changed(tampered)[1].startswith(
        "the answer cell softmax_scores was duplicated, the locked cell mine was added (the instructor's cells graded"
    )


def test_a_released_answer_relabelled_as_graded_gets_the_release_label_back(release):
    nb = copy.deepcopy(release)
    nb.cells[position(nb, ANSWER)].metadata["nbgrader"].update(grade=True, points=100)
    changes, nb = prepared(nb, release)
    assert changes == [{"grade_id": ANSWER, "change": "relabelled", "cell": "answer cell"}]
    assert labels(nb) == labels(release)


def test_a_copied_test_cell_and_half_labels_are_taken_off(release):
    nb = copy.deepcopy(release)
    pasted(nb, TEST, position(nb, TEST))
    nb.cells[0].metadata["nbgrader"] = {}  # as nbgrader's DeduplicateIds leaves a copy
    nb.cells[1].metadata["nbgrader"] = {"solution": False, "grade": False, "locked": False}  # labelled, no grade_id
    changes, nb = prepared(nb, release)
    assert changes == [{"grade_id": TEST, "change": "duplicated"}]  # the empty labels mark nothing for grading
    assert sum(c.metadata.get("nbgrader", {}).get("grade_id") == TEST for c in nb.cells) == 1
    assert "nbgrader" not in nb.cells[0].metadata and "nbgrader" not in nb.cells[1].metadata


def submitted_class(release):
    """The four notebooks that stopped nbgrader: a copied answer, and a graded, a locked and a written-answer
    cell of the student's own."""
    copied = copy.deepcopy(release)
    pasted(copied, ANSWER, position(copied, ANSWER))
    added = []
    for cell, flags in [
        (new_code_cell("x = 1"), {"solution": True, "grade": True, "points": 10}),
        (new_code_cell("y = 2"), {"locked": True}),
        (new_markdown_cell("Mine."), {"solution": True, "grade": True, "points": 2}),
    ]:
        nb = copy.deepcopy(release)
        nb.cells.append(labelled(cell, "mine", **flags))
        added.append(nb)
    return [copied, *added]


def test_the_prepared_notebooks_are_valid_nbgrader_notebooks(release):
    for nb in submitted_class(release):
        restore_labels(nb, release)
        MetadataValidator().validate_nb(nb)


@pytest.mark.slow
def test_nbgraders_own_sanitising_accepts_the_prepared_notebooks(course_copy, release):
    """nbgrader's preprocessors, against a released course's gradebook, as its autograde runs them."""
    course = Course.at(course_copy)
    config = Config({"OverwriteCells": {"add_missing_cells": True}})
    resources = ResourcesDict(
        nbgrader={
            "notebook": BASICS.removesuffix(".ipynb"),
            "assignment": ASSIGNMENT,
            "student": "someone",
            "db_url": course.directory.db_url,
        }
    )
    for nb in submitted_class(release):
        restore_labels(nb, release)
        for preprocessor in (
            DeduplicateIds(config=config),
            OverwriteCells(config=config),
            CheckCellMetadata(config=config),
        ):
            nb, _ = preprocessor.preprocess(nb, resources)
        assert grade_ids(nb) == grade_ids(release)
