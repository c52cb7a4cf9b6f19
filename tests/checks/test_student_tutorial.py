"""The students' tutorial (docs/students/tutorial.md) shows what the checks print: each of its answers, run through
the test cell's ``check``, prints the text the page shows under it, word for word."""

import contextlib
import io
import pathlib
import re

import pytest
import torch

from grader.checks import check
from grader.checks.grade import CheckFailed

TUTORIAL = pathlib.Path(__file__).resolve().parents[2] / "docs" / "students" / "tutorial.md"
BLOCK = re.compile(r"^```(?P<info>\w*)\n(?P<body>.*?)^```", re.M | re.S)


def answers_and_outputs():
    """[(answer's code, the text block that follows it)]: every Python block of the tutorial that defines
    ``softmax_scores`` and is followed by a text block before the next Python block."""
    found, answer = [], None
    for block in BLOCK.finditer(TUTORIAL.read_text(encoding="utf-8")):
        if block["info"] == "python":
            answer = block["body"]
        elif block["info"] == "text" and answer is not None:
            found.append((answer, block["body"]))
            answer = None
    return found


def printed(answer):
    """What the test cell prints for ``answer`` (to standard error when a check failed)."""
    namespace = {"torch": torch}
    exec(answer, namespace)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.suppress(CheckFailed):
        check("softmax_scores", namespace["softmax_scores"]).result()
    return out.getvalue() + err.getvalue()


def test_the_tutorial_shows_an_answer_and_its_output_twice():
    assert len(answers_and_outputs()) == 2  # the stub, then the softmax over the first dimension


@pytest.mark.parametrize("answer, shown", answers_and_outputs())
def test_the_tutorial_shows_what_the_check_prints(answer, shown):
    assert shown.rstrip("\n") in printed(answer)
