"""Before and after: every score of the chosen notebooks that the new result set changes, and why.

Before is the live gradebook's score (a manual grade first, as everywhere in the kit); after is the score the
student would have once the new result set is applied: the new autograded score, or the manual grade, which is
kept. A row is also listed when only the status changed (a 0 that timed out, now a real 0) or when a manual grade
stands over a changed autograded score. Each row says why, from what changed since grading (the exercise module:
the kit's records name the parts whose score changed; the submitted file), the statuses and the late penalty.
"""

import math
from dataclasses import dataclass

from .. import records
from ..checks.registry import exercise_of_grade_id
from ..course.gradebook import read_scores
from ..records.statuses import GRADED, NEEDS_MANUAL, STATUSES
from .ledger import CHECK, SUBMISSION

LATE_PENALTY = "late penalty"


@dataclass(frozen=True)
class Change:
    """One changed score. ``grade_id`` is None for a notebook's late penalty (``before``/``after`` negative, as the
    export writes it); ``reasons`` are for the instructor, ``told`` for the student's feedback page (empty when the
    score the student sees does not change)."""

    student: str
    name: str
    notebook: str
    exercise: str
    grade_id: str | None
    before: float
    after: float
    max_score: float
    reasons: tuple
    told: tuple = ()

    @property
    def lower(self):
        return self.after < self.before - 1e-9

    @property
    def why(self):
        return "; ".join(self.reasons)


def number(value):
    return f"{value:g}"


def same(a, b):
    return math.isclose(a or 0.0, b or 0.0, abs_tol=1e-9)


def auto_status(record, grade_id, needs_manual):
    """The status of a cell's autograded score (a manual grade aside), from its notebook's grading record."""
    if record is not None and record.status != GRADED:
        return record.status
    exercise = next((e for e in record.exercises if e.cell == grade_id), None) if record else None
    if exercise is not None and exercise.status != GRADED:
        return exercise.status
    return NEEDS_MANUAL if needs_manual else GRADED


def changed_parts(old, new):
    """The parts of an exercise whose score changed between two records of it, in words."""
    before = {p.title: p for p in old.parts} if old else {}
    after = {p.title: p for p in new.parts} if new else {}
    words = []
    for title in list(before) + [t for t in after if t not in before]:
        a, b = before.get(title), after.get(title)
        if a is None or b is None or not same(a.score, b.score):
            show = lambda p: f"{number(p.score)}/{number(p.points)}" if p else "none"  # noqa: E731
            words.append(f"“{title}” {show(a)} → {show(b)}")
    return words


def _exercise(record, grade_id):
    return next((e for e in record.exercises if e.cell == grade_id), None) if record else None


def _record(course, student, notebook):
    path = records.record_path(course, student, notebook)
    return records.read(path) if path.exists() else None


def diff(live, scratch, selection):
    """Every :class:`Change` of ``selection``'s notebooks between the ``live`` and ``scratch`` courses."""
    old, new = read_scores(live), read_scores(scratch)
    old_cells = {(s.student, s.notebook, s.grade_id): s for s in old.cell_scores}
    new_cells = {(s.student, s.notebook, s.grade_id): s for s in new.cell_scores}
    old_books = {(s.student, s.notebook): s for s in old.notebook_scores}
    new_books = {(s.student, s.notebook): s for s in new.notebook_scores}
    names = {p.id: f"{p.first_name} {p.last_name}".strip() for p in old.students}
    order = {
        name: [c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in nb.cells]
        for name, nb in live.released_notebooks().items()
    }
    found = []
    for student, notebook in selection.pairs:
        stem = notebook.removesuffix(".ipynb")
        what = selection.changed.get((student, notebook), set())
        records_then, records_now = _record(live, student, notebook), _record(scratch, student, notebook)
        in_order = order.get(notebook, [])
        cells = sorted(
            (key for key in new_cells if key[:2] == (student, stem)),
            key=lambda key: (in_order.index(key[2]) if key[2] in in_order else len(in_order), key[2]),
        )
        for key in cells:
            then, now = old_cells.get(key), new_cells[key]
            if selection.cells is not None and now.grade_id not in selection.cells:
                continue
            change = _cell_change(
                student, names.get(student, ""), notebook, then, now, what, (records_then, records_now)
            )
            if change:
                found.append(change)
        then, now = old_books.get((student, stem)), new_books.get((student, stem))
        penalty_then, penalty_now = (then.late_penalty if then else 0.0), (now.late_penalty if now else 0.0)
        if selection.cells is None and not same(penalty_then, penalty_now):
            words = f"the late penalty: {number(penalty_then)} → {number(penalty_now)}"
            found.append(
                Change(
                    student,
                    names.get(student, ""),
                    notebook,
                    LATE_PENALTY,
                    None,
                    -penalty_then,
                    -penalty_now,
                    0.0,
                    (words,),
                    (words,),
                )
            )
    return found


def _cell_change(student, name, notebook, then, now, what, notebook_records):
    manual = then.manual_score if then else None
    before = then.score if then else 0.0
    after = manual if manual is not None else (now.auto_score or 0.0)
    record_then, record_now = notebook_records
    status_then = auto_status(record_then, now.grade_id, then.needs_manual_grade if then else True)
    status_now = auto_status(record_now, now.grade_id, now.needs_manual_grade)
    auto_then = then.auto_score if then else None
    if same(auto_then, now.auto_score) and status_then == status_now and same(before, after):
        return None
    reasons, told = [], []
    if status_then != status_now:
        then_words, now_words = STATUSES[status_then].csv, STATUSES[status_now].csv
        reasons.append(f"status changed: {then_words} → {now_words}")
        graded_now = not STATUSES[status_then].real and STATUSES[status_now].real
        told.append(
            f"it could not be graded before ({then_words}); now it is"
            if graded_now
            else f"its status changed from “{then_words}” to “{now_words}”"
        )
    if CHECK in what and not same(auto_then, now.auto_score):
        parts = changed_parts(_exercise(record_then, now.grade_id), _exercise(record_now, now.grade_id))
        reasons.append("the check changed" + (f" (part {', '.join(parts)})" if parts else ""))
        told.append("your instructor corrected its check" + (f" (part {', '.join(parts)})" if parts else ""))
    if SUBMISSION in what:
        reasons.append("the submission changed (the file handed in differs from the one graded)")
        told.append("a newer copy of your notebook was graded")
    if not reasons:
        reasons.append(
            "graded again: neither the check's module nor the submission changed (the grader's other "
            "code or settings may have)"
        )
        told.append("it was graded again")
    if manual is not None:
        reasons.append(
            f"a manual grade kept: {number(manual)} counts (autograded "
            f"{number(auto_then or 0.0)} → {number(now.auto_score or 0.0)})"
        )
        told = []  # the grade the student sees stays the manual one
    if same(before, after) and status_then == status_now:
        told = []
    return Change(
        student,
        name,
        notebook,
        exercise_of_grade_id(now.grade_id) or now.grade_id,
        now.grade_id,
        before,
        after,
        now.max_score,
        tuple(reasons),
        tuple(told),
    )
