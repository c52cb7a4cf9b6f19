"""Class statistics from the course's grades: totals, pass rates, misconceptions, the hardest exercise."""
from collections import Counter
from dataclasses import dataclass, field



@dataclass
class ExerciseStats:
    name: str
    graded: int       # students whose score for it is real
    passed: int       # of those, with full marks
    mean_fraction: float
    notebook: str = ""  # the notebook's file name: two notebooks may have exercises of the same name

    @property
    def pass_rate(self):
        return self.passed / self.graded if self.graded else 0.0


@dataclass
class ClassStats:
    totals: dict          # student: (score, max score) over the notebooks, late penalties taken off
    exercises: list       # ExerciseStats, in the order first met
    misconceptions: dict  # misconception: how many students made it, most first
    need_a_person: int    # notebooks handed in that need a person (no real score, a changed test cell...)
    handed_in_nothing: list = field(default_factory=list)  # students with no notebook handed in: not real zeros
    titles: dict = field(default_factory=dict)  # notebook file name: its title, to name exercises by notebook

    @property
    def hardest(self):
        graded = [e for e in self.exercises if e.graded]
        return min(graded, key=lambda e: (e.mean_fraction, e.pass_rate)) if graded else None

    @property
    def handed_in(self):
        """{student: (score, max score)} of the students who handed in something."""
        return {s: total for s, total in self.totals.items() if s not in self.handed_in_nothing}


def class_stats(grades, titles=None):
    """The statistics of a list of :class:`grader.grades.NotebookGrade`: scores from the gradebook; ``titles``
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
                    cell.score / cell.max_score if cell.max_score else 1.0)
            for misconception in cell.misconceptions:
                students_with.setdefault(misconception, set()).add(notebook.student)
    keys = list(dict.fromkeys((n.notebook, c.name) for n in grades for c in n.cells))
    exercises = [_exercise(notebook, name, scores.get((notebook, name), [])) for notebook, name in keys]
    counts = Counter({name: len(students) for name, students in students_with.items()})
    return ClassStats(totals, exercises, dict(counts.most_common()),
                      sum(n.status != "missing" and n.needs_attention for n in grades), sorted(set(totals) - handed_in),
                      titles or {})


def _exercise(notebook, name, fractions):
    mean = sum(fractions) / len(fractions) if fractions else 0.0
    return ExerciseStats(name, len(fractions), sum(f >= 1.0 for f in fractions), mean, notebook)
