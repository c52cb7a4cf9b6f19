"""A notebook's code cells run in this process, not in a kernel or a sandbox: the self-check's way, and the
reference solutions'."""

import contextlib
import io
import os
import warnings

from .cells import is_test_cell, kit_exercise
from .source import python_lines


def run_code_cells(nb, directory, at_test=None):
    """Execute every code cell but the test cells, in order; return the namespace and the cells that raised.

    ``at_test(name, namespace, sources)`` is called at each kit test cell, with the exercise's name,
    the namespace as it is at that point and the code cells run so far: an exercise is checked
    where its test cell stands, as the grader does.
    """
    # Figures go nowhere here; a backend inherited from a Jupyter kernel (``!pytest`` in a cell: ipykernel sets
    # the inline one) would import IPython for them.
    os.environ["MPLBACKEND"] = "Agg"
    namespace = {"__name__": "__main__"}
    errors, sources = [], []
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        for index, cell in enumerate(nb.cells):
            if at_test is not None and kit_exercise(cell):
                at_test(kit_exercise(cell), namespace, list(sources))
            if cell.cell_type != "code" or is_test_cell(cell):
                continue
            sources.append(cell.source)
            with (
                warnings.catch_warnings(),
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                warnings.simplefilter("ignore")
                try:
                    run_cell(cell.source, namespace, f"<cell {index}>")
                except Exception as error:  # a stub or a bug: the checks will say so
                    errors.append((index, f"{type(error).__name__}: {error}"))
    finally:
        os.chdir(cwd)
        _close_figures()
    return namespace, errors


def run_cell(source, namespace, filename):
    """Run one code cell's source in ``namespace`` as plain Python; ``filename`` names it in tracebacks."""
    exec(compile(python_lines(source), filename, "exec"), namespace)


def _close_figures():
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
