"""``collect``: submissions land in nbgrader's submitted/ folder; every other file is reported, with why."""
import json
import shutil
import zipfile

import pytest

from grader.api import collect
from grader.cli import main

from .conftest import ROOT, SOLUTIONS

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"


@pytest.fixture
def course(tmp_path):
    """A course whose release folder holds the assignment's notebooks (collect only reads their names)."""
    course = tmp_path / "course"
    shutil.copytree(SOLUTIONS, course / "exercises" / "self_attention")
    shutil.copy(ROOT / "nbgrader_config.py", course)
    return course


def notebook(tag):
    return json.dumps({"cells": [], "metadata": {"tag": tag}, "nbformat": 4, "nbformat_minor": 5})


def submitted(course, student, name):
    return course / "submitted" / student / "self_attention" / name


def test_lms_zip_keeps_each_students_latest_attempt_and_reports_the_rest(course, tmp_path):
    export = tmp_path / "gradebook_self_attention_2025-03-03.zip"
    with zipfile.ZipFile(export, "w") as archive:
        for name, text in {
            f"self_attention_jdoe42_attempt_2025-03-02-17-45-10_{BASICS}": notebook("jdoe42 first"),
            f"self_attention_jdoe42_attempt_2025-03-03-09-00-00_{BASICS}": notebook("jdoe42 second"),
            "self_attention_jdoe42_attempt_2025-03-03-09-00-00.txt": "Name: J Doe\nSubmission field:\n",
            f"self_attention_asmith_attempt_2025-03-01-12-00-00_{STEPS}": notebook("asmith"),
            "self_attention_asmith_attempt_2025-03-01-12-00-00_my_notes.ipynb": notebook("notes"),
            f"late/{BASICS}": notebook("no student"),
        }.items():
            archive.writestr(name, text)
    report = collect(export, course, "self_attention")

    assert json.loads(submitted(course, "jdoe42", BASICS).read_text())["metadata"]["tag"] == "jdoe42 second"
    assert json.loads(submitted(course, "asmith", STEPS).read_text())["metadata"]["tag"] == "asmith"
    assert (course / "submitted" / "jdoe42" / "self_attention" / "timestamp.txt").read_text().startswith(
        "2025-03-03 09:00:00")
    assert sorted((i.student, i.notebook) for i in report.imported) == [("asmith", STEPS), ("jdoe42", BASICS)]
    reasons = {s.source.rsplit("/", 1)[-1]: s.reason for s in report.skipped}
    assert reasons == {
        f"self_attention_jdoe42_attempt_2025-03-02-17-45-10_{BASICS}":
            "superseded: nbgrader kept the attempt of 2025-03-03-09-00-00",
        "self_attention_jdoe42_attempt_2025-03-03-09-00-00.txt": "not a notebook",
        "self_attention_asmith_attempt_2025-03-01-12-00-00_my_notes.ipynb": "unknown notebook my_notes.ipynb",
        BASICS: "name is not <assignment>_<student>_attempt_<time>_<notebook>.ipynb",
    }
    assert not (course / "submitted" / "asmith" / "self_attention" / "my_notes.ipynb").exists()


def test_folder_of_students_is_copied_and_strays_reported(course, tmp_path, capsys):
    source = tmp_path / "handins"
    for path, text in {f"alice/{BASICS}": notebook("alice"), f"alice/{STEPS}": "not json at all",
                       "alice/notes.txt": "hi", f"bob/extra/{BASICS}": notebook("nested"),
                       "README.md": "export", "carol/99_other.ipynb": notebook("carol")}.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_text(text)
    main(["collect", str(source), "--course", str(course)])

    assert json.loads(submitted(course, "alice", BASICS).read_text())["metadata"]["tag"] == "alice"
    assert submitted(course, "alice", STEPS).read_text() == "not json at all"  # autograde reports it invalid
    assert not (course / "submitted" / "bob").exists() and not (course / "submitted" / "carol").exists()
    printed = capsys.readouterr().out
    assert "imported 2 notebook(s) from 1 student(s)" in printed
    assert "alice/notes.txt: not a notebook" in printed
    assert f"bob/extra/{BASICS}: not laid out as <student>/<notebook>.ipynb" in printed
    assert "README.md: not laid out as <student>/<notebook>.ipynb" in printed
    assert "carol/99_other.ipynb: unknown notebook" in printed


def test_neither_folder_nor_zip_is_refused(course, tmp_path):
    (tmp_path / "grades.csv").write_text("a,b\n")
    with pytest.raises(ValueError, match="neither a folder nor a zip"):
        collect(tmp_path / "grades.csv", course)
