"""Wrong answers: what a student who makes a mistake writes. Instructor only, as all of ``grader/hidden/`` is.

Each exercise module (grader/exercises/) lists its exercises' wrong answers (``WRONG_ANSWERS``), most often the
instructor's answer cell with the lines that make the mistake changed (grader/hidden/edits.py). A wrong answer
calls no other exercise and runs on its own, so that the same text is a demo student's answer
(grader/demo/mistakes.py), a test's, and the hidden checks' way to recognise the mistake
(grader/hidden/catalogue.py). The release never writes them into the student's copy (grader/release/compile.py).
"""

import dataclasses
import functools
from dataclasses import dataclass

from ..checks.misconceptions import MISCONCEPTIONS
from ..checks.registry import modules
from .edits import with_imports


@dataclass(frozen=True)
class Wrong:
    """A wrong answer to ``exercise``, as its answer cell's code (imports left to :attr:`source`); ``name`` tells it
    from the exercise's other wrong answers, ``demo`` hands it out in the demo class, ``misconception`` is the
    catalogue's key of the mistake it makes (None: a mistake the catalogue does not name). ``unseen``: it is right
    on everything the notebook shows and wrong only elsewhere (fixed numbers, say), so that only the hidden parts
    can catch it; every other wrong answer fails a visible part (tests/checks/test_checks.py)."""

    exercise: str
    name: str
    code: str
    demo: bool = False
    misconception: str | None = None
    unseen: bool = False

    @property
    def source(self):
        """The answer cell as it runs on its own: the imports its code uses, then the code."""
        return with_imports(self.code)

    def answer(self):
        """The function or class that the cell defines."""
        return _defined(self.source, self.exercise)


def making(key, *wrong):
    """The wrong answers ``wrong``, each making the misconception ``key``."""
    return tuple(dataclasses.replace(w, misconception=key) for w in wrong)


@functools.cache
def _defined(source, name):
    """What running ``source`` binds to ``name``."""
    namespace = {}
    exec(source, namespace)
    return namespace[name]


def wrong_answers():
    """Every exercise module's wrong answers, in notebook order."""
    return tuple(w for module in modules().values() for w in getattr(module, "WRONG_ANSWERS", ()))


def by_misconception():
    """{misconception key: its wrong answers}, in the catalogue's order."""
    return {key: tuple(w for w in wrong_answers() if w.misconception == key) for key in MISCONCEPTIONS}


def answer(key, exercise, name):
    """The function or class of the wrong answer ``name`` to ``exercise``, which makes the misconception ``key``."""
    return {(w.exercise, w.name): w for w in wrong_answers() if w.misconception == key}[exercise, name].answer()
