"""What the notebooks teach: facts a student can check, and words a student can follow."""

import re

import nbformat
import pytest

from grader.checks.registry import notebooks

from ..conftest import SOLUTIONS


def narrative(nb):
    """The markdown and the given code: what a student reads, without the answers and the checks."""
    return [
        cell.source
        for cell in nb.cells
        if not cell.metadata.get("nbgrader", {}).get("grade") and not cell.metadata.get("nbgrader", {}).get("solution")
    ]


@pytest.fixture(scope="module", params=notebooks())
def notebook(request):
    return request.param, nbformat.read(SOLUTIONS / request.param, as_version=4)


def test_titles_are_numbered_alike(notebook):
    name, nb = notebook
    assert nb.cells[0].source.startswith(f"# {name[:2]} · ")


def test_no_mention_of_a_source_students_never_saw(notebook):
    _, nb = notebook
    assert not [text for text in narrative(nb) if re.search(r"\bthe source\b|\bsource notebook", text)]


def test_softmax_without_dim_is_taught_as_pytorch_behaves():
    nb = nbformat.read(SOLUTIONS / "02_self_attention_step_by_step.ipynb", as_version=4)
    text = "\n".join(narrative(nb))
    assert "`torch.softmax(scores)` without `dim` does not run at all: it raises a `TypeError`" in text
    assert "happens to pick dimension 1" not in text


def test_elementwise_product_is_described_with_its_real_shape():
    nb = nbformat.read(SOLUTIONS / "01_attention_basics.ipynb", as_version=4)
    assert "is a `(d, n)` matrix of products" not in "\n".join(narrative(nb))


def test_step_list_matches_the_headings():
    nb = nbformat.read(SOLUTIONS / "02_self_attention_step_by_step.ipynb", as_version=4)
    text = "\n".join(narrative(nb))
    listed = dict(re.findall(r"^(\d)\. (.+)$", nb.cells[0].source, re.M))
    for number, heading in re.findall(r"^## Step (\d): (.+)$", text, re.M):
        assert " ".join(heading.split()[-2:]) in listed[number], (number, heading, listed[number])


def test_buffers_are_allowed_in_the_modules_text():
    for notebook in ("04_causal_self_attention.ipynb", "05_multi_head_attention.ipynb"):
        text = "\n".join(narrative(nbformat.read(SOLUTIONS / notebook, as_version=4)))
        assert "Store no other parameters or buffers" not in text
        assert "Buffers" in text
