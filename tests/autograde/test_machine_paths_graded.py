"""No folder of the grading machine on anything a student gets back, graded where paths show most: the kit's
checkout, its virtual environment inside, under the sandbox's HOME (so IPython writes its paths with ``~``), in a
folder whose name has spaces. A student's ``Head`` swaps ``nn.Linear``'s sizes, so the notebook's own cells and
two plain test cells of the instructor's (one judged outside the student's process, one that runs inside it with
``%time``) raise inside PyTorch: the autograded notebook, the feedback page and Gradescope's results.json name
PyTorch's files from the package on (``torch/nn/modules/module.py``), and keep the student's own frames."""

import json
import os
import pathlib
import re
import shutil
import tempfile

import nbformat
import pytest

from ..conftest import ROOT
from ..course_builder import ASSIGNMENT, new_test_course, submission
from ..gradescope.container import run_autograder
from ..kit_copy import copy_kit, copy_venv, run

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

CAUSAL = "04_causal_self_attention.ipynb"
SWAPPED_SIZES = '''class Head(nn.Module):
    """One head of causal self-attention, its layers' sizes swapped."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(head_size, embed_dim, bias=False)
        self.query = nn.Linear(head_size, embed_dim, bias=False)
        self.value = nn.Linear(head_size, embed_dim, bias=False)

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        return F.softmax(causal_mask(q @ k.transpose(-2, -1)), dim=-1) @ v
'''
PLAIN_TESTS = {  # grade_id: an instructor's own test cell, after the kit's test cell of Head
    "head_shape_test": "assert Head(embed_dim=2, head_size=3)(x, x, x).shape == (4, 8, 3)",
    "head_timed_test": "%time out = Head(embed_dim=2, head_size=3)(x, x, x)\nassert out.shape == (4, 8, 3)",
}
LIBRARY_FILE = re.compile(r"File torch/nn/modules/module\.py:\d+|File \"torch/nn/modules/module\.py\", line \d+")


def with_plain_tests(kit):
    """Notebook 04 of the kit's solutions with ``PLAIN_TESTS`` after Head's test cell."""
    path = kit / "solutions" / ASSIGNMENT / CAUSAL
    nb = nbformat.read(path, as_version=4)
    at = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "Head_test")
    for offset, (grade_id, source) in enumerate(PLAIN_TESTS.items(), 1):
        meta = {"grade": True, "grade_id": grade_id, "locked": True, "points": 1, "schema_version": 3}
        nb.cells.insert(
            at + offset, nbformat.v4.new_code_cell(source, metadata={"nbgrader": {**meta, "solution": False}})
        )
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """{"autograded": the notebook, "feedback": the page, "gradescope": results.json}, each as text, and the
    folders of the grading machine (``folders``). The kit's checkout is under the temporary folder, the sandbox's
    HOME at the namespace levels; the Gradescope root is under /srv, as in tests/gradescope."""
    kit = new_test_course(tmp_path_factory.mktemp("home") / "a checkout with spaces")
    copy_kit(kit, "grader", "requirements.txt", "pyproject.toml")  # what the Gradescope zip takes
    python = copy_venv(kit / ".venv") / "bin" / "python"
    with_plain_tests(kit)
    run(kit, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force", "--log-level=ERROR", python=python)
    notebook = submission(kit, {"Head": SWAPPED_SIZES}, notebook=CAUSAL)
    folder = kit / "submitted" / "alice" / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(notebook, folder / CAUSAL)
    run(kit, "-m", "grader", "autograde", "--course", str(kit), "--workers", "1", python=python)
    run(kit, "-m", "grader", "feedback", "--course", str(kit), python=python)
    run(kit, "-m", "grader", "gradescope", "--course", str(kit), "--out", str(kit / "autograder.zip"), python=python)
    root = pathlib.Path(tempfile.mkdtemp(prefix="gradescope-tests-", dir="/srv"))
    try:
        results, _ = run_autograder(kit / "autograder.zip", root / "run", {CAUSAL: nbformat.writes(notebook)}, python)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {
        "autograded": (kit / "autograded" / "alice" / ASSIGNMENT / CAUSAL).read_text(),
        "feedback": (kit / "feedback" / "alice" / ASSIGNMENT / CAUSAL.replace(".ipynb", ".html")).read_text(),
        "gradescope": json.dumps(results, indent=1),
        "folders": [
            "site-packages",
            "dist-packages",
            ".venv",
            kit.name,  # the checkout, however its path is written
            str(tmp_path_factory.getbasetemp()),
            "pytest-of-",
            str(root),
            str(ROOT),  # the checkout this environment's editable install names
            os.path.join(os.path.expanduser("~"), ""),
            "/tmp/",
            "~/",
            "attention-kit-worker-",
            "attention-kit-sandbox-",
        ],
    }


@pytest.mark.parametrize("given", ["autograded", "feedback", "gradescope"])
def test_no_folder_of_the_grading_machine_reaches_the_student(graded, given):
    text = graded[given]
    named = [folder for folder in graded["folders"] if folder in text]
    at = text.find(named[0]) if named else 0
    assert not named, f"{given} names {named}: ...{text[max(0, at - 300) : at + 300]}..."


@pytest.mark.parametrize("given", ["autograded", "feedback", "gradescope"])
def test_a_traceback_through_pytorch_names_its_file_from_the_package_on(graded, given):
    assert LIBRARY_FILE.search(graded[given]), graded[given][-3000:]


def test_the_tracebacks_keep_the_students_own_frames(graded):
    """The narrative cell that calls Head in the autograded notebook, and the plain test cell run inside the
    student's process on Gradescope, show Head.forward's line of the student's cell."""
    nb = nbformat.reads(graded["autograded"], as_version=4)
    errors = ["".join(o.traceback) for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert any("in Head.forward" in e and "self.query(query)" in e and LIBRARY_FILE.search(e) for e in errors), errors
    timed = next(t for t in json.loads(graded["gradescope"])["tests"] if t["name"].startswith("head_timed_test"))
    assert "in Head.forward" in timed["output"] and "self.query(query)" in timed["output"], timed["output"]
