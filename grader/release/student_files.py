"""The small files of the student bundle: what to install, how to self-check, how to work."""

# The kit's tested versions (requirements.txt), limited to what a student runs.
REQUIREMENTS = """\
# torch 2.13.0: the CPU build is enough (pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu)
torch==2.13.0
numpy==2.4.6
matplotlib==3.11.2
nbformat==5.11.1
pytest==9.2.0
notebook==7.6.5
ipykernel==7.4.0
"""

CONFTEST = '''"""Loads the self-check plugin, so that ``pytest <notebook>.ipynb`` checks a notebook."""
pytest_plugins = ["grader.selfcheck.plugin"]
'''

# Makes this folder pytest's rootdir, so that conftest.py is found from any notebook path.
PYPROJECT = """\
[tool.pytest.ini_options]
testpaths = ["exercises"]
addopts = "-p no:cacheprovider"
"""

README = """\
# Self-attention exercises: {assignment}

## Set up (once)

    python -m venv .venv
    . .venv/bin/activate            # Windows: .venv\\Scripts\\activate
    pip install -r requirements.txt

## Work

Open the notebooks in `exercises/{assignment}/` (`jupyter notebook`), one after another.
In each answer cell, replace `raise NotImplementedError()` with your code, and keep the
function's name and arguments as given. Run the test cell below an answer: it prints what
passed and, for what did not, a case and the likely mistake. Do not edit or delete the test
cells; they are restored from the instructor's copy before grading.

## Self-check

From this folder, check one notebook, or all of them:

    pytest exercises/{assignment}/<notebook>.ipynb
    pytest

Each exercise passes or fails with the visible checks' points. Grading adds hidden checks
(other inputs, the same properties), so an answer that computes the result, rather than
one that fits the visible cases, earns every point.

## Submit

Hand in the `.ipynb` files of `exercises/{assignment}/`, with their names unchanged.
"""
