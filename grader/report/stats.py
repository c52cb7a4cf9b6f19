"""Class statistics from the course's grades: totals, pass rates, misconceptions, the hardest exercise."""

from collections import Counter
from dataclasses import dataclass, field

from ..course.review import not_handed_in, to_do


@dataclass
class ExerciseStats:
    name: str
    graded: int  # students whose score for it is real
    passed: int  # of those, with full marks
    mean_fraction: float
    notebook: str = ""  # the notebook's file name: two notebooks may have exercises of the same name

    @property
    def pass_rate(self):
        return self.passed / self.graded if self.graded else 0.0


@dataclass(frozen=True)
class Attention:
    """A notebook handed in that needs a person, and what they must do about it (grader/course/review.py's words)."""

    student: str
    notebook: str
    what: str


@dataclass(frozen=True)
class Late:
    """A notebook handed in after the due date, and by how much (in words; '' when only a penalty says so)."""

    student: str
    notebook: str
    by: str


@dataclass
class ClassStats:
    totals: dict  # student: (score, max score) over the notebooks, late penalties taken off
    exercises: list  # ExerciseStats, in the order first met
    misconceptions: dict  # misconception: how many students made it, most first
    need_a_person: list  # Attention: each notebook handed in that needs a person (no real score, a changed cell...)
    handed_in_nothing: list = field(default_factory=list)  # students with no notebook handed in: not real zeros
    titles: dict = field(default_factory=dict)  # notebook file name: its title, to name exercises by notebook
    late: list = field(default_factory=list)  # Late: each notebook handed in after the due date, penalty or not
    not_handed_in: dict = field(default_factory=dict)  # student: [notebook, ...] not handed in, as the grade table

    @property
    def hardest(self):
        graded = [e for e in self.exercises if e.graded]
        return min(graded, key=lambda e: (e.mean_fraction, e.pass_rate)) if graded else None

    @property
    def handed_in(self):
        """{student: (score, max score)} of the students who handed in something."""
        return {s: total for s, total in self.totals.items() if s not in self.handed_in_nothing}


def class_stats(grades, titles=None):
    """The statistics of a list of :class:`grader.course.grades.NotebookGrade`: scores from the gradebook; ``titles``
    names the notebooks."""
    totals, scores, students_with, handed_in = {}, {}, {}, set()
    for notebook in grades:
        score, most = totals.get(notebook.student, (0.0, 0.0))
        totals[notebook.student] = (score + notebook.score, most + notebook.max_score)
        if notebook.status != "missing":
            handed_in.add(notebook.student)
        for cell in notebook.cells:
            if cell.score is not None:
                scores.setdefault((notebook.notebook, cell.name), []).append(
                    cell.score / cell.max_score if cell.max_score else 1.0
                )
            for misconception in cell.misconceptions:
                students_with.setdefault(misconception, set()).add(notebook.student)
    keys = list(dict.fromkeys((n.notebook, c.name) for n in grades for c in n.cells))
    exercises = [_exercise(notebook, name, scores.get((notebook, name), [])) for notebook, name in keys]
    counts = Counter({name: len(students) for name, students in students_with.items()})
    return ClassStats(
        totals,
        exercises,
        dict(counts.most_common()),
        [Attention(n.student, n.notebook, to_do(n)) for n in grades if n.status != "missing" and n.needs_attention],
        sorted(set(totals) - handed_in),
        titles or {},
        [Late(n.student, n.notebook, n.late_by or "") for n in grades if n.status != "missing" and n.late],
        dict(sorted(not_handed_in(grades).items())),
    )


def _exercise(notebook, name, fractions):
    mean = sum(fractions) / len(fractions) if fractions else 0.0
    return ExerciseStats(name, len(fractions), sum(f >= 1.0 for f in fractions), mean, notebook)
