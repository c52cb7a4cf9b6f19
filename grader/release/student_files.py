"""The small files of the student bundle: what the student package needs, how to install it and work."""

# The kit's tested versions (requirements.txt) of what the notebooks and the self-check import.
# torch 2.13.0: the CPU build is enough. IPython: the test cells read the cells run so far from its history.
PINS = """\
torch==2.13.0
ipython==9.18.1
numpy==2.4.6
matplotlib==3.11.2
nbformat==5.11.1
pytest==9.2.0
"""


# For a laptop without Jupyter: the extra ``[jupyter]``.
JUPYTER_PINS = ["notebook==7.6.5", "ipykernel==7.4.0"]


def pins():
    return PINS.split()

README = """\
# Self-attention exercises: {assignment}

## Set up (once)

One command installs the checks, the self-check and what the notebooks need (in a virtual
environment, a JupyterHub image or Colab alike):

    pip install {wheel}

On a laptop without Jupyter, add it with the same command: `pip install "{wheel}[jupyter]"`.

## Work

Open the notebooks in `exercises/{assignment}/` (`jupyter notebook`), one after another.
In each answer cell, replace `raise NotImplementedError()` with your code, and keep the
function's name and arguments as given. Run the test cell below an answer: it prints what
passed and, for what did not, a case and the likely mistake. Do not edit or delete the test
cells; they are restored from the instructor's copy before grading.

## Self-check

From any folder, check a notebook (no other file is needed beside it):

    pytest <notebook>.ipynb

Each exercise passes or fails with the visible checks' points. Grading adds hidden checks
(other inputs, the same properties), so an answer that computes the result, rather than
one that fits the visible cases, earns every point.

## Submit

Hand in the `.ipynb` files of `exercises/{assignment}/`, with their names unchanged.
"""
