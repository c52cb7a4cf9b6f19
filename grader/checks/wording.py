"""How an exercise's checks are said to people: the same words in a test cell, in pytest and in the feedback.

One headline with the points on the notebook's scale, a line per check, one likely mistake for
the whole exercise, and lines wrapped to fit a page (formgrader shows text in a box it does not wrap).
"""

import textwrap
from collections import Counter

from .misconceptions import MISCONCEPTIONS

WIDTH = 90
# A check's line (n/a: the grader could not check it): its continuations go under its title.
MARKS = ("ok   ", "FAIL ", "n/a  ")


def wrap(text, width=WIDTH):
    """Each line of ``text`` folded at ``width`` columns, its continuations indented under it."""
    folded = []
    for line in text.splitlines():
        body = line.lstrip()
        indent = line[: len(line) - len(body)]
        hang = indent + (" " * 5 if body.startswith(MARKS) else "  ")
        folded.append(
            textwrap.fill(
                body,
                width,
                initial_indent=indent,
                subsequent_indent=hang,
                break_long_words=False,
                break_on_hyphens=False,
            )
            if body
            else line
        )
    return "\n".join(folded)


def likely_mistake(keys):
    """The one misconception to name for an exercise, from its failed checks' diagnoses in order:
    the one that explains the most of them (the first, on a tie), so that the student reads one
    diagnosis, never two that contradict each other."""
    counts = Counter(key for key in keys if key in MISCONCEPTIONS)
    return max(counts, key=lambda key: (counts[key], -keys.index(key))) if counts else None


def _points(value):
    return f"{value:g} point" + ("" if value == 1 else "s")


def checks_passed(passed, hidden_passed=None):
    """``visible checks 1/1 passed``, with the hidden checks' count once they ran: (passed, total) pairs."""
    said = [
        f"{kind} checks {count[0]}/{count[1]} passed"
        for kind, count in (("visible", passed), ("hidden", hidden_passed))
        if count and count[1]
    ]
    return ", ".join(said) or "no checks ran"


def headline(name, counts, points, score=None, whole="this exercise is"):
    """The exercise's first line. ``counts`` is ((visible passed, visible), (hidden passed, hidden) or None);
    ``score`` is None when only the visible checks ran (the student's own notebook or pytest); ``whole`` says what
    the points are of, with its verb."""
    if score is None:
        return (
            f"{name}: {checks_passed(*counts)}; {whole} worth {_points(points)}; the other checks, run at "
            "grading, try new inputs"
        )
    return f"{name}: {score:g} / {_points(points)}; {checks_passed(*counts)}"


def counts_of(flags):
    """((visible passed, visible), (hidden passed, hidden) or None) from (hidden, passed) per check."""
    visible = [ok for hidden, ok in flags if not hidden]
    hidden = [ok for hidden, ok in flags if hidden]
    return (sum(visible), len(visible)), ((sum(hidden), len(hidden)) if hidden else None)
