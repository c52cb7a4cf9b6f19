"""Class statistics from the course's grades: totals, pass rates, misconceptions, the hardest exercise."""
from collections import Counter
from dataclasses import dataclass

from ..records import GRADED


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
    totals: dict          # student: (score, max score) over the notebooks, late penalties taken off
    exercises: list       # ExerciseStats, in the order first met
    misconceptions: dict  # misconception: how many students made it, most first
    not_graded: int       # notebooks without a real score

    @property
    def hardest(self):
        graded = [e for e in self.exercises if e.graded]
        return min(graded, key=lambda e: (e.mean_fraction, e.pass_rate)) if graded else None


def class_stats(grades):
    """The statistics of a list of :class:`grader.grades.NotebookGrade`: scores from the gradebook."""
    totals, scores, students_with = {}, {}, {}
    for notebook in grades:
        score, most = totals.get(notebook.student, (0.0, 0.0))
        totals[notebook.student] = (score + notebook.score, most + notebook.max_score)
        for cell in notebook.cells:
            if cell.score is not None:
                scores.setdefault(cell.name, []).append(cell.score / cell.max_score if cell.max_score else 1.0)
            for misconception in cell.misconceptions:
                students_with.setdefault(misconception, set()).add(notebook.student)
    names = list(dict.fromkeys(c.name for n in grades for c in n.cells))
    exercises = [ExerciseStats(name, len(scores.get(name, [])), sum(f >= 1.0 for f in scores.get(name, [])),
                               sum(scores.get(name, [])) / len(scores[name]) if scores.get(name) else 0.0)
                 for name in names]
    counts = Counter({name: len(students) for name, students in students_with.items()})
    return ClassStats(totals, exercises, dict(counts.most_common()), sum(n.status != GRADED for n in grades))
