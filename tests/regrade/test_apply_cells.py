"""Applying a regrade of one exercise (``--exercise``): only its cells of the autograded notebook and its entries of
the grading record are replaced; the rest of the live notebook and record stay as they were."""

import shutil

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

from grader import records
from grader.course import Course
from grader.regrade.apply import copy_results
from grader.regrade.note import NOTE

from ..conftest import ROOT

NOTEBOOK = "01_attention_basics.ipynb"


def graded(folder, said, score):
    """A course whose student alice has notebook 01 graded: two test cells that print ``said``, both scored."""
    folder.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", folder)
    course = Course.at(folder)
    cells = [
        new_code_cell(
            f"# {name}",
            metadata={"nbgrader": {"grade_id": f"{name}_test", "grade": True}},
            outputs=[new_output("stream", name="stdout", text=f"{said} {name}")],
        )
        for name in ("softmax_scores", "context_vector")
    ]
    course.autograded("alice").mkdir(parents=True)
    nbformat.write(new_notebook(cells=cells), course.autograded("alice") / NOTEBOOK)
    records.write(
        course,
        records.NotebookRecord(
            "alice",
            "self_attention",
            NOTEBOOK,
            exercises=[records.ExerciseRecord(name, score, 4.0) for name in ("softmax_scores", "context_vector")],
        ),
    )
    return course


def test_one_exercise_is_merged_into_the_live_notebook_and_record(tmp_path):
    live, scratch = graded(tmp_path / "live", "old", 0.0), graded(tmp_path / "scratch", "new", 4.0)
    note = nbformat.v4.new_markdown_cell("changed", metadata={NOTE: True})
    copy_results(live, scratch, "alice", NOTEBOOK, {"softmax_scores_test"}, note)
    nb = nbformat.read(live.autograded("alice") / NOTEBOOK, as_version=4)
    assert [c.source for c in nb.cells] == ["changed", "# softmax_scores", "# context_vector"]
    assert [c.outputs[0].text for c in nb.cells[1:]] == ["new softmax_scores", "old context_vector"]
    record = records.read(records.record_path(live, "alice", NOTEBOOK))
    assert [(e.name, e.score) for e in record.exercises] == [("softmax_scores", 4.0), ("context_vector", 0.0)]
