"""The small files of the student bundle: how to install the student package and work."""

from . import requirements
from .how_to_check import RUN_ALL, self_check

README = """\
# Self-attention exercises: {assignment}

## Set up (once)

One command installs the checks and the self-check. It keeps the versions you already have and
only adds what is missing. It needs Python {python} and

    {needs}

On Colab, upload `{wheel}` (the Files pane), then run in a cell:

    !pip install {wheel}

Colab's own PyTorch and the rest stay as they are: there is nothing to restart.

On a JupyterHub, open a terminal and run:

    pip install {wheel}

(If the hub has no PyTorch, `import torch` fails: install PyTorch's CPU build first, as below.)

On a laptop, in a new virtual environment, install PyTorch's CPU build first (PyTorch's usual
download on Linux is several gigabytes larger, for graphics cards the exercises do not need),
then the checks with Jupyter:

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install "{wheel}[jupyter]"

## Work

Open the notebooks in `exercises/{assignment}/` (`jupyter notebook`), one after another.
In each answer cell, replace `raise NotImplementedError()` with your code, and keep the
function's name and arguments as given. Run the test cell below an answer: it prints what
passed and, for what did not, a case and the likely mistake. Do not edit or delete the test
cells; they are restored from the instructor's copy before grading.

## Self-check

{self_check}

{run_all}

Each exercise passes or fails with the visible checks' points. Grading adds hidden checks
(other inputs, the same properties), so an answer that computes the result, rather than
one that fits the visible cases, earns every point.

## Submit

Hand in the `.ipynb` files of `exercises/{assignment}/`, with their names unchanged.
"""


def readme(assignment, wheel):
    """The README of the bundle of ``assignment``, whose student package is the file ``wheel``."""
    return README.format(
        assignment=assignment,
        wheel=wheel,
        needs=", ".join(requirements.REQUIRES),
        python=requirements.REQUIRES_PYTHON,
        self_check=self_check(assignment, "<notebook>.ipynb"),
        run_all=RUN_ALL,
    )
