"""What each student's passback would say: the score that ``export`` writes (the gradebook's total less the late
penalty; a manual grade from formgrader wins, as the gradebook has it), with AGS's progress words, or why there
is no score to post yet."""

from dataclasses import dataclass

from ..course.grades import course_grades
from ..export.lms.totals import totals
from ..records import statuses
from ..records.statuses import NEEDS_MANUAL, STATUSES

# AGS 2.0 (3.4.6, 3.4.7): a notebook handed in and fully graded is Completed and FullyGraded; a student who handed
# in nothing, posted as 0 on request, has not started: Initialized, and the 0 is final (FullyGraded).
HANDED_IN = ("Completed", "FullyGraded")
NOT_HANDED_IN = ("Initialized", "FullyGraded")
MISSING = "not handed in"


@dataclass(frozen=True)
class Score:
    """One student's score to post, out of the assignment's ``maximum``."""

    student: str
    score: float
    maximum: float
    activity: str
    grading: str
    total: object  # the export's Total: names, e-mail and LMS ids to match the student by


@dataclass(frozen=True)
class NoScore:
    """A student with no score to post, and why; ``handed_in``: False for a student who handed in nothing (the
    only reason that is not for the instructor to act on)."""

    student: str
    reason: str
    handed_in: bool = True


def plan(course, missing_as_zero=False):
    """([Score], [NoScore]) for every student of the gradebook, by id."""
    by_student = {}
    for notebook in course_grades(course):
        by_student.setdefault(notebook.student, []).append(notebook)
    ready, waiting = [], []
    for total in totals(course):
        reason = why_no_score(by_student.get(total.student, []))
        if reason == MISSING and missing_as_zero:
            ready.append(Score(total.student, 0.0, total.max_score, *NOT_HANDED_IN, total))
        elif reason == MISSING:
            waiting.append(NoScore(total.student, f"{reason} (--post-missing-as-zero posts 0)", handed_in=False))
        elif reason:
            waiting.append(NoScore(total.student, reason))
        else:
            ready.append(Score(total.student, total.score, total.max_score, *HANDED_IN, total))
    return ready, waiting


def why_no_score(notebooks):
    """Why a student's notebooks (:class:`grader.course.grades.NotebookGrade`) give no final total yet, or None: nothing
    handed in; a notebook or a cell that could not be graded; a cell waiting for a manual grade."""
    if all(n.status == "missing" for n in notebooks):
        return MISSING
    handed_in = [n for n in notebooks if n.status != "missing"]
    for notebook in handed_in:
        unscored = [notebook.status] if statuses.needs_manual_grade(notebook.status) else []
        unscored += [c.status for c in notebook.cells if statuses.needs_manual_grade(c.status)]
        broken = [s for s in unscored if s != NEEDS_MANUAL]
        if broken:
            return f"could not be graded: {notebook.notebook} {STATUSES[broken[0]].to_do}"
    waiting = [n.notebook for n in handed_in if any(c.status == NEEDS_MANUAL for c in n.cells)]
    if waiting:
        return f"waiting for a manual grade in formgrader ({', '.join(waiting)})"
    return None
