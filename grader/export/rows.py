"""The grade table: one row per student and exercise, a score that is not real left blank."""
from ..records import EXERCISE_STATUSES, GRADED, NOTEBOOK_STATUSES, ExerciseRecord
from ..checks.registry import exercise_of_grade_id

COLUMNS = ["student", "notebook", "exercise", "score", "max_score", "status", "reason", "misconceptions",
           "needs_attention"]
REAL_SCORES = {GRADED, "undefined", "tampered"}  # undefined: the student never wrote it, a real zero

WHOLE_NOTEBOOK = ExerciseRecord("(whole notebook)", 0.0, 0.0, status="ungraded")


def rows(records):
    """A row per exercise; a notebook whose exercises are unknown still gets one row, so it is seen."""
    return [_row(record, exercise) for record in records for exercise in record.exercises or [WHOLE_NOTEBOOK]]


def _row(record, exercise):
    """The exercise's row; when its score is not a real score, the score is blank and the status says why."""
    tampered = _tampered_exercises(record)
    if record.status != GRADED:
        status, reason = record.status, record.reason or NOTEBOOK_STATUSES.get(record.status)
    elif exercise.status == GRADED and exercise.name in tampered:
        status, reason = "tampered", f"its test cell was {tampered[exercise.name]}"
    else:
        status = exercise.status
        reason = exercise.reason or (EXERCISE_STATUSES.get(status) if status != GRADED else None)
    unplaced = any(exercise_of_grade_id(t.get("grade_id", "")) is None for t in record.tampered)
    return {"student": record.student, "notebook": record.notebook, "exercise": exercise.name,
            "score": f"{exercise.score:g}" if status in REAL_SCORES else "",
            "max_score": f"{exercise.max_score:g}", "status": status, "reason": reason or "",
            "misconceptions": ";".join(sorted({p.misconception for p in exercise.parts if p.misconception})),
            "needs_attention": "yes" if status not in (GRADED, "undefined") or unplaced else "no"}


def _tampered_exercises(record):
    """{exercise: how its test cell was changed} for the tampered cells that name an exercise."""
    return {exercise_of_grade_id(t.get("grade_id", "")): t.get("change", "changed") for t in record.tampered}
