"""A new worker's folder: the folders of killed graders are removed first, even when another grader removes
them at the same moment (two grading processes start side by side after a killed run)."""

import os
import pathlib
import tempfile

from grader.sandbox import levels, pool


def test_a_stale_folder_that_another_grader_removes_first_is_no_error(monkeypatch):
    stale = pathlib.Path(tempfile.mkdtemp(prefix=f"{pool.WORKER_FOLDER}999999999-"))

    def removed_by_another_grader(path):
        os.rmdir(path)
        raise FileNotFoundError(2, "No such file or directory", str(path / ".ipython"))

    monkeypatch.setattr(levels, "remove_tree", removed_by_another_grader)
    folder = pool.worker_folder()
    try:
        assert pathlib.Path(folder).is_dir() and not stale.exists()
    finally:
        os.rmdir(folder)
