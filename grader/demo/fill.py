"""Fill a released notebook's answer cells, as a student would."""

import copy
import re

MARKER = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$")


def reference_answers(solution_nb):
    """The instructor's answer for each solution cell, without the solution markers."""
    answers = {}
    for cell in solution_nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and not meta.get("grade"):
            answers[meta["grade_id"]] = "\n".join(line for line in cell.source.splitlines() if not MARKER.match(line))
    return answers


def fill(release_nb, answers):
    """A copy of ``release_nb`` whose answer cells hold ``answers`` (by grade_id); others stay stubs."""
    nb = copy.deepcopy(release_nb)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id") in answers:
            cell.source = answers[meta["grade_id"]]
    return nb
