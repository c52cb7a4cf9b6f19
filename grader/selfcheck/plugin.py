"""The pytest plugin behind the self-check: one test item per exercise of a notebook."""

import gc

import pytest
from _pytest._code.code import TerminalRepr

from ..checks.cells import points_by_exercise
from ..checks.grade import format_results, grader_problem
from ..checks.in_process import run_code_cells
from ..checks.notebook import exercise_cells, read
from ..checks.registry import visible_parts
from ..checks.running import grade_locally
from ..checks.wording import headline, wrap


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".ipynb" and ".ipynb_checkpoints" not in file_path.parts:
        return NotebookFile.from_parent(parent, path=file_path)
    return None


class NotebookFile(pytest.File):
    """A notebook: its code cells run once, in order, and each exercise is checked where its test cell stands."""

    def collect(self):
        _long_lived()  # pytest's own objects, before the exercise modules import PyTorch
        nb = read(self.path)
        exercises = exercise_cells(nb)
        if not exercises:
            return
        _long_lived()  # the exercise modules and PyTorch, before the notebook's imports (matplotlib's start passes)
        checked = {}

        def check_here(name, namespace, sources):
            obj = namespace.get(name)
            checked.setdefault(name, None if obj is None else grade_locally(visible_parts(name), obj, sources))

        run_code_cells(nb, self.path.parent, at_test=check_here)
        _long_lived()  # the notebook's, before the full passes of pytest's end and of the interpreter's exit
        worth = points_by_exercise(nb)  # the test cells' metadata, as nbgrader reads it
        for position, name in enumerate(exercises):
            yield ExerciseItem.from_parent(
                self, name=name, results=checked.get(name), position=position, points=worth[name], of=len(exercises)
            )


def _long_lived():
    """Keep every object alive now out of the garbage collector's full passes (``gc.freeze``): what pytest, PyTorch,
    matplotlib and the notebook made lives until pytest exits, and each full pass walks all of it again (about 0.1 s
    of CPU once PyTorch is loaded). Objects made afterwards are collected as before."""
    gc.freeze()


class ExerciseFailed(Exception):
    """An exercise's report (the exception's text) and its headline, for pytest's one-line summary."""

    def __init__(self, report, summary):
        super().__init__(report)
        self.summary = summary


class ExerciseReport(TerminalRepr):
    """What pytest shows of a failed exercise: the report under its name, the headline alone in the short
    summary (a report given as text would be repeated whole there on CI, or with ``-vv``)."""

    class Crash:
        def __init__(self, message):
            self.message = message

    def __init__(self, failed):
        self.text = str(failed)
        self.reprcrash = self.Crash(failed.summary)

    def toterminal(self, tw):
        for line in self.text.splitlines():
            tw.line(line)


class ExerciseItem(pytest.Item):
    """One exercise: its visible checks, said as the test cell says them."""

    def __init__(self, *, results, position, points, of, **kwargs):
        super().__init__(**kwargs)
        self.results, self.points = results, points
        # the summary lists exercises in notebook order, and knows whether it has each notebook's every exercise
        self.user_properties += [("position", position), ("of", of)]

    def runtest(self):
        checks = len(visible_parts(self.name)) if self.results is None else len(self.results)
        passed = 0 if self.results is None else sum(r.failure is None for r in self.results)
        self.user_properties += [("visible_checks", (passed, checks)), ("points", self.points)]
        if self.results is None:
            missing = (
                f"{self.name} does not exist when its test cell is reached: run its cell, and keep its name as given."
            )
            raise ExerciseFailed(wrap(missing), missing)
        report = format_results(self.name, self.results, self.points, complete=False)
        summary = headline(self.name, ((passed, checks), None), self.points)
        if problem := grader_problem(self.name, self.results):
            raise ExerciseFailed(
                report
                + "\n"
                + wrap(f"{problem}. This is a problem of the grader, not of your code: tell your instructor."),
                f"{summary}; {problem}",
            )
        if passed < checks:
            raise ExerciseFailed(report, summary)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExerciseFailed):
            return ExerciseReport(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.name}"


def pytest_terminal_summary(terminalreporter):
    rows = []
    reports = terminalreporter.getreports("passed") + terminalreporter.getreports("failed")
    for report in sorted(reports, key=lambda one: (one.fspath, dict(one.user_properties).get("position", 0))):
        props = dict(report.user_properties)
        if "visible_checks" in props and report.when == "call":
            rows.append(
                (
                    report.nodeid.split("::")[-1],
                    tuple(props["visible_checks"]),
                    props["points"],
                    report.fspath,
                    props["of"],
                )
            )
    if not rows:
        return
    terminalreporter.section("self-check")
    for name, checks, points, *_ in rows:
        terminalreporter.write_line(headline(name, (checks, None), points))
    passed, total = sum(r[1][0] for r in rows), sum(r[1][1] for r in rows)
    said = headline(
        f"total of {_count(len(rows), 'exercise')}",
        ((passed, total), None),
        sum(r[2] for r in rows),
        whole=_whole(rows),
    )
    terminalreporter.write_line(said)


def _count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _whole(rows):
    """What the total's points are of: the notebooks, when every exercise of each was checked; else the exercises
    checked (``pytest -k`` chose some), with the verb."""
    notebooks = {row[3]: row[4] for row in rows}
    if all(sum(row[3] == path for row in rows) == size for path, size in notebooks.items()):
        return "this notebook is" if len(notebooks) == 1 else f"these {len(notebooks)} notebooks are"
    return "this exercise is" if len(rows) == 1 else f"these {len(rows)} exercises are"
