"""What keeps ``pytest <notebook>`` fast (bench/selfcheck_speed.py times it): the garbage collector's full passes
at pytest's end do not walk what PyTorch, matplotlib and the notebook made, which lives until the process ends;
and figures are made on Agg, even when ``!pytest`` runs in a Jupyter kernel's cell, whose inline backend would
import IPython."""

import json
import os
import subprocess
import sys

import pytest

from ..conftest import EXERCISES, ROOT

pytestmark = pytest.mark.slow

# A plugin that writes down, before pytest's own full passes at its end, the objects a full pass walks, those left
# out, and whether IPython was imported.
WITNESS = """import gc, json, os, sys
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    with open(os.environ["WITNESS"], "w") as out:
        json.dump({"left_out": gc.get_freeze_count(), "walked": len(gc.get_objects()),
                   "ipython": "IPython" in sys.modules}, out)
"""
INLINE = "module://matplotlib_inline.backend_inline"  # what ipykernel puts in MPLBACKEND for its processes


@pytest.fixture(scope="module")
def witnessed(tmp_path_factory):
    """The self-check of notebook 02 (the heatmaps' notebook) as ``!pytest`` runs it from a Jupyter cell."""
    folder = tmp_path_factory.mktemp("witness")
    (folder / "witness.py").write_text(WITNESS)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "grader.selfcheck.plugin",
            "-p",
            "witness",
            str(EXERCISES / "02_self_attention_step_by_step.ipynb"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(folder), "WITNESS": str(folder / "seen.json"), "MPLBACKEND": INLINE},
    )
    assert "5 failed" in run.stdout, run.stdout + run.stderr  # the untouched notebook's exercises, each checked
    return json.loads((folder / "seen.json").read_text())


def test_a_full_pass_at_the_end_walks_little_of_what_the_notebook_made(witnessed):
    assert witnessed["walked"] * 10 < witnessed["left_out"], witnessed


def test_a_jupyter_kernels_backend_does_not_bring_ipython_in(witnessed):
    assert not witnessed["ipython"]
