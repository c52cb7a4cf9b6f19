"""Run a student's notebook in this process, fast: its code cells, not its test cells."""
import contextlib
import io
import os
import warnings

import nbformat

from ..checks.registry import exercise_of_grade_id
from ..checks.source import python_lines


def exercise_cells(nb):
    """(exercise name, points) for each autograded test cell, in notebook order."""
    found = []
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            name = exercise_of_grade_id(meta.get("grade_id", ""))
            if name:
                found.append((name, float(meta.get("points", 0))))
    return found


def run_code_cells(nb, directory):
    """Execute every code cell but the test cells; return the namespace and the cells that raised."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    namespace = {"__name__": "__main__"}
    errors = []
    tests = {id(c) for c in nb.cells if c.cell_type == "code"
             and c.get("metadata", {}).get("nbgrader", {}).get("grade")
             and not c.get("metadata", {}).get("nbgrader", {}).get("solution")}
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code" or id(cell) in tests:
                continue
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")
                try:
                    exec(compile(python_lines(cell.source), f"<cell {index}>", "exec"), namespace)
                except Exception as error:  # a stub or a bug: the checks will say so
                    errors.append((index, f"{type(error).__name__}: {error}"))
    finally:
        os.chdir(cwd)
        _close_figures()
    return namespace, errors


def _close_figures():
    import sys
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def read(path):
    return nbformat.read(str(path), as_version=4)
