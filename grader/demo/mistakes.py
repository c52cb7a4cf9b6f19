"""Every known wrong answer (each exercise module's ``WRONG_ANSWERS``, grader/exercises/), as the demo hands them
out: the tests grade them all; the demo class gets ``MISTAKES``."""

from dataclasses import dataclass

from ..hidden.wrong_answers import Wrong, by_misconception, wrong_answers


@dataclass(frozen=True)
class Mistake:
    """A wrong answer as the demo hands it out."""

    wrong: Wrong

    @property
    def misconception(self):
        """The catalogue's misconception it makes (None: it makes none that is named)."""
        return self.wrong.misconception

    @property
    def exercise(self):
        return self.wrong.exercise

    @property
    def source(self):
        return self.wrong.source

    @property
    def label(self):
        return f"mistake:{self.misconception}" if self.misconception else "hardcoded"


# Every wrong answer: the catalogue's, then the unnamed ones.
WRONG_ANSWERS = (
    *(Mistake(w) for wrong in by_misconception().values() for w in wrong),
    *(Mistake(w) for w in wrong_answers() if w.misconception is None),
)
# The demo class's, in the order grader/demo/roster.py hands them out.
MISTAKES = tuple(m for m in WRONG_ANSWERS if m.wrong.demo)
