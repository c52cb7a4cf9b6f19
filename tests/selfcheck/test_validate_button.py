"""The Validate button, pressed where students press it: a real Jupyter server (Notebook 7, nbgrader's validate
extension, the kernel this environment's Python with the kit), notebook 01 opened in headless Chromium
(tests/pages_js/validate.mjs). On a wrong answer its dialog shows the checks' report: the failing exercise, what
was expected, what came back and the likely mistake; on a correct notebook it says the notebook passed."""

import json
import subprocess

import nbformat
import pytest

from grader.checks.misconceptions import MISCONCEPTIONS

from ..jupyter_server import jupyter_server
from .test_validate import variant

pytestmark = pytest.mark.slow

NOTEBOOK = "01_attention_basics.ipynb"  # its WRONG answer: softmax_scores' softmax over the columns (dim=0)
SCRIPT = "tests/pages_js/validate.mjs"


@pytest.fixture(scope="module")
def dialogs(root, tmp_path_factory):
    """{kind: (what the dialog said, its screenshot)} for a wrong and a correct notebook 01, each in its folder of
    one server's root, as a student's home holds them."""
    home = tmp_path_factory.mktemp("student")
    for kind in ("wrong", "correct"):
        (home / kind).mkdir()
        nbformat.write(variant(NOTEBOOK, kind), home / kind / NOTEBOOK)
    said = {}
    with jupyter_server(home) as server:
        for kind in ("wrong", "correct"):
            shot = home / f"{kind}.png"
            pressed = subprocess.run(
                ["node", SCRIPT, server.link(f"notebooks/{kind}/{NOTEBOOK}"), str(shot)],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=400,
            )
            assert pressed.returncode == 0, pressed.stderr[-3000:]
            said[kind] = json.loads(pressed.stdout), shot
    return said


def flat(text):
    return " ".join(text.split())


def test_the_dialog_shows_the_failing_exercise_with_its_report(dialogs):
    said, _ = dialogs["wrong"]
    assert said["title"] == "Validation Results"
    [cell] = said["failed_cells"]  # the one wrong answer, and no other cell
    assert 'check("softmax_scores", softmax_scores)' in cell["source"]
    error = flat(cell["error"])
    assert error.startswith("softmax_scores: visible checks 0/1 passed")
    assert "FAIL" in error and "expected: row sums of 1" in error and "got: row sums [" in error
    assert f"Likely mistake: {flat(MISCONCEPTIONS['softmax_dim0'].explanation)}" in error
    # the closing line's "above" is the report, just above it in the same box
    assert error.index("Likely mistake") < error.index("softmax_scores: no points yet; see the checks above.")


def test_the_dialog_says_a_correct_notebook_passes(dialogs):
    said, _ = dialogs["correct"]
    assert (said["title"], said["failed_cells"]) == ("Validation Results", [])
    assert flat(said["text"]) == "Success! Your notebook passes all the tests."


def test_each_dialog_is_on_a_screenshot(dialogs):
    for kind in ("wrong", "correct"):
        assert dialogs[kind][1].read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
