"""``release`` names each plain test cell that only the student's process can judge (issue 49): the instructor
knows before grading which verdicts a student's code could change."""

import types

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from grader.cli.summaries import inside_summary


def test_release_names_each_test_cell_judged_in_the_students_process(tmp_path):
    cells = {
        "seeded": "np.random.seed(0)\nassert f(np.random.rand(3)).shape == (3,)",
        "magic": "%timeit f(1)",
        "shell": "assert 'f' in get_ipython().user_ns",
        "plain": "assert f(1) == 2",
    }
    nb = new_notebook(cells=[new_code_cell("def f(x):\n    return 2 * x")])
    for grade_id, source in cells.items():
        cell = new_code_cell(source)
        cell.metadata["nbgrader"] = {
            "grade_id": grade_id,
            "grade": True,
            "solution": False,
            "points": 1,
            "schema_version": 3,
        }
        nb.cells.append(cell)
    nbformat.write(nb, tmp_path / "ps1.ipynb")
    said = inside_summary(types.SimpleNamespace(source=tmp_path))
    assert said == (
        "\n2 test cells judged in the student's process, where the student's code could change the "
        "verdict (flagged on every student's grade for a person to check): ps1.ipynb magic "
        "(get_ipython), ps1.ipynb shell (get_ipython)"
    )
    assert inside_summary(types.SimpleNamespace(source=tmp_path / "empty")) == ""
