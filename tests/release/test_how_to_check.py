"""How to check a whole notebook, said once (grader/release/how_to_check.py): the student README and the
instructions at the top of every notebook, in solutions/ and in the released exercises/, hold the same words, and
the release writes them into each notebook."""

import copy

import nbformat
import pytest

from grader.checks.registry import notebooks
from grader.release.how_to_check import RUN_ALL, SelfCheckInInstructions, self_check
from grader.release.student_files import readme

from ..conftest import EXERCISES, SOLUTIONS

ASSIGNMENT = "self_attention"
FIRST = "01_attention_basics.ipynb"


def read_all(folder):
    return {name: nbformat.read(folder / name, as_version=4) for name in notebooks()}


def drift(nbs, text_of_readme):
    """Where the notebooks ({file name: notebook}) and the README say something else than the one wording."""
    found = []
    for name, nb in nbs.items():
        markdown = [cell.source for cell in nb.cells if cell.cell_type == "markdown"]
        said = self_check(ASSIGNMENT, name)
        if not markdown or markdown[0].count(said) != 1:
            found.append(f"{name}: its first Markdown cell does not say, once: {said}")
        run_all = 1 if name == FIRST else 0
        if (times := sum(text.count(RUN_ALL) for text in markdown)) != run_all:
            found.append(f"{name}: says {times} times, not {run_all}: {RUN_ALL}")
        if sum(text.count("pytest") for text in markdown) != said.count("pytest") + run_all * RUN_ALL.count("pytest"):
            found.append(f"{name}: speaks of pytest in other words too")
    for said in (self_check(ASSIGNMENT, "<notebook>.ipynb"), RUN_ALL):
        if said not in text_of_readme:
            found.append(f"README.md does not say: {said}")
    return found


@pytest.mark.parametrize("folder", [SOLUTIONS, EXERCISES], ids=["solutions", "exercises"])
def test_the_readme_and_every_notebook_say_the_same_about_the_self_check(folder):
    assert drift(read_all(folder), readme(ASSIGNMENT, "kit.whl")) == []


def test_a_notebook_or_a_readme_that_says_it_otherwise_is_found():
    nbs = read_all(SOLUTIONS)
    nbs["03_attention_in_numpy.ipynb"].cells[0].source = (
        nbs["03_attention_in_numpy.ipynb"].cells[0].source.replace("in the top folder", "in the notebook's folder")
    )
    nbs[FIRST].cells[-1].source += "\n\nOr run `pytest 01_attention_basics.ipynb` from any folder."
    assert drift(nbs, readme(ASSIGNMENT, "kit.whl").replace(RUN_ALL, "")) == [
        f"{FIRST}: speaks of pytest in other words too",
        "03_attention_in_numpy.ipynb: its first Markdown cell does not say, once: "
        + self_check(ASSIGNMENT, "03_attention_in_numpy.ipynb"),
        f"README.md does not say: {RUN_ALL}",
    ]


def released(nb, notebook):
    resources = {"nbgrader": {"assignment": ASSIGNMENT, "notebook": notebook}}
    return SelfCheckInInstructions().preprocess(copy.deepcopy(nb), resources)[0].cells[0].source


def test_the_release_writes_the_paragraph_over_the_one_in_the_notebook():
    nb = nbformat.read(SOLUTIONS / FIRST, as_version=4)
    said = self_check(ASSIGNMENT, FIRST)
    title = nb.cells[0].source
    nb.cells[0].source = title.replace(said, "**Check the whole notebook.** Run\n`pytest 01.ipynb` in its folder.")
    assert released(nb, "01_attention_basics") == title
    renamed = released(nb, "01_basics")
    assert self_check(ASSIGNMENT, "01_basics.ipynb") in renamed and renamed.count("Check the whole notebook") == 1


def test_a_notebook_without_the_paragraph_is_left_as_it_is():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 07 · More\n\nWork in order.")])
    assert released(nb, "07_more") == "# 07 · More\n\nWork in order."
