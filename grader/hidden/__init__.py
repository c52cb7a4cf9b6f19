"""Hidden checks: known outputs, randomised comparisons with the reference, properties.

Instructor-only: never released to students, never imported inside a sandbox. Each module
gives the hidden parts (``PARTS``) of the exercises of one notebook (``NOTEBOOK``).
"""
from ..checks.registry import _parts


def hidden_parts(name):
    """The hidden parts of exercise ``name`` (none, for an exercise with visible checks only)."""
    found = _parts(__name__).get(name)
    return found[1] if found else []


def check_hidden(grade):
    """Add the hidden checks to a test cell's running grade."""
    grade.add(hidden_parts(grade.name))
