"""The pytest plugin behind the self-check: one test item per exercise of a notebook."""
import pytest

from ..checks.framework import grade_locally, total_score
from ..checks.grade import format_results
from ..checks.registry import visible_parts
from .notebook import exercise_cells, read, run_code_cells, sources_before


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".ipynb" and ".ipynb_checkpoints" not in file_path.parts:
        return NotebookFile.from_parent(parent, path=file_path)
    return None


class NotebookFile(pytest.File):
    """A notebook: its code cells run once, then each exercise is checked."""

    def collect(self):
        nb = read(self.path)
        exercises = exercise_cells(nb)
        if not exercises:
            return
        namespace, errors = run_code_cells(nb, self.path.parent)
        for name, points in exercises:
            yield ExerciseItem.from_parent(self, name=name, namespace=namespace, points=points,
                                           sources=sources_before(nb, name))


class ExerciseFailed(Exception):
    pass


class ExerciseItem(pytest.Item):
    """One exercise: its visible checks, with the points they are worth."""

    def __init__(self, *, namespace, points, sources, **kwargs):
        super().__init__(**kwargs)
        self.namespace, self.points, self.sources = namespace, points, sources

    def runtest(self):
        parts = visible_parts(self.name)
        visible = sum(p.points for p in parts)
        self.user_properties.append(("visible_points", visible))
        self.user_properties.append(("cell_points", self.points))
        if self.name not in self.namespace:
            self.user_properties.append(("earned", 0.0))
            raise ExerciseFailed(f"{self.name} is not defined: run its cell, and keep its name as given.")
        results = grade_locally(parts, self.namespace[self.name], self.sources)
        earned = total_score(results)
        self.user_properties.append(("earned", earned))
        if earned < visible:
            raise ExerciseFailed(format_results(self.name, results))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExerciseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.name}"


def pytest_terminal_summary(terminalreporter):
    rows = []
    for report in terminalreporter.getreports("passed") + terminalreporter.getreports("failed"):
        props = dict(report.user_properties)
        if "visible_points" in props and report.when == "call":
            rows.append((report.nodeid.split("::")[-1], props.get("earned", 0.0), props["visible_points"],
                         props["cell_points"]))
    if not rows:
        return
    terminalreporter.section("self-check points")
    for name, earned, visible, cell in rows:
        terminalreporter.write_line(f"{name:32s} {earned:g}/{visible:g} visible points "
                                    f"(the exercise is worth {cell:g}; the rest is checked at grading)")
    terminalreporter.write_line(f"{'total':32s} {sum(r[1] for r in rows):g}/{sum(r[2] for r in rows):g} visible points")
