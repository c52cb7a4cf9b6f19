"""From a notebook to a sandbox job, and from the sandbox's evidence to judged exercises."""
import functools
import hashlib
import json
import pathlib
import re
import sys

from ..checks.framework import judge_parts, plan, sandbox_requests, with_source_outcomes
from ..checks.registry import exercise_of_grade_id, visible_parts
from ..hidden import hidden_parts
from ..sandbox.isolation import paths_to_hide

KIT_ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = KIT_ROOT / "grader"
DEFAULT_LIMITS = {
    "memory_bytes": 2 << 30,       # resident memory of all the notebook's processes
    "processes": 64,
    "unit_seconds": 10.0,          # one cell, or one exercise's checks
    "notebook_seconds": 60.0,      # the whole notebook, restarts included
    "output_chars": 100_000,
    "file_bytes": 16 << 20,
    "tmp_bytes": 64 << 20,
}


def is_test_cell(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def graded_exercises(nb):
    """The exercises the notebook's test cells grade, in order, each once."""
    names = []
    for cell in nb.cells:
        if is_test_cell(cell):
            name = exercise_of_grade_id(cell.metadata["nbgrader"].get("grade_id", ""))
            if name and name not in names:
                names.append(name)
    return names


def secret_paths(course):
    """What a submission must not see: the course and the kit, but for the Python environment and
    the student-safe part of the kit; and the kit's hidden checks and references."""
    keep = [sys.prefix, PACKAGE]
    hidden = paths_to_hide([course, KIT_ROOT], keep)
    return hidden + [str(PACKAGE / "hidden"), str(PACKAGE / "reference")]


@functools.cache
def planned_checks(name):
    """Every case of an exercise, built once: the cases and their judges never change."""
    return plan(visible_parts(name) + hidden_parts(name))


def build_job(nb, course, limits=None):
    """The job for the sandbox, and the planned cases (kept here, to judge the outcomes)."""
    planned = {name: planned_checks(name) for name in graded_exercises(nb)}
    job = {
        "cells": [(i, c.source) for i, c in enumerate(nb.cells) if c.cell_type == "code" and not is_test_cell(c)],
        "exercises": [{"name": name, "requests": sandbox_requests(planned[name])} for name in planned],
        "limits": {**DEFAULT_LIMITS, **(limits or {})},
        "hide": secret_paths(course),
    }
    return job, planned


def job_key(job):
    """A stable name for a job: the same notebook code and checks give the same key."""
    return hashlib.sha256(json.dumps(job, sort_keys=True).encode()).hexdigest()


def _defining_cell(cells, name):
    pattern = re.compile(rf"^\s*(def|class)\s+{re.escape(name)}\b", re.M)
    return next((f"cell:{i}" for i, source in cells if pattern.search(source)), None)


def judge_result(job, planned, result):
    """Per exercise: (status, reason, part results or None), from the sandbox's result."""
    from ..checks import plain
    ends = {e["unit"]: e for e in result.get("events", []) if isinstance(e, dict) and "unit" in e}
    skipped = result.get("skipped", {})
    judged = {}
    for name, planned_parts in planned.items():
        unit = f"exercise:{name}"
        event = ends.get(unit)
        if unit in skipped:
            judged[name] = (skipped[unit], f"checking {name} {_verb(skipped[unit])}", None)
        elif event is None:
            judged[name] = ("ungraded", f"the notebook {_verb(result.get('status'))} before {name} was checked", None)
        elif event.get("status") == "ok":
            try:
                outcomes = plain.from_plain(event.get("outcomes"))
                outcomes = with_source_outcomes(planned_parts, outcomes, [source for _, source in job["cells"]])
                judged[name] = ("graded", None, judge_parts(planned_parts, outcomes))
            except (ValueError, TypeError, KeyError, IndexError):
                judged[name] = ("crashed", "the checks' results came back malformed", None)
        elif event.get("status") == "undefined":
            cell = _defining_cell(job["cells"], name)
            cell_end = ends.get(cell, {}) if cell else {}
            cell_status = skipped.get(cell) or cell_end.get("status")
            if cell_status in ("timeout", "crashed", "memory"):
                judged[name] = (cell_status, f"the cell that defines {name} {_verb(cell_status)}", None)
            else:
                judged[name] = ("undefined", f"{name} was not defined when the notebook finished", None)
        else:
            status = "timeout" if event.get("status") == "timeout" else "crashed"
            judged[name] = (status, f"checking {name} {_verb(status)}: {event.get('detail')}", None)
    return judged


def _verb(status):
    return {"timeout": "ran out of time", "memory": "ran out of memory", "crashed": "crashed the kernel",
            "graded": "finished"}.get(status, str(status))
