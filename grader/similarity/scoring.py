"""One exercise: how similar every pair of answers is, and how much that says, given how rare what they share is.

- A fingerprint held by ``d`` of the ``N`` students who answered counts ``log(N / d)``: its inverse document
  frequency (Spärck Jones 1972, "A statistical interpretation of term specificity"). What everyone writes counts
  for nothing, as the passages that MOSS's ``-m`` ignores.
- The similarity of two answers is Sørensen–Dice on those weights, twice the weight they share over the weight of
  both, for each kind of fingerprint (tokens, statements: grader/similarity/fingerprints.py); the higher of the
  two counts. It is 1 for the same code up to names, layout, order and loops.
- The evidence of a pair is that similarity times ``log2((N - 1) / (n - 1))`` bits, where ``n`` counts the
  students whose answer is at least as close to either one's (the two included): ``(n - 1) / (N - 1)`` is the
  chance that another student's answer comes that close to one of theirs. An answer only the two wrote, in a
  class of 41, is 5.3 bits; one that 11 students wrote, 2 bits; one that everyone wrote, none. A long answer
  that many students hand in thus counts less than a short one that only two wrote.
"""

import dataclasses

import numpy as np

CLOSE = 1e-9  # similarities this near are equal


@dataclasses.dataclass
class ExerciseScores:
    """Every pair of the ``N`` answers of one exercise (n×n matrices, in the order given)."""

    similarity: np.ndarray
    close: np.ndarray  # students whose answer is at least as close to either one's, the two included
    evidence: np.ndarray  # bits; 0 for a pair not compared
    weights: dict  # fingerprint: its weight, for those two or more answers hold


def score(prints, compared):
    """The :class:`ExerciseScores` of answers with fingerprints ``prints`` (for each, a tuple of sets: one per kind of
    fingerprint), where ``compared`` (a boolean n×n matrix) says which pairs count (long answers, not both the
    public solution). The similarity of two answers is the higher of their kinds'."""
    count = len(prints)
    similarity, weights = np.zeros((count, count)), {}
    for kind in range(len(prints[0]) if prints else 0):
        found, weight = dice([p[kind] for p in prints])
        similarity = np.maximum(similarity, found)
        weights.update(weight)
    close = closeness(similarity)
    bits = np.log2((count - 1) / np.maximum(close - 1, 1))
    evidence = np.where(compared & ~np.eye(count, dtype=bool), similarity * bits, 0.0)
    return ExerciseScores(similarity, close, evidence, weights)


def dice(prints):
    """(Sørensen–Dice of every pair of fingerprint sets, weighted by inverse document frequency; {fingerprint: its
    weight} of those two or more sets hold)."""
    count = len(prints)
    held = {}
    for row, found in enumerate(prints):
        for h in found:
            held.setdefault(h, []).append(row)
    weight = {h: float(np.log(count / len(rows))) for h, rows in held.items()}
    sizes = np.array([sum(weight[h] for h in found) for found in prints])
    shared = sorted(h for h, rows in held.items() if len(rows) >= 2 and weight[h] > 0)
    matrix = np.zeros((count, len(shared)))
    for column, h in enumerate(shared):
        matrix[held[h], column] = np.sqrt(weight[h])
    common = matrix @ matrix.T
    total = sizes[:, None] + sizes[None, :]
    similarity = np.minimum(np.divide(2 * common, total, out=np.zeros_like(common), where=total > 0), 1.0)
    np.fill_diagonal(similarity, (sizes > 0).astype(float))
    return similarity, {h: weight[h] for h in shared}


def closeness(similarity):
    """For every pair (a, b): how many answers c are at least as close to a or to b as they are to each other."""
    count = len(similarity)
    close = np.zeros((count, count), dtype=np.int64)
    for a in range(count):
        nearest = np.maximum(similarity[a][None, :], similarity)  # [b, c]: c's closeness to a or to b
        close[a] = (nearest >= similarity[a][:, None] - CLOSE).sum(axis=1)
    return close
