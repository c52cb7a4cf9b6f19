"""How high a pair's score gets by chance in this class: a permutation test with the highest score of all the
pairs as its statistic (Westfall and Young 1993, "Resampling-based multiple testing").

The answers to each exercise are shuffled between the students who answered it, each exercise on its own: that
makes a class of students who worked apart, with this class's own answers, as common or as rare as they are. A
pair of the class is flagged when at most a share ``level`` of :data:`SHUFFLES` such classes have any pair that
scores as high: the highest pair, not a random one, since every pair is looked at. The shuffles are drawn from a
fixed seed: the same class gives the same flags on every run.
"""

import bisect
import dataclasses

import numpy as np

SHUFFLES = 100
LEVEL = 0.1  # the default share of shuffled classes that may reach a flagged score
SEED = 0


@dataclasses.dataclass(frozen=True)
class Chance:
    highest: tuple  # the highest pair score of each shuffled class, in increasing order

    def reached(self, score):
        """How many shuffled classes have a pair that scores ``score`` or more."""
        return len(self.highest) - bisect.bisect_left(self.highest, score)

    def flag_above(self, level):
        """The score above which a pair is flagged at ``level``: at most ``level`` of the shuffled classes reach it."""
        allowed = int(level * len(self.highest) + 1e-9)
        return self.highest[len(self.highest) - allowed - 1] if allowed < len(self.highest) else 0.0


def chance(count, exercises):
    """The :class:`Chance` of a notebook of ``count`` students, from its exercises' ``(rows, evidence)`` (the students
    who answered it, and the evidence matrix of their pairs)."""
    generator = np.random.default_rng(SEED)
    upper = np.triu_indices(count, k=1)
    highest = []
    for _ in range(SHUFFLES):
        total = np.zeros((count, count))
        for rows, evidence in exercises:
            order = generator.permutation(len(rows))
            total[np.ix_(rows, rows)] += evidence[np.ix_(order, order)]
        highest.append(float(total[upper].max(initial=0.0)))
    return Chance(tuple(sorted(highest)))
