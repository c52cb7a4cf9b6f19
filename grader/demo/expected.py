"""The grades a submission deserves, computed in this process with the checks themselves.

This path shares the checks with the real grader but none of its machinery (nbgrader, the
sandbox, the kernel), so comparing the two tests that machinery.
"""

import copy
import re

from ..checks.in_process import run_code_cells
from ..checks.notebook import exercise_cells, exercise_points, sources_before
from ..checks.registry import visible_parts
from ..checks.running import grade_locally
from ..checks.scoring import scaled
from ..hidden import hidden_parts
from ..records import GRADED
from .cells import answer_cells


def _parts(name):
    return visible_parts(name) + hidden_parts(name)


def max_score(name):
    """The test cell's points: the parts' points are weights on its scale."""
    return float(exercise_points(name))


def grade(name, obj, sources):
    """An exercise's expected entry: its score over the visible and hidden parts, and what they diagnosed.

    ``sources`` are the notebook's code cells, which the rules about how code is written are read from.
    """
    results = grade_locally(_parts(name), obj, sources)
    found = sorted({r.failure.misconception for r in results if r.failure and r.failure.misconception})
    return {
        "score": scaled(results, max_score(name)),
        "max_score": max_score(name),
        "status": GRADED,
        "misconceptions": found,
    }


def zero(name, status):
    return {"score": 0.0, "max_score": max_score(name), "status": status, "misconceptions": []}


def unreadable(nb, status):
    """Every exercise of a notebook that could not be run: nothing scored."""
    return {
        "status": status,
        "exercises": {name: zero(name, "ungraded") for name in exercise_cells(nb)},
        "tampered": [],
    }


def _closure(name, sources):
    """The answer sources an exercise's grade depends on: its own and those of the exercises it uses."""
    found, todo = {}, [name]
    while todo:
        current = todo.pop()
        if current not in found:
            found[current] = sources.get(current)
            todo += [other for other in sources if re.search(rf"\b{other}\b", found[current] or "")]
    return tuple(sorted(found.items(), key=lambda item: item[0]))


_GRADES = {}  # (exercise, its closure) -> its expected entry: equal answers deserve equal grades


def graded(nb, directory, declared):
    """A notebook that runs: every exercise graded from its answers, but for ``declared`` ones.

    ``declared`` maps the exercises whose code hangs or crashes to their status; their answer
    cells are left out here, and nothing else in the notebook calls them. The notebook's code
    runs only when some answer has not been graded before.
    """
    nb = copy.deepcopy(nb)
    for name, cell in answer_cells(nb).items():
        if name in declared:
            cell.source = ""
    sources = {name: cell.source for name, cell in answer_cells(nb).items()}
    namespace, exercises = None, {}
    for name in exercise_cells(nb):
        if name in declared or name not in sources:
            exercises[name] = zero(name, declared.get(name, "undefined"))
            continue
        key = (name, _closure(name, sources))
        if key not in _GRADES:
            if namespace is None:
                namespace, _ = run_code_cells(nb, directory)
            _GRADES[key] = (
                grade(name, namespace[name], sources_before(nb, name)) if name in namespace else zero(name, "undefined")
            )
        exercises[name] = copy.deepcopy(_GRADES[key])
    return {"status": GRADED, "exercises": exercises, "tampered": []}
