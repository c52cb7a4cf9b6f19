"""The Gradescope autograder's small parts, without grading: finding the uploaded notebooks, the writers."""

import json

import nbformat
import pytest

from grader.gradescope import run
from grader.gradescope.build import gradescope as build_zip
from grader.gradescope.graded_cells import Entry
from grader.gradescope.prairielearn import prairielearn
from grader.gradescope.results import gradescope
from grader.gradescope.submission import find

from ..course_builder import ASSIGNMENT, BASICS, make_course

pytestmark = pytest.mark.slow

RELEASED = {"01_basics.ipynb": {"a_test", "b_test"}, "02_steps.ipynb": {"c_test"}}


def _notebook(path, *grade_ids):
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = [{"cell_type": "code", "metadata": {"nbgrader": {"grade_id": g}}, "source": ""} for g in grade_ids]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def test_notebooks_are_found_in_any_folder_by_name(tmp_path):
    first = _notebook(tmp_path / "hw" / "deep" / "01_basics.ipynb", "a_test")
    _notebook(tmp_path / "hw" / ".ipynb_checkpoints" / "02_steps.ipynb", "c_test")
    found = find(tmp_path, RELEASED)
    assert found.notebooks == {"01_basics.ipynb": first.read_bytes()}
    assert found.messages == [
        "No notebook 02_steps.ipynb was found in your submission: its exercises score 0. Upload it with that name."
    ]


def test_a_renamed_notebook_is_graded_by_its_test_cells_and_the_student_told(tmp_path):
    renamed = _notebook(tmp_path / "02_steps (1).ipynb", "c_test")
    _notebook(tmp_path / "notes.ipynb", "other")
    (tmp_path / "broken.ipynb").write_text("{not json")
    found = find(tmp_path, RELEASED)
    assert found.notebooks == {"02_steps.ipynb": renamed.read_bytes()}
    assert "Graded 02_steps (1).ipynb as 02_steps.ipynb (it holds that notebook's exercises)." in found.messages[0]
    assert any(m.startswith("notes.ipynb is not one of this assignment's notebooks") for m in found.messages)
    assert any(m.startswith("broken.ipynb is not one of") for m in found.messages)
    assert any(m.startswith("No notebook 01_basics.ipynb") for m in found.messages)


def test_a_second_copy_is_not_graded_twice(tmp_path):
    top = _notebook(tmp_path / "01_basics.ipynb", "a_test")
    _notebook(tmp_path / "old" / "01_basics.ipynb", "a_test", "an_older_cell")
    found = find(tmp_path, RELEASED)
    assert found.notebooks["01_basics.ipynb"] == top.read_bytes()
    assert any("old/01_basics.ipynb is not one of" in m for m in found.messages)


TESTS = [
    Entry("a (01.ipynb)", "1.1", 2.0, 4.0, "hidden words", True, "visible words", False),
    Entry("t (01.ipynb)", "1.2", 1.0, 1.0, "output", False),
    Entry("essay (01.ipynb)", "1.3", None, 3.0, "", False),
]


def test_gradescope_results_hide_hidden_checks_until_published():
    results = gradescope(TESTS, ["<p>note</p>"], 12.4, {"notebooks": {}})
    assert results["score"] == 3.0 and results["execution_time"] == 12
    first, visible, plain, manual = results["tests"]
    assert (first["score"], first["max_score"], first["visibility"]) == (2.0, 4.0, "after_published")
    assert (visible["status"], visible["output"], visible["visibility"]) == ("failed", "visible words", "visible")
    assert "score" not in visible and plain["visibility"] == "visible"
    assert "score" not in manual and manual["status"] == "failed"


def test_prairielearn_results_score_from_0_to_1_and_show_visible_words_only():
    results = prairielearn(TESTS, ["<p>a &amp; b</p>"], 3.0, {})
    assert results["gradable"] is True and results["score"] == 3.0 / 5.0
    assert results["message"] == "a & b"
    assert results["tests"][0] == {
        "name": "a (01.ipynb)",
        "points": 2.0,
        "max_points": 4.0,
        "message": "",
        "output": "visible words",
    }
    assert "hidden words" not in json.dumps(results)


def test_prairielearn_results_stay_under_a_megabyte():
    many = [Entry(f"c{n}", f"1.{n}", 1.0, 1.0, "\u00e9" * 100_000, False) for n in range(200)]
    results = prairielearn(many, ["y" * 100_000], 1.0, {})
    assert len(json.dumps(results, indent=1)) < 1 << 20 and results["tests"][0]["output"].startswith("\u00e9")


def test_a_submission_that_cannot_be_graded_gets_a_plain_message_and_instructors_the_error(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("AUTOGRADER_ROOT", str(tmp_path))  # no zip unpacked there: grading cannot start
    run.main([])
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    assert results["tests"] == [] and results["score"] == 0.0
    assert "could not be graded automatically" in results["output"] and "Traceback" not in results["output"]
    assert results["extra_data"]["status"] == "error" and results["extra_data"]["reason"]
    assert "Traceback" in capsys.readouterr().out


def test_the_zip_is_refused_when_the_release_is_older_than_the_solutions(released_course, tmp_path):
    course = make_course(released_course, tmp_path / "course")
    path = course / "solutions" / ASSIGNMENT / BASICS
    nb = nbformat.read(path, as_version=4)
    next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("points"))["metadata"]["nbgrader"]["points"] = 9
    nbformat.write(nb, path)
    with pytest.raises(RuntimeError, match="python -m grader release"):
        build_zip(course=course, out=tmp_path / "autograder.zip")
    assert not (tmp_path / "autograder.zip").exists()
