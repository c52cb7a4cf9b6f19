"""The solution notebooks: well formed for nbgrader, and they run clean from top to bottom."""

import nbclient
import nbformat
import pytest
from nbgrader.utils import determine_grade

from grader.checks.cells import defines
from grader.checks.registry import exercise_of_grade_id, notebooks

from ..conftest import EXERCISES, ROOT, SOLUTIONS

TEST_CELL = """# Checks for {name}
from grader.checks import check
grade = check("{name}", {name})
### BEGIN HIDDEN TESTS
from grader.hidden import check_hidden
check_hidden(grade)
### END HIDDEN TESTS
grade.result()"""


def nbgrader_cells(nb, *, grade=None, solution=None):
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if (
            meta
            and (grade is None or meta.get("grade") == grade)
            and (solution is None or meta.get("solution") == solution)
        ):
            yield cell, meta


@pytest.fixture(scope="module", params=list(notebooks()))
def notebook(request):
    return request.param, nbformat.read(SOLUTIONS / request.param, as_version=4)


def test_test_cells_follow_the_template_and_are_worth_their_points(notebook):
    """Word for word the README's test cell, worth some points (the parts' points are weights on that scale)."""
    _, nb = notebook
    for cell, meta in nbgrader_cells(nb, grade=True, solution=False):
        name = exercise_of_grade_id(meta["grade_id"])
        assert name, meta["grade_id"]
        assert cell.source.strip() == TEST_CELL.format(name=name)
        assert meta["points"] > 0


def test_the_docs_give_the_test_cell_word_for_word():
    tutorial = ROOT / "docs" / "extending" / "tutorial-add-exercise.md"
    lines = [line.strip() for line in tutorial.read_text().splitlines()]
    cell = TEST_CELL.format(name="attend").splitlines()
    assert any(lines[at : at + len(cell)] == cell for at in range(len(lines)))


def test_each_solution_cell_defines_one_exercise_graded_below_it(notebook):
    _, nb = notebook
    tests = [exercise_of_grade_id(meta["grade_id"]) for _, meta in nbgrader_cells(nb, grade=True, solution=False)]
    answers = [
        (cell, meta)
        for cell, meta in nbgrader_cells(nb, grade=False, solution=True)
        if exercise_of_grade_id(meta["grade_id"] + "_test")
    ]
    assert [meta["grade_id"] for _, meta in answers] == tests
    for cell, meta in answers:
        assert "### BEGIN SOLUTION" in cell.source
        assert defines(cell.source, meta["grade_id"])


def test_total_points_shown_at_the_top_of_the_released_notebook(notebook):
    """The release writes it from the cells' metadata (grader/release/worth.py)."""
    name, nb = notebook
    total = sum(meta["points"] for _, meta in nbgrader_cells(nb, grade=True, solution=False))
    released = nbformat.read(EXERCISES / name, as_version=4)
    assert released.cells[0].cell_type == "markdown"
    assert f"This notebook is worth **{total:g} points**." in released.cells[0].source


@pytest.mark.slow
def test_solution_runs_top_to_bottom_with_full_marks_and_no_stderr(notebook, kernels):
    name, nb = notebook
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", config=kernels, resources={"metadata": {"path": str(SOLUTIONS)}}
    )
    client.execute()
    problems = [
        (i, o)
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error" or (o.output_type == "stream" and o.name == "stderr")
    ]
    assert problems == []
    for cell, meta in nbgrader_cells(nb, grade=True, solution=False):
        assert determine_grade(cell) == (meta["points"], meta["points"]), (name, meta["grade_id"])
