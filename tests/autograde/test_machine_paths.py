"""No path of the grading machine in what a student gets: a traceback through a library names the library's
file from ``site-packages`` on, not the grader's virtual environment."""

import sys

import nbformat

from grader.autograde.machine_paths import without_machine_paths
from grader.autograde.outputs import ran_cell
from grader.boundary.student_safe import KIT_ROOT


def test_a_traceback_through_pytorch_keeps_the_librarys_file_and_not_the_graders_paths():
    import torch.nn.functional

    library = torch.nn.functional.__file__
    assert library.startswith(sys.prefix)  # the machine's path, as a sandbox's traceback shows it
    error = {
        "output_type": "error",
        "ename": "RuntimeError",
        "evalue": f"in {library}",
        "traceback": [f'File "{library}", line 1, in softmax', f"{KIT_ROOT}/x.py"],
    }
    cell = nbformat.v4.new_code_cell("")
    ran_cell(cell, {"status": "ok", "count": 1, "outputs": [error]})
    said = " ".join(cell.outputs[0]["traceback"]) + cell.outputs[0]["evalue"]
    assert sys.prefix not in said and str(KIT_ROOT) not in said
    assert "site-packages/torch/nn/functional.py" in said


def test_text_without_paths_is_left_as_it_is():
    assert (
        without_machine_paths("ValueError: shapes (3,) and (4,) do not match")
        == "ValueError: shapes (3,) and (4,) do not match"
    )
