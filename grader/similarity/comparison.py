"""The class compared: per notebook and exercise, the pairs whose answers are similar, the short answers that
several students wrote alike, and the answers that are the reference solution itself.

- Flagged: two answers of an exercise whose similarity reaches the threshold, both long enough to fingerprint
  (:data:`SHORT` characters of filtered code or more, the starter code's aside).
- Short answers (a one-line ``torch.softmax(x, dim=-1)``) have too few fingerprints to compare: never flagged;
  the students who wrote the same one, token for token, are grouped, the rarest answers first.
- Long answers equal to the reference solution up to names (copydetect's filtered code) are grouped per
  exercise, not listed pair by pair: what they have in common is public.
"""

import dataclasses

import numpy as np

from .fingerprints import boilerplate, fingerprint, fingerprint_all, tokens
from .pairs import dice, shared_counts, upper_pairs

THRESHOLD = 0.5
SHORT = 40  # characters of filtered code of its own (a line is 10 to 30)


@dataclasses.dataclass
class Finding:
    """One exercise of a pair of students above the threshold."""

    exercise: str
    score: float
    in_reference: float  # the share of the fingerprints they have in common that the reference solution has too


@dataclasses.dataclass
class Entry:
    """A pair of students in one notebook, with their flagged exercises, most similar first."""

    notebook: str
    first: str
    second: str
    notebook_score: float
    findings: list

    @property
    def rank(self):
        return max(f.score for f in self.findings), self.notebook_score


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
class Similarity:
    threshold: float
    entries: list  # ranked, most similar first
    short: list  # Groups of short answers, rarest first
    public: list  # Groups of long answers equal to the reference solution
    notebook_scores: dict  # notebook -> the similarity of every pair of students who handed it in
    students: int
    unreadable: list


@dataclasses.dataclass
class _Exercise:
    """One exercise compared: ``rows`` are the students (indices into the notebook's) who answered it."""

    rows: list
    counts: np.ndarray
    sizes: np.ndarray
    flagged: list  # ((i, j) into rows, Finding)
    short: list
    public: list


def compare(answers, threshold=THRESHOLD):
    """The :class:`Similarity` of a :class:`~grader.similarity.answers.ClassAnswers`."""
    starters = {(nb, g): boilerplate(stub) for nb, stubs in answers.stubs.items() for g, stub in stubs.items()}
    prints = fingerprint_all(
        [
            ((nb, g), code)
            for handed in answers.students.values()
            for nb, codes in handed.items()
            for g, code in codes.items()
        ],
        starters,
    )
    entries, short, public, notebook_scores = [], [], [], {}
    for notebook, stubs in answers.stubs.items():
        students = sorted(s for s, handed in answers.students.items() if notebook in handed)
        counts, sizes = np.zeros((len(students), len(students))), np.zeros(len(students), dtype=np.int64)
        flagged = {}
        for exercise, stub in stubs.items():
            sources = [answers.students[s][notebook].get(exercise) for s in students]
            reference = answers.references.get(notebook, {}).get(exercise)
            done = _exercise(
                notebook, exercise, stub, starters[notebook, exercise], reference, sources, prints, threshold
            )
            counts[np.ix_(done.rows, done.rows)] += done.counts
            sizes[done.rows] += done.sizes
            for (i, j), finding in done.flagged:
                flagged.setdefault((students[done.rows[i]], students[done.rows[j]]), []).append(finding)
            short += [dataclasses.replace(g, students=[students[i] for i in g.students]) for g in done.short]
            public += [dataclasses.replace(g, students=[students[i] for i in g.students]) for g in done.public]
        scores = dice(counts, sizes)
        notebook_scores[notebook] = scores[upper_pairs(len(students))]
        index = {s: n for n, s in enumerate(students)}
        entries += [
            Entry(notebook, a, b, float(scores[index[a], index[b]]), sorted(found, key=lambda f: -f.score))
            for (a, b), found in flagged.items()
        ]
    entries.sort(key=lambda e: (-e.rank[0], -e.rank[1], e.notebook, e.first, e.second))
    short.sort(key=lambda g: (len(g.students), -g.answered, g.notebook, g.exercise))
    return Similarity(threshold, entries, short, public, notebook_scores, len(answers.students), answers.unreadable)


def _exercise(notebook, exercise, stub, starter, reference, sources, prints, threshold):
    """Compare the answers of one exercise (``sources``: each student's, None where the cell is missing;
    ``prints``: :func:`~grader.similarity.fingerprints.fingerprint_all`'s)."""
    unanswered = fingerprint(stub, window=1).filtered_code
    rows, found = [], []
    for n, source in enumerate(sources):
        if source is not None:
            made = prints[(notebook, exercise), source]
            if made.filtered_code != unanswered:
                rows.append(n)
                found.append(made)
    counts, sizes = shared_counts([f.hashes for f in found])
    scores = dice(counts, sizes)
    long = np.array([f.token_coverage >= SHORT for f in found], dtype=bool)
    public_print = fingerprint(reference, starter) if reference is not None else None
    is_public = long & np.array(
        [public_print is not None and f.filtered_code == public_print.filtered_code for f in found], dtype=bool
    )
    flagged = []
    candidates = np.triu(scores >= threshold, k=1) & np.outer(long, long) & ~np.outer(is_public, is_public)
    for i, j in np.argwhere(candidates):
        common = found[i].hashes & found[j].hashes
        in_reference = len(common & public_print.hashes) / len(common) if public_print and common else 0.0
        flagged.append(((int(i), int(j)), Finding(exercise, float(scores[i, j]), in_reference)))
    public = (
        [
            Group(
                notebook,
                exercise,
                [rows[i] for i in np.flatnonzero(is_public)],
                len(rows),
                sources[rows[int(np.flatnonzero(is_public)[0])]],
                True,
            )
        ]
        if is_public.sum() >= 2
        else []
    )
    short = _short_groups(notebook, exercise, stub, reference, sources, rows, long)
    return _Exercise(rows, counts, sizes, flagged, short, public)


def _short_groups(notebook, exercise, stub, reference, sources, rows, long):
    """The groups of two or more students whose short answers have the same tokens; each group's ``code`` is the
    lines of the first one's answer that the stub does not have."""
    alike = {}
    for row, is_long in zip(rows, long):
        if not is_long:
            alike.setdefault(tokens(sources[row]), []).append(row)
    public = tokens(reference) if reference is not None else None
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
