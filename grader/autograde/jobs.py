"""From a notebook to a sandbox job, and from the sandbox's evidence to each test cell's verdict.

The job lists the notebook's code cells in order, as units: a cell to run (``cell``), an
autograded test cell the kit knows nothing about, run with nbgrader's rules by the judge outside the student's
process (``judged``) or, where it reaches into that process, in it (``test``, see plain_tests.py), or a kit
test cell (``kit``): the exercise is probed where the cell stands, and judged here.
"""

import sys

from ..boundary.student_safe import kit_copies, student_paths
from ..checks import plain
from ..checks.cells import defines, is_test_cell, kit_exercise
from ..checks.grade import grader_problem
from ..checks.registry import visible_parts
from ..checks.running import plan, sandbox_requests, with_source_outcomes
from ..checks.scoring import judge_parts
from ..hidden import hidden_parts
from ..records.statuses import STATUSES
from ..sandbox.isolation import paths_to_hide
from .plain_tests import reaches_inside

DEFAULT_LIMITS = {
    "memory_bytes": 2 << 30,  # resident memory of all the notebook's processes
    "processes": 64,
    "unit_seconds": 10.0,  # one cell, or one exercise's checks
    "notebook_seconds": 60.0,  # the whole notebook, restarts included
    "output_chars": 100_000,  # stream text kept per cell
    "file_bytes": 16 << 20,
    "tmp_bytes": 64 << 20,
}


def secret_paths(course, also=()):
    """What a submission must not see: the course and the kit (and the folders in ``also``), but for the
    Python environment and the student-safe part of the kit (grader/boundary/student_safe.py): hidden checks,
    references, records, the demo and the grader's own code are all covered."""
    return paths_to_hide([course, *kit_copies(), *also], [sys.prefix, *student_paths()])


def planned_checks(name):
    """Every case of an exercise, visible and hidden."""
    return plan(visible_parts(name) + hidden_parts(name))


def _unit(cell):
    name = kit_exercise(cell)
    if name:
        requests = sandbox_requests(planned_checks(name))
        return {"kind": "kit", "exercise": name, "requests": requests}
    if not is_test_cell(cell):
        return {"kind": "cell", "source": cell.source}
    return {"kind": "test" if reaches_inside(cell.source) else "judged", "source": cell.source}


def build_job(nb, course, limits=None, also_hide=(), folder=None, source=None):
    """The sandbox job for a notebook, and the index of the cell each unit stands for. ``folder`` is the
    notebook's, whose files the sandbox and the judge work among; ``source`` the assignment's source folder, whose
    modules are the instructor's copies."""
    code = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    job = {
        "units": [_unit(nb.cells[i]) for i in code],
        "limits": {**DEFAULT_LIMITS, **(limits or {})},
        "hide": secret_paths(course, also_hide),
        "folder": str(folder) if folder else None,
        "source": str(source) if source else None,
    }
    return job, code


def failure_reason(status, limits=None):
    """What happened to a unit the sandbox could not run, in words, with the limit it hit when ``limits`` (the
    job's) are given: "ran out of time (the limit is 10 s for one cell ...)"."""
    if not _failed(status):
        return str(status)
    limit = _limit_words(status, limits) if limits else None
    return STATUSES[status].happened + (f" ({limit})" if limit else "")


def _limit_words(status, limits):
    if status == "timeout":
        return (
            f"the limit is {limits['unit_seconds']:g} s for one cell or one exercise's checks, and "
            f"{limits['notebook_seconds']:g} s for the whole notebook"
        )
    if status == "memory":
        return f"the limit is {limits['memory_bytes'] / 2**30:g} GiB for everything the notebook runs"
    return None


def _failed(status):
    """True for a unit the sandbox could not run (timed out, crashed...); False for one that ran, or undefined."""
    return status in STATUSES and STATUSES[status].happened is not None


def judge_exercise(job, units, position):
    """(status, reason, part results or None) for the kit unit at ``position``."""
    unit, result = job["units"][position], units[position]
    name, status = unit["exercise"], result.get("status")
    if status == "ok":
        try:
            outcomes = [plain.from_plain(outcome) for outcome in result["outcomes"]]
            ran = [u["source"] for u in job["units"][:position] if u["kind"] != "kit"]  # rules read from the source
            outcomes = with_source_outcomes(planned_checks(name), outcomes, ran)
            results = judge_parts(planned_checks(name), outcomes)
        except (ValueError, TypeError, KeyError, IndexError):
            return "malformed", f"checking {name} {failure_reason('malformed')}", None
        problem = grader_problem(name, results)  # the grader's own error: no real grade, the instructor looks
        return ("grader_error", problem, results) if problem else ("graded", None, results)
    if status == "undefined":
        cause = _defining_failure(job, units, position, name)
        if cause:
            return cause, f"the cell that defines {name} {failure_reason(cause, job.get('limits'))}", None
        return (
            "undefined",
            f"{name} did not exist when its test cell ran (its cell was not run, or its name was changed)",
            None,
        )
    status = status if _failed(status) else "malformed"
    return status, f"checking {name} {failure_reason(status, job.get('limits'))}", None


def _defining_failure(job, units, position, name):
    """The failure of the last cell before ``position`` that defines ``name``, if it failed."""
    for index in range(position - 1, -1, -1):
        unit = job["units"][index]
        if unit["kind"] != "kit" and defines(unit["source"], name):
            status = units[index].get("status")
            return status if _failed(status) else None
    return None
