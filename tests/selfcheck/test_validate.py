"""nbgrader's Validate button (``nbgrader validate``) gives the same verdict as the kit's self-check:
a correct notebook passes, an untouched one and a wrong one fail. Every notebook correct and untouched, and
wrong where ``WRONG`` has an answer for it."""
import subprocess
import sys

import nbformat
import pytest
from nbgrader.validator import Validator

from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import notebooks
from grader.demo.fill import fill, reference_answers

from ..conftest import EXERCISES, SOLUTIONS

pytestmark = pytest.mark.slow

WRONG = {  # one answer per notebook that a visible check catches
    "01_attention_basics.ipynb": {"softmax_scores": "def softmax_scores(scores):\n    return torch.softmax(scores, dim=0)"},
    "02_self_attention_step_by_step.ipynb": {
        "sum_weighted_values": "def sum_weighted_values(weighted):\n    return weighted.sum(dim=-1)"},
    "03_attention_in_numpy.ipynb": {"softmax": "def softmax(x, axis=-1):\n    return np.exp(x)"},
    "04_causal_self_attention.ipynb": {"causal_mask": "def causal_mask(scores):\n    return scores.clone()"},
    "05_multi_head_attention.ipynb": {"MultiHeadAttention": (
        "class MultiHeadAttention(nn.Module):\n"
        "    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):\n"
        "        super().__init__()\n        self.proj = nn.Linear(embed_dim, embed_dim)\n\n"
        "    def forward(self, x, key_padding_mask=None):\n        return self.proj(x)")},
}


def variant(notebook, kind):
    release = nbformat.read(EXERCISES / notebook, as_version=4)
    if kind == "stub":
        return release
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    return fill(release, {**answers, **(WRONG[notebook] if kind == "wrong" else {})})


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    """{(notebook, kind): (validate passed, self-check passed, what validate says of each failed cell)}; the
    self-check is one pytest run over a folder per kind (one start of pytest and PyTorch, not three)."""
    root = tmp_path_factory.mktemp("verdicts")
    chosen = {kind: [notebook for notebook in notebooks() if kind != "wrong" or notebook in WRONG]
              for kind in ("correct", "stub", "wrong")}
    for kind, names in chosen.items():
        (root / kind).mkdir()
        for notebook in names:
            nbformat.write(variant(notebook, kind), root / kind / notebook)
    checked = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p",
                              "grader.selfcheck.plugin", *chosen], cwd=root, capture_output=True, text=True)
    found = {}
    for kind, names in chosen.items():
        for notebook in names:
            assert f"{kind}/{notebook}::" in checked.stdout, checked.stdout[-3000:]  # its exercises were run
            validated = Validator().validate(str(root / kind / notebook))
            passed = not (validated.get("failed") or validated.get("changed") or validated.get("type_changed"))
            found[notebook, kind] = (passed, f"FAILED {kind}/{notebook}::" not in checked.stdout,
                                     [cell["raw_error"] for cell in validated.get("failed", [])])
    return found


@pytest.mark.parametrize("notebook,kind,expected", [
    (notebook, kind, expected) for kind, expected in [("correct", True), ("stub", False), ("wrong", False)]
    for notebook in notebooks() if kind != "wrong" or notebook in WRONG])
def test_validate_agrees_with_the_self_check(verdicts, notebook, kind, expected):
    assert verdicts[notebook, kind][:2] == (expected, expected)


def test_validate_shows_the_checks_report_for_a_failed_cell(verdicts):
    """What Validate shows of the wrong answer's cell: the failed check, what was expected, what came back and the
    likely mistake, not only "see the checks above" (it shows no standard output)."""
    said = " ".join(verdicts["01_attention_basics.ipynb", "wrong"][2][0].split())
    assert "FAIL" in said and "expected:" in said and "got:" in said
    assert MISCONCEPTIONS["softmax_dim0"].explanation in said
