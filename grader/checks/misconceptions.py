"""The misconception catalogue: for each known mistake, a short title, what it is in words for a stuck student
and what the students did in words for their instructor (the class report).

Each exercise module (grader/exercises/) writes the words of the misconceptions it first meets
(``MISCONCEPTIONS``), beside the checks that recognise them; :data:`MISCONCEPTIONS` here gathers them all, in
notebook order. Words only: the wrong answers that make each mistake are the instructor's.
"""

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Misconception:
    """One known mistake, in words for each reader."""

    key: str
    title: str  # for reports that list the mistakes
    explanation: str  # for the student, as "likely mistake"
    for_instructors: str  # for the class report: what the students did


class Catalogue(Mapping):
    """{key: Misconception} of every exercise module, read on first use (importing the checks imports none)."""

    def __getitem__(self, key):
        return _gathered()[key]

    def __iter__(self):
        return iter(_gathered())

    def __len__(self):
        return len(_gathered())


def _gathered():
    """The exercise modules' own, where they are imported; else read from their source (PyTorch not imported:
    grader/checks/declared.py)."""
    from .registry import modules, read_unless_imported

    read = read_unless_imported()
    if read is None:
        written = [
            (module.NOTEBOOK, entry) for module in modules().values() for entry in getattr(module, "MISCONCEPTIONS", ())
        ]
    else:
        written = [(declared.notebook, Misconception(*words)) for declared in read for words in declared.misconceptions]
    found = {}
    for notebook, entry in written:
        if entry.key in found:
            raise ValueError(f"the misconception {entry.key!r} is written twice (the checks of {notebook})")
        found[entry.key] = entry
    return found


MISCONCEPTIONS = Catalogue()
