"""nbgrader's Validate button (``nbgrader validate``) gives the same verdict as the kit's self-check, test cell by
test cell: a correct notebook passes, a wrong answer and an untouched exercise fail. Every notebook correct, and
"unfinished": the answer that ``WRONG`` has for it given after the reference answers of the exercises before it,
the exercises after it left as released; a notebook with no exercise after that answer, untouched and wrong apart.
Each variant validated costs a Jupyter kernel that imports PyTorch: "unfinished" shows in one what the untouched
and the wrong notebook showed in two."""

import re
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

REPORTED = ("01_attention_basics.ipynb", "unfinished")  # the variant whose report Validate shows, checked below
WRONG = {  # one answer per notebook that a visible check catches
    "01_attention_basics.ipynb": {
        "softmax_scores": "def softmax_scores(scores):\n    return torch.softmax(scores, dim=0)"
    },
    "02_self_attention_step_by_step.ipynb": {
        "sum_weighted_values": "def sum_weighted_values(weighted):\n    return weighted.sum(dim=-1)"
    },
    "03_attention_in_numpy.ipynb": {"softmax": "def softmax(x, axis=-1):\n    return np.exp(x)"},
    "04_causal_self_attention.ipynb": {"causal_mask": "def causal_mask(scores):\n    return scores.clone()"},
    "05_multi_head_attention.ipynb": {
        "MultiHeadAttention": (
            "class MultiHeadAttention(nn.Module):\n"
            "    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):\n"
            "        super().__init__()\n        self.proj = nn.Linear(embed_dim, embed_dim)\n\n"
            "    def forward(self, x, key_padding_mask=None):\n        return self.proj(x)"
        )
    },
}


def graded_cells(nb):
    """{source of a test cell: its exercise}, in notebook order."""
    return {
        cell.source.strip(): cell.metadata.nbgrader["grade_id"].removesuffix("_test")
        for cell in nb.cells
        if cell.metadata.get("nbgrader", {}).get("grade")
    }


def exercises(notebook):
    return list(graded_cells(nbformat.read(EXERCISES / notebook, as_version=4)).values())


def kinds(notebook):
    """The variants of ``notebook`` that are validated."""
    (wrong,) = WRONG[notebook]
    return ("correct", "unfinished") if exercises(notebook)[-1] != wrong else ("correct", "stub", "wrong")


def failing(notebook, kind):
    """The exercises whose test cell fails in this variant: none, all, the wrong one, or the wrong one onwards."""
    names, (wrong,) = exercises(notebook), WRONG[notebook]
    return {"correct": set(), "stub": set(names), "wrong": {wrong}, "unfinished": set(names[names.index(wrong) :])}[
        kind
    ]


def variant(notebook, kind):
    release = nbformat.read(EXERCISES / notebook, as_version=4)
    if kind == "stub":
        return release
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    if kind == "unfinished":
        order = list(answers)  # the solution cells, in notebook order
        answers = {name: answers[name] for name in order[: order.index(next(iter(WRONG[notebook])))]}
    return fill(release, {**answers, **(WRONG[notebook] if kind in ("wrong", "unfinished") else {})})


def wanted(items):
    """The (notebook, kind) variants that this run's tests of this module look at (``make test`` leaves notebooks 02
    to 05 to ``make test-all``): each test's own, and notebook 01's unfinished one for the report's test."""
    return {
        (item.callspec.params["notebook"], item.callspec.params["kind"]) if hasattr(item, "callspec") else REPORTED
        for item in items
        if item.module is sys.modules[__name__]
    }


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory, kernels, request):
    """{(notebook, kind): (the exercises validate failed, those the self-check failed, what validate says of each
    failed cell)} of the :func:`wanted` variants; the self-check is one pytest run over a folder per kind (one start
    of pytest and PyTorch)."""
    root = tmp_path_factory.mktemp("verdicts")
    chosen, variants = {}, wanted(request.session.items)
    for notebook in notebooks():
        for kind in kinds(notebook):
            if (notebook, kind) not in variants:
                continue
            (root / kind).mkdir(exist_ok=True)
            nbformat.write(variant(notebook, kind), root / kind / notebook)
            chosen.setdefault(kind, []).append(notebook)
    checked = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "grader.selfcheck.plugin", *chosen],
        cwd=root,
        capture_output=True,
        text=True,
    )
    found = {}
    for kind, names in chosen.items():
        for notebook in names:
            said = dict(re.findall(rf"^{kind}/{re.escape(notebook)}::(\w+) (PASSED|FAILED)", checked.stdout, re.M))
            assert said.keys() == set(exercises(notebook)), checked.stdout[-3000:]  # its exercises were run
            path = root / kind / notebook
            validated = Validator(config=kernels).validate(str(path))
            assert not (validated.get("changed") or validated.get("type_changed")), validated
            cells = graded_cells(nbformat.read(path, as_version=4))
            failed = validated.get("failed", [])
            found[notebook, kind] = (
                {cells[cell["source"]] for cell in failed},
                {name for name, outcome in said.items() if outcome == "FAILED"},
                {cells[cell["source"]]: cell["raw_error"] for cell in failed},
            )
    return found


@pytest.mark.parametrize("notebook,kind", [(notebook, kind) for notebook in notebooks() for kind in kinds(notebook)])
def test_validate_agrees_with_the_self_check(verdicts, notebook, kind):
    assert verdicts[notebook, kind][:2] == (failing(notebook, kind),) * 2


def test_validate_shows_the_checks_report_for_a_failed_cell(verdicts):
    """What Validate shows of the wrong answer's cell: the failed check, what was expected, what came back and the
    likely mistake, not only "see the checks above" (it shows no standard output)."""
    said = " ".join(verdicts[REPORTED][2]["softmax_scores"].split())
    assert "FAIL" in said and "expected:" in said and "got:" in said
    assert MISCONCEPTIONS["softmax_dim0"].explanation in said
