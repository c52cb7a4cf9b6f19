"""Class statistics from the grading records: totals, pass rates, misconceptions, the hardest exercise."""
from collections import Counter
from dataclasses import dataclass

from ..records import GRADED

REAL_SCORES = {GRADED, "undefined"}


@dataclass
class ExerciseStats:
    name: str
    graded: int       # students whose score for it is real
    passed: int       # of those, with full marks
    mean_fraction: float

    @property
    def pass_rate(self):
        return self.passed / self.graded if self.graded else 0.0


@dataclass
class ClassStats:
    totals: dict          # student: (score, max score) over the notebooks
    exercises: list       # ExerciseStats, in the order first met
    misconceptions: dict  # misconception: how many students made it, most first
    not_graded: int       # notebooks without a real score

    @property
    def hardest(self):
        graded = [e for e in self.exercises if e.graded]
        return min(graded, key=lambda e: (e.mean_fraction, e.pass_rate)) if graded else None


def class_stats(records):
    totals, scores, students_with = {}, {}, {}
    for record in records:
        score, most = totals.get(record.student, (0.0, 0.0))
        totals[record.student] = (score + record.score, most + sum(e.max_score for e in record.exercises))
        for exercise in record.exercises:
            if record.status == GRADED and exercise.status in REAL_SCORES:
                scores.setdefault(exercise.name, []).append(exercise.score / exercise.max_score
                                                            if exercise.max_score else 1.0)
            for part in exercise.parts:
                if part.misconception:
                    students_with.setdefault(part.misconception, set()).add(record.student)
    names = list(dict.fromkeys(e.name for r in records for e in r.exercises))
    exercises = [ExerciseStats(name, len(scores.get(name, [])), sum(f == 1.0 for f in scores.get(name, [])),
                               sum(scores.get(name, [])) / len(scores[name]) if scores.get(name) else 0.0)
                 for name in names]
    counts = Counter({name: len(students) for name, students in students_with.items()})
    return ClassStats(totals, exercises, dict(counts.most_common()),
                      sum(r.status != GRADED for r in records))
