"""One entry per graded cell of a student's notebooks: its score, and the tutor's words for it.

Scores are the gradebook's, as :func:`grader.course.grades.course_grades` reads them; the words are the
feedback page's (:mod:`grader.tutor.page`), and a plain test cell's outputs with its hidden lines
taken out (:mod:`grader.tutor.hidden_tests`). ``output`` may speak of hidden checks (what they expected,
what came back, never their source); ``visible_output`` speaks of the visible checks only, for
before grades are published.
"""

import copy
import dataclasses
import functools
from dataclasses import dataclass

import nbformat

from ..boundary.machine_paths import without_machine_paths
from ..checks.notebook import sources_before
from ..checks.policy import source_outcome
from ..checks.registry import exercise_of_grade_id
from ..course.gradebook import TEST
from ..hidden import hidden_parts
from ..records.statuses import GRADED, NEEDS_MANUAL
from ..tutor.hidden_tests import ANSI, clear_hidden_tests, hidden_lines
from ..tutor.page import exercise_text


@dataclass
class Entry:
    name: str
    number: str
    score: float | None  # None: not scored here (waits for a grader)
    max_score: float
    output: str
    hidden: bool  # the cell has hidden checks: its score and output wait for publication
    visible_output: str | None = None  # a kit exercise's visible checks alone
    visible_passed: bool | None = None


def notebook_tests(position, graded, autograded):
    """The tests of one notebook (a :class:`grader.course.grades.NotebookGrade`), numbered ``<position>.<n>``;
    ``autograded`` is the autograded notebook, or None when there is none."""
    cells = {
        c.metadata["nbgrader"]["grade_id"]: c
        for c in (autograded.cells if autograded else [])
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    }
    neighbours = {c.diagnosis.name: c.diagnosis for c in graded.cells if c.diagnosis is not None}

    def words(exercise, visible=False):  # as the feedback page says them (grader.feedback.preprocessor)
        calls = (
            source_outcome(exercise.name, sources_before(autograded, exercise.name))["reaches"] if autograded else ()
        )
        near = {name: _visible(d) for name, d in neighbours.items()} if visible else neighbours
        return exercise_text(_visible(exercise) if visible else exercise, calls, near)

    return [
        _test(f"{position}.{n}", graded.notebook, cell, cells.get(cell.grade_id), words)
        for n, cell in enumerate(graded.cells, 1)
    ]


def _test(number, notebook, cell, ran, words):
    name = f"{cell.name} ({notebook})"
    score = None if cell.status == NEEDS_MANUAL else (cell.score or 0.0)
    exercise = exercise_of_grade_id(cell.grade_id) if cell.kind == TEST else None
    note = _status_line(cell)
    if exercise:
        hidden = bool(hidden_parts(exercise))
        if cell.diagnosis is None:
            return Entry(name, number, score, cell.max_score, note, hidden, note, False)
        visible = _visible(cell.diagnosis)
        passed = visible.status == GRADED and all(p.score >= p.points for p in visible.parts)
        return Entry(
            name,
            number,
            score,
            cell.max_score,
            _join(note, words(cell.diagnosis)),
            hidden,
            _join(note, words(cell.diagnosis, visible=True)),
            passed,
        )
    hidden, shown = _plain_outputs(ran)
    return Entry(name, number, score, cell.max_score, _join(note, shown), hidden)


def without_machine_paths_in(entry, folders):
    """The entry, its words without a path of the grading machine (``folders``: more of its folders)."""
    clean = functools.partial(without_machine_paths, folders=folders)
    visible = entry.visible_output
    return dataclasses.replace(entry, output=clean(entry.output), visible_output=visible and clean(visible))


def _visible(exercise):
    """The record of an exercise with its visible checks alone."""
    return dataclasses.replace(exercise, parts=[p for p in exercise.parts if not p.hidden], note=None)


def _status_line(cell):
    """Why a cell's score is not an ordinary one, unless the exercise's own diagnosis says it."""
    if cell.status == GRADED or (cell.diagnosis is not None and cell.diagnosis.status != GRADED):
        return ""
    return f"{cell.reason[0].upper()}{cell.reason[1:]}." if cell.reason else ""


def _plain_outputs(cell):
    """(had hidden tests, the text of the cell's outputs with every hidden line taken out)."""
    if cell is None:
        return False, ""
    cell = copy.deepcopy(cell)
    hidden = bool(hidden_lines(cell))
    clear_hidden_tests(cell)
    texts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            texts.append(output.text)
        elif output.output_type == "error":
            texts.append("\n".join(ANSI.sub("", line) for line in output.traceback))
        elif "text/plain" in output.get("data", {}):
            texts.append(output.data["text/plain"])
    return hidden, "\n".join(t.rstrip("\n") for t in texts)


def _join(*texts):
    return "\n".join(t for t in texts if t)


def read_autograded(path):
    """The autograded notebook, or None."""
    return nbformat.read(path, as_version=4) if path.exists() else None
