"""Hidden checks: known outputs, randomised comparisons with the reference, properties.

Instructor-only: never released to students, never imported inside a sandbox. Each module
gives the hidden parts (``PARTS``) of the exercises of one notebook (``NOTEBOOK``): a part is
hidden because it lives here, and :func:`hidden_parts` marks it so.
"""
import dataclasses
import functools

from ..checks.registry import _parts


@functools.cache
def hidden_parts(name):
    """The hidden parts of exercise ``name`` (none, for an exercise with visible checks only)."""
    found = _parts(__name__).get(name)
    return [dataclasses.replace(part, hidden=True) for part in found[1]] if found else []


def check_hidden(grade):
    """Add the hidden checks to a test cell's running grade, which is then complete."""
    grade.add(hidden_parts(grade.name))
    grade.complete = True
