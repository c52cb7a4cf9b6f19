"""Reference solutions, taken from the instructor notebooks' own solution cells: one copy, no drift.

Instructor-only, like the hidden checks: never released, never visible inside a sandbox.
"""

import contextlib
import functools
import io

from ..checks import registry
from ..checks.cells import is_test_cell
from ..checks.in_process import run_cell
from ..checks.notebook import read


class Solutions:
    """The names a solution notebook defines, loaded (by running its code) when first used."""

    def __init__(self, notebook):
        self.notebook = notebook

    def __getattr__(self, name):
        try:
            return namespace(self.notebook)[name]
        except KeyError:
            raise AttributeError(f"{self.notebook} defines no {name}") from None


def of(notebook):
    return Solutions(notebook)


@functools.cache
def namespace(notebook):
    """Run every code cell of the instructor's ``notebook`` but its test cells, in order, quietly; a notebook that
    draws draws on Agg (matplotlib is imported only for those: pyplot's import is about a second of CPU)."""
    path = next(registry.SOLUTIONS.glob(f"*/{notebook}"))
    cells = [cell.source for cell in read(path).cells if cell.cell_type == "code" and not is_test_cell(cell)]
    draws = any("matplotlib" in source for source in cells)
    if draws:
        import matplotlib

        matplotlib.use("Agg")
    names = {"__name__": f"solutions.{path.stem}"}
    with contextlib.redirect_stdout(io.StringIO()):
        for source in cells:
            run_cell(source, names, path.name)
    if draws:
        import matplotlib.pyplot as plt

        plt.close("all")
    return names
