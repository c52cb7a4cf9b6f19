"""The class compared, notebook by notebook: every pair of students scored, the pairs beyond chance flagged, the
short answers that several students wrote alike, and the answers that are the reference solution itself.

- A pair's score is the sum, over the notebook's exercises, of the evidence of their two answers
  (grader/similarity/scoring.py): several rare answers in common add up, a common one adds little.
- Flagged: a pair whose score few classes of students who worked apart would reach, by any pair: the class's
  answers shuffled between its students (grader/similarity/shuffles.py).
- Short answers (a one-line ``torch.softmax(x, dim=-1)``) have too little code to tell copying from the one way
  to write them: they count in no score; the students who wrote the same one, token for token, are grouped, the
  rarest answers first.
- Long answers equal to the reference solution (up to names, order and loops) count in no score either, and are
  grouped per exercise: what they have in common is public.
"""

import dataclasses

import numpy as np

from .fingerprints import read_all, starter
from .scoring import score
from .shuffles import LEVEL, chance
from .tokens import words

SHORT = 40  # characters of normalised code of its own (a line is 10 to 30)


@dataclasses.dataclass
class Shared:
    """What a pair's answers to one exercise have in common."""

    exercise: str
    similarity: float
    close: int  # students whose answer is at least this close to either one's, the two included
    answered: int
    evidence: float  # bits


@dataclasses.dataclass
class Pair:
    notebook: str
    first: str
    second: str
    score: float
    reached: int  # shuffled classes with a pair that scores as much
    flagged: bool
    shared: list  # Shared of the exercises with evidence, the most first


@dataclasses.dataclass
class Group:
    """Students who wrote the same answer to an exercise: a short one, or the reference solution."""

    notebook: str
    exercise: str
    students: list
    answered: int  # students who answered the exercise
    code: str  # the first student's answer (a short answer: its lines that the stub does not have)
    equals_reference: bool


@dataclasses.dataclass
class Notebook:
    """Every pair of the students who handed in one notebook."""

    name: str
    students: list
    scores: np.ndarray  # n×n, by ``students``
    exercises: dict  # grade_id: (rows into students, scoring.ExerciseScores)
    chance: object  # shuffles.Chance
    flag_above: float  # a pair that scores more is flagged

    def flags(self, score):
        """Whether a pair of this score is flagged."""
        return score > self.flag_above and score > 0

    def pair_scores(self):
        return self.scores[np.triu_indices(len(self.students), k=1)]

    def median(self):
        return float(np.median(self.pair_scores())) if len(self.students) >= 2 else 0.0

    def ranked(self):
        """[(score, first, second)] of every pair, the highest first (ties by name)."""
        first, second = np.triu_indices(len(self.students), k=1)
        found = [(float(self.scores[i, j]), self.students[i], self.students[j]) for i, j in zip(first, second)]
        return sorted(found, key=lambda p: (-p[0], p[1], p[2]))

    def pair(self, first, second):
        """The :class:`Pair` of two of its students."""
        i, j = self.students.index(first), self.students.index(second)
        shared = []
        for exercise, (rows, scores) in self.exercises.items():
            if i in rows and j in rows:
                a, b = rows.index(i), rows.index(j)
                if scores.evidence[a, b] > 0:
                    shared.append(
                        Shared(
                            exercise,
                            float(scores.similarity[a, b]),
                            int(scores.close[a, b]),
                            len(rows),
                            float(scores.evidence[a, b]),
                        )
                    )
        shared.sort(key=lambda s: (-s.evidence, s.close, s.exercise))
        value = float(self.scores[i, j])
        return Pair(self.name, first, second, value, self.chance.reached(value), self.flags(value), shared)


@dataclasses.dataclass
class Similarity:
    level: float  # the share of shuffled classes that may reach a flagged score
    notebooks: dict  # name: Notebook
    short: list  # Groups of short answers, rarest first
    public: list  # Groups of long answers equal to the reference solution
    students: int
    unreadable: list

    def flagged(self):
        """The flagged :class:`Pair`\\ s of every notebook, the least likely by chance first."""
        found = [
            notebook.pair(first, second)
            for notebook in self.notebooks.values()
            for value, first, second in notebook.ranked()
            if notebook.flags(value)
        ]
        return sorted(found, key=lambda p: (p.reached, -p.score, p.notebook, p.first, p.second))


