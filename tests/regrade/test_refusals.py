"""``regrade`` refuses, in one line and before it writes anything, a course with nothing graded and an undo with
nothing applied."""

import shutil

import pytest

from grader.cli import main

from ..conftest import ROOT


def refusal(argv):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    message = stopped.value.code
    assert isinstance(message, str) and "\n" not in message and message.startswith("python -m grader regrade: ")
    return message


def test_nothing_graded_is_refused_and_nothing_written(tmp_path):
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    assert "nothing of self_attention is graded yet" in refusal(["regrade", "--course", str(tmp_path)])
    assert "nothing of self_attention is graded yet" in refusal(["regrade", "--undo", "--course", str(tmp_path)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nbgrader_config.py"]
