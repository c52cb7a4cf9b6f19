"""What run_autograder takes from an upload: regular files inside it, read once, as data.

A link (to the zip's solutions, to a system file, to another folder of the upload), a hard link, a pipe or a zip
bomb is refused with a sentence for the student, and the upload's other notebooks are still found.
"""

import json
import os
import zipfile

import pytest

from grader.boundary import uploads
from grader.gradescope.submission import find

RELEASED = {"01_basics.ipynb": {"a_test"}, "02_steps.ipynb": {"c_test"}}


def _notebook(path, *grade_ids):
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = [{"cell_type": "code", "metadata": {"nbgrader": {"grade_id": g}}, "source": ""} for g in grade_ids]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return path


@pytest.fixture
def solutions(tmp_path):
    """The instructor's notebooks, outside the upload (as the zip's solutions are on Gradescope)."""
    _notebook(tmp_path / "solutions" / "01_basics.ipynb", "a_test")
    _notebook(tmp_path / "solutions" / "02_steps.ipynb", "c_test")
    return tmp_path / "solutions"


@pytest.fixture
def upload(tmp_path):
    (tmp_path / "upload").mkdir()
    return tmp_path / "upload"


def _said(found, start):
    return [m for m in found.messages if m.startswith(start)]


def test_links_to_files_are_refused_and_the_other_notebook_found(solutions, upload):
    (upload / "01_basics.ipynb").symlink_to(solutions / "01_basics.ipynb")
    (upload / "passwd.ipynb").symlink_to("/etc/passwd")
    mine = _notebook(upload / "02_steps.ipynb", "c_test")
    found = find(upload, RELEASED)
    assert found.notebooks == {"02_steps.ipynb": mine.read_bytes()}
    assert _said(
        found,
        "01_basics.ipynb is a link to another file or folder, not a file you wrote: "
        "it was not graded. Upload the notebook itself.",
    )
    assert _said(found, "passwd.ipynb is a link")
    assert not _said(found, "No notebook 01_basics.ipynb")  # the link's sentence says it all


def test_a_linked_folder_is_not_entered(solutions, upload):
    mine = _notebook(upload / "mine" / "02_steps.ipynb", "c_test")
    (upload / "copy").symlink_to(upload / "mine")
    (upload / "linked").symlink_to(solutions)
    found = find(upload, RELEASED)
    assert found.notebooks == {"02_steps.ipynb": mine.read_bytes()}
    assert _said(found, "copy is a link") and _said(found, "linked is a link")
    assert _said(found, "No notebook 01_basics.ipynb was found")


def test_a_hard_link_is_refused(solutions, upload):
    os.link(solutions / "01_basics.ipynb", upload / "01_basics.ipynb")
    found = find(upload, RELEASED)
    assert found.notebooks == {}
    assert _said(
        found,
        "01_basics.ipynb is a second name for another file (a hard link), not a file you wrote: "
        "it was not graded. Upload the notebook itself.",
    )


def test_a_pipe_is_neither_opened_nor_waited_for(upload):
    os.mkfifo(upload / "01_basics.ipynb")
    found = find(upload, RELEASED)
    assert found.notebooks == {}
    assert _said(found, "01_basics.ipynb is not a regular file")


def test_the_bytes_found_are_the_bytes_graded(upload, solutions):
    mine = _notebook(upload / "01_basics.ipynb", "a_test")
    found = find(upload, RELEASED)
    written = mine.read_bytes()
    mine.unlink()
    mine.symlink_to(solutions / "01_basics.ipynb")  # swapped after it was read: too late
    assert found.notebooks["01_basics.ipynb"] == written


def test_notebooks_in_an_uploaded_zip_are_found(upload, solutions, tmp_path):
    notebook = _notebook(tmp_path / "made" / "01_basics.ipynb", "a_test").read_bytes()
    with zipfile.ZipFile(upload / "submission.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hw/01_basics.ipynb", notebook)
        link = zipfile.ZipInfo("02_steps.ipynb")
        link.external_attr = 0o120777 << 16
        archive.writestr(link, str(solutions / "02_steps.ipynb"))
        archive.writestr("../02_steps.ipynb", notebook)
    found = find(upload, RELEASED)
    assert found.notebooks == {"01_basics.ipynb": notebook}
    assert _said(found, "submission.zip/02_steps.ipynb is a link to another file or folder")
    assert _said(found, "submission.zip/../02_steps.ipynb has a path that leads out of its folder")


def test_a_zip_bomb_in_the_upload_is_refused(upload, solutions):
    real = (solutions / "02_steps.ipynb").read_bytes()
    with zipfile.ZipFile(upload / "submission.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("01_basics.ipynb", (solutions / "01_basics.ipynb").read_bytes() + b" " * (8 << 20))
        archive.writestr("02_steps.ipynb", real)
    found = find(upload, RELEASED)
    assert found.notebooks == {"02_steps.ipynb": real}
    assert _said(found, "submission.zip/01_basics.ipynb is compressed far more than a notebook can be")


def test_a_zip_that_unpacks_to_too_much_is_not_opened(upload, monkeypatch):
    monkeypatch.setattr(uploads, "MAX_TOTAL_BYTES", 1 << 20)
    with zipfile.ZipFile(upload / "submission.zip", "w", zipfile.ZIP_STORED) as archive:
        for n in range(3):
            archive.writestr(f"part{n}/01_basics.ipynb", b"{}" + bytes(400_000))
    found = find(upload, RELEASED)
    assert found.notebooks == {}
    assert found.messages[0] == f"submission.zip {uploads.TOLD[uploads.TOO_MUCH]}"


def test_a_broken_zip_and_folders_too_deep_are_named(upload):
    (upload / "submission.zip").write_bytes(b"PK\x03\x04 not really a zip")
    deep = upload.joinpath(*["d"] * (uploads.MAX_DEPTH + 1))
    _notebook(deep / "01_basics.ipynb", "a_test")
    found = find(upload, RELEASED)
    assert found.notebooks == {}
    assert f"submission.zip {uploads.TOLD[uploads.NOT_A_ZIP]}" in found.messages
    assert f"{'d/' * uploads.MAX_DEPTH}d {uploads.TOLD[uploads.TOO_DEEP]}" in found.messages