def compare(answers, level=LEVEL):
    """The :class:`Similarity` of a :class:`~grader.similarity.answers.ClassAnswers`."""
    starters = {(nb, g): starter(stub) for nb, stubs in answers.stubs.items() for g, stub in stubs.items()}
    read = read_all(
        [
            ((nb, g), code)
            for handed in answers.students.values()
            for nb, codes in handed.items()
            for g, code in codes.items()
            if (nb, g) in starters
        ]
        + [
            ((nb, g), code)
            for nb, codes in answers.references.items()
            for g, code in codes.items()
            if (nb, g) in starters
        ],
        starters,
    )
    notebooks, short, public = {}, [], []
    for notebook, stubs in answers.stubs.items():
        students = sorted(s for s, handed in answers.students.items() if notebook in handed)
        scores, exercises = np.zeros((len(students), len(students))), {}
        for exercise, stub in stubs.items():
            reference = answers.references.get(notebook, {}).get(exercise)
            sources = [answers.students[s][notebook].get(exercise) for s in students]
            done = _exercise(notebook, exercise, stub, reference, sources, read)
            if done is None:
                continue
            rows, scored, found_short, found_public = done
            scores[np.ix_(rows, rows)] += scored.evidence
            exercises[exercise] = (rows, scored)
            short += [dataclasses.replace(g, students=[students[i] for i in g.students]) for g in found_short]
            public += [dataclasses.replace(g, students=[students[i] for i in g.students]) for g in found_public]
        odds = chance(len(students), [(rows, scored.evidence) for rows, scored in exercises.values()])
        notebooks[notebook] = Notebook(notebook, students, scores, exercises, odds, odds.flag_above(level))
    short.sort(key=lambda g: (len(g.students), -g.answered, g.notebook, g.exercise))
    return Similarity(level, notebooks, short, public, len(answers.students), answers.unreadable)


def _exercise(notebook, exercise, stub, reference, sources, read):
    """(rows, ExerciseScores, short groups, public groups) of one exercise (``sources``: each student's answer,
    None where the cell is missing), or None if fewer than two students answered it."""
    unanswered = words(stub)
    rows = [
        n
        for n, source in enumerate(sources)
        if source is not None and read[(notebook, exercise), source].words != unanswered
    ]
    if len(rows) < 2:
        return None
    found = [read[(notebook, exercise), sources[n]] for n in rows]
    long = np.array([f.own >= SHORT for f in found], dtype=bool)
    public_form = read[(notebook, exercise), reference].form if reference is not None else None
    is_public = long & np.array([f.form == public_form for f in found], dtype=bool)
    compared = np.outer(long, long) & ~np.outer(is_public, is_public)
    scored = score([(f.kgrams, f.statements) for f in found], compared)
    public = []
    if is_public.sum() >= 2:
        members = [rows[i] for i in np.flatnonzero(is_public)]
        public.append(Group(notebook, exercise, members, len(rows), sources[members[0]], True))
    return rows, scored, _short_groups(notebook, exercise, stub, reference, sources, rows, found), public


def _short_groups(notebook, exercise, stub, reference, sources, rows, found):
    """The groups of two or more students whose short answers (``found``: each row's Answer) have the same tokens;
    each group's ``code`` is the lines of the first one's answer that the stub does not have."""
    alike = {}
    for row, read in zip(rows, found):
        if read.own < SHORT:
            alike.setdefault(read.words, []).append(row)
    public = words(reference) if reference is not None else None
    given = {line.strip() for line in stub.splitlines()}
    return [
        Group(
            notebook,
            exercise,
            members,
            len(rows),
            "\n".join(line for line in sources[members[0]].splitlines() if line.strip() not in given),
            code == public,
        )
        for code, members in alike.items()
        if len(members) >= 2
    ]
