"""The release writes what a notebook is worth into its title from the cells' points (grader/release/worth.py):
an instructor changes a cell's points in its metadata, and the released title follows."""

import copy

import nbformat
from nbgrader.converters import GenerateAssignment
from traitlets.config import Config

from grader.release.how_to_check import SelfCheckInInstructions
from grader.release.worth import WorthInTitle

from ..conftest import ROOT, SOLUTIONS


def released_title(nb):
    return WorthInTitle().preprocess(copy.deepcopy(nb), {})[0].cells[0].source


def test_the_title_follows_the_cells_points():
    nb = nbformat.read(SOLUTIONS / "01_attention_basics.ipynb", as_version=4)
    test_cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    total = sum(c.metadata.nbgrader.points for c in test_cells)
    test_cells[0].metadata.nbgrader.points += 3
    title = released_title(nb)
    assert f"This notebook is worth **{total + 3:g} points**." in title
    assert title.count("This notebook is worth") == 1 and title.startswith("# 01 · Attention basics")


def test_a_title_without_the_sentence_gets_it_as_its_last_paragraph():
    nb = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("# 07 · More"),
            nbformat.v4.new_code_cell(
                "", metadata={"nbgrader": {"grade": True, "solution": False, "points": 1, "grade_id": "x_test"}}
            ),
        ]
    )
    assert released_title(nb) == "# 07 · More\n\nThis notebook is worth **1 point**."


def test_the_release_runs_nbgraders_own_steps_after_the_kits():
    """nbgrader_config.py lists nbgrader's default steps after the kit's: the same steps, in nbgrader's order."""
    config = Config()
    exec(
        compile((ROOT / "nbgrader_config.py").read_text(), "nbgrader_config.py", "exec"), {"get_config": lambda: config}
    )
    assert config.GenerateAssignment.preprocessors == [
        WorthInTitle,
        SelfCheckInInstructions,
        *GenerateAssignment().preprocessors,
    ]
