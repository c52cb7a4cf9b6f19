"""The course's grades, as the instructor's verbs show them: the gradebook's scores, the records' diagnoses.

Scores come from nbgrader's gradebook only (autograded and manual scores, late penalties, how late each
submission was). The
kit's grading records add what the gradebook cannot say: why a notebook or a test cell has no
real score, which nbgrader cells the student changed, and each failed check's message and
misconception. The two are joined by (student, notebook, grade_id).
"""

import math
import pathlib
from dataclasses import dataclass, field

from ..checks.registry import graded_exercise
from ..records import TEST_CELL, ExerciseRecord, read_all, statuses
from ..records.statuses import BY_HAND, GRADED, NEEDS_MANUAL, STATUSES
from . import gradebook as book


@dataclass
class CellGrade:
    """One graded cell of one student's notebook. ``score`` is None when it is not a real score."""

    grade_id: str
    kind: str  # test, answer, written answer or task (see grader.course.gradebook)
    score: float | None
    max_score: float
    status: str
    reason: str | None
    diagnosis: ExerciseRecord | None = None  # the kit's record of this test cell, if it has one

    @property
    def name(self):
        """The kit's exercise name for a kit test cell, else the cell's grade_id."""
        return graded_exercise(self.grade_id) or self.grade_id

    @property
    def misconceptions(self):
        parts = self.diagnosis.parts if self.diagnosis else []
        return sorted({p.misconception for p in parts if p.misconception and p.score < p.points})

    @property
    def needs_attention(self):
        return statuses.needs_attention(self.status)


@dataclass
class NotebookGrade(book.LessLatePenalty):
    """One student's notebook: the gradebook's scores for each graded cell, its late penalty, its status, and how
    many seconds after the due date it was handed in (0 when on time, or without a due date)."""

    student: str
    notebook: str  # the file name, ``<name>.ipynb``
    status: str
    reason: str | None
    raw_score: float
    max_score: float
    late_penalty: float = 0.0
    tampered: list = field(default_factory=list)
    isolation: str | None = None
    cells: list = field(default_factory=list)
    seconds_late: float = 0.0

    @property
    def needs_attention(self):
        return statuses.needs_attention(self.status, *(c.status for c in self.cells)) or bool(self.tampered)

    @property
    def late(self):
        """Handed in after the due date, whether or not the course sets a late penalty. nbgrader takes a penalty
        off late work only, so a penalty says late too (an extension given after grading leaves the penalty until the
        notebook is graded again)."""
        return self.seconds_late > 0 or self.late_penalty > 0

    @property
    def late_by(self):
        """How late, in words ('2 hours 5 minutes'); '' when on time or when only the penalty says it was late."""
        return time_in_words(self.seconds_late) if self.seconds_late > 0 else ""


UNITS = (("day", 86400), ("hour", 3600), ("minute", 60))


def time_in_words(seconds):
    """A length of time in plain words, rounded down to its two largest units: '1 day 3 hours', '2 hours 5 minutes',
    '1 minute'; under a minute, in seconds ('40 seconds', 'less than a second')."""
    whole = int(seconds)
    if whole < 60:
        return _count(whole, "second") if whole else "less than a second"
    counts = []
    for unit, length in UNITS:
        counts.append((whole // length, unit))
        whole %= length
    first = next(n for n, (count, _) in enumerate(counts) if count)
    return " ".join(_count(count, unit) for count, unit in counts[first : first + 2] if count)


def _count(count, unit):
    return f"{count} {unit}{'' if count == 1 else 's'}"


def course_grades(course, released=None):
    """Every student's every notebook, sorted by student and notebook; a notebook not handed in is 'missing'.
    The gradebook is read once, and the release (``released``: Course.released_notebooks(), read here if None)."""
    gradebook = book.read_scores(course)
    cells = gradebook.cells
    scores = {(s.student, s.notebook, s.grade_id): s for s in gradebook.cell_scores}
    notebooks = {(n.student, n.notebook): n for n in gradebook.notebook_scores}
    records = {(r.student, _stem(r.notebook)): r for r in read_all(course)}
    names = sorted({c.notebook for c in cells} | {stem for _, stem in records})
    students = sorted({p.id for p in gradebook.students} | {s for s, _ in notebooks} | {s for s, _ in records})
    positions = _positions(course.released_notebooks() if released is None else released)
    in_order = {
        name: sorted(
            (c for c in cells if c.notebook == name),
            key=lambda c: (positions.get(c.notebook, {}).get(c.grade_id, math.inf), c.grade_id),
        )
        for name in names
    }
    return [
        _notebook_grade(
            course, student, name, records.get((student, name)), notebooks.get((student, name)), in_order[name], scores
        )
        for student in students
        for name in names
    ]


def _notebook_grade(course, student, name, record, scored, cells, scores):
    if record is not None:
        status, reason = record.status, record.reason
    elif (course.submitted(student) / f"{name}.ipynb").exists():
        status, reason = GRADED, None
    else:
        status, reason = "missing", None
    diagnoses = {e.cell: e for e in record.exercises} if record else {}
    tampered = {t.get("grade_id"): t for t in record.tampered} if record else {}
    reason = reason or STATUSES[status].notebook
    graded = [
        _cell_grade(
            cell,
            scores.get((student, name, cell.grade_id)),
            (status, reason),
            diagnoses.get(cell.grade_id),
            tampered.get(cell.grade_id),
        )
        for cell in cells
    ]
    return NotebookGrade(
        student,
        f"{name}.ipynb",
        status,
        reason,
        scored.raw_score if scored else 0.0,
        sum(c.max_score for c in cells),
        scored.late_penalty if scored else 0.0,
        record.tampered if record else [],
        record.isolation if record else None,
        graded,
        scored.seconds_late if scored and status != "missing" else 0.0,
    )  # not handed in: not late


def _cell_grade(cell, scored, notebook, diagnosis, tampered):
    if scored is not None and scored.manual_score is not None:
        status, reason = BY_HAND, None
    elif notebook[0] != GRADED:
        status, reason = notebook
    elif scored is None:
        status, reason = "ungraded", "nbgrader has no score for this cell"
    elif diagnosis is not None and diagnosis.status != GRADED:  # why the kit asked for a manual grade
        status, reason = diagnosis.status, diagnosis.reason
    elif scored.needs_manual_grade:
        status, reason = NEEDS_MANUAL, None
    elif tampered:
        status, reason = "tampered", f"its {tampered.get('cell', TEST_CELL)} was {tampered.get('change', 'changed')}"
    else:
        status, reason = GRADED, None
    score = scored.score if scored is not None and STATUSES[status].real else None
    return CellGrade(cell.grade_id, cell.kind, score, cell.max_score, status, reason or _why(status), diagnosis)


def _positions(released):
    """{notebook: {grade_id: position}} in the released notebooks, to list cells in the students' order."""
    positions = {}
    for name, nb in released.items():
        ids = [c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in nb.cells]
        positions[pathlib.PurePath(name).stem] = {grade_id: n for n, grade_id in enumerate(ids) if grade_id}
    return positions


def _stem(notebook):
    return pathlib.Path(notebook).stem


def _why(status):
    """Why a cell has the score it has, when its status says more than graded."""
    return STATUSES[status].exercise or STATUSES[status].notebook
