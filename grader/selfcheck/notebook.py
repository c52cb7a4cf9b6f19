"""Run a student's notebook in this process, fast: its code cells, not its test cells."""
import contextlib
import io
import json
import os
import warnings

from ..checks.cells import is_test_cell, kit_exercise, nbgrader_metadata
from ..checks.source import python_lines


def exercise_cells(nb):
    """(exercise name, points) for each kit test cell, in notebook order."""
    return [(kit_exercise(cell), float(nbgrader_metadata(cell).get("points", 0)))
            for cell in nb.cells if kit_exercise(cell)]


def sources_before(nb, name):
    """The code cells that run before the test cell of exercise ``name``, as the grader reads them."""
    sources = []
    for cell in nb.cells:
        if is_test_cell(cell):
            if kit_exercise(cell) == name:
                break
        elif cell.cell_type == "code":
            sources.append(cell.source)
    return sources


def run_code_cells(nb, directory):
    """Execute every code cell but the test cells; return the namespace and the cells that raised."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    namespace = {"__name__": "__main__"}
    errors = []
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code" or is_test_cell(cell):
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


class Node(dict):
    """A JSON object whose keys read as attributes too, as nbformat's nodes do."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def read(path):
    """A notebook's cells, read as plain JSON: quick, because nbformat's import alone takes a second."""
    with open(path, encoding="utf-8") as handle:
        nb = json.load(handle, object_hook=Node)
    for cell in nb["cells"]:
        if isinstance(cell.get("source"), list):
            cell["source"] = "".join(cell["source"])
    return nb
