"""What the feedback page says under a kit test cell, and at the top of a notebook: a tutor's words.

Per exercise: how many checks passed (as the test cell says it), the likely mistake once (and in
which of the student's functions, when the exercise calls another one that makes it), the first
failing check with what was expected and what came back, then the other failed checks in a line
each. Built from the grading record alone, which never holds a test's source, and rendered by
Jinja2 templates (``templates/``) that escape whatever they are given.
"""

import functools
import pathlib

import jinja2

from ..checks.misconceptions import MISCONCEPTIONS
from ..checks.wording import checks_passed, counts_of, likely_mistake, wrap
from ..records.statuses import GRADED, PENDING, STATUSES


@functools.cache
def _templates():
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(pathlib.Path(__file__).parent / "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        keep_trailing_newline=True,
    )


def in_notebook_words(text):
    """The checks' words as the student knows them: the notebooks' worked examples, not "the source"."""
    return (text or "").replace("the source's", "the notebook's example").replace("the source", "the notebook")


def exercise_html(exercise, calls=(), neighbours=None):
    """The diagnosis of one exercise, as HTML. ``calls``: the notebook's functions its answer reaches;
    ``neighbours``: the records of the notebook's other exercises, by name."""
    return _templates().get_template("diagnosis.html").render(diagnosis(exercise, calls, neighbours)).strip()


def exercise_text(exercise, calls=(), neighbours=None):
    """The same diagnosis as plain text (for the notebook's text/plain output)."""
    return _templates().get_template("diagnosis.txt").render(diagnosis(exercise, calls, neighbours)).strip()


def diagnosis(exercise, calls=(), neighbours=None):
    """What the page says of one exercise, as plain values for the templates."""
    failed = [part for part in exercise.parts if part.score < part.points]
    said = {
        "status": _status(exercise.status, exercise.reason or STATUSES[exercise.status].exercise),
        "help": _help(exercise.status),
        "checks": None,
        "passed": not failed and exercise.status == GRADED,
        "mistake": None,
        "first": None,
        "others": [],
        "note": exercise.note,
    }
    if exercise.parts:
        counted = checks_passed(*counts_of([(p.hidden, p.score >= p.points) for p in exercise.parts]))
        said["checks"] = counted[0].upper() + counted[1:] + "."
    if failed:
        said["mistake"] = _mistake(exercise.name, failed, calls, neighbours or {})
        message = wrap(in_notebook_words(failed[0].message).strip())
        said["first"] = {"head": _title(failed[0]) + _case(failed[0]), "message": message}
        said["others"] = [_title(p) + _case(p) for p in failed[1:]]
    return said


def _status(status, reason):
    """Why the score is what it is: "No points: ..." for a real zero (the exercise was never written), else
    "Not graded: ..."; None when graded."""
    if status == GRADED:
        return None
    reason = (reason or "").rstrip(".")
    return f"No points: {reason}." if STATUSES[status].real else f"Not graded: {reason}."


def _help(status):
    """For a check the sandbox could not finish (out of time or memory, a crash): what usually causes it, what to
    try, and that the 0 is not final; None for any other status."""
    words = STATUSES[status]
    if words.to_try is None:
        return None
    return {"cause": words.cause, "to_try": words.to_try, "pending": None if words.real else PENDING}


def _mistake(name, failed, calls, neighbours):
    """The one likely mistake, and the function that makes it when it is another exercise this one calls."""
    key = likely_mistake([p.misconception for p in failed])
    if key is None:
        return None
    maker = next(
        (
            other
            for other in calls
            if other in neighbours
            and any(p.misconception == key and p.score < p.points for p in neighbours[other].parts)
        ),
        None,
    )
    return {"text": MISCONCEPTIONS[key].explanation, "where": f", in your {maker}, which {name} calls" if maker else ""}


def _title(part):
    """The check's title; its points are left to the cell's score, which is on the notebook's scale."""
    return in_notebook_words(part.title) + (" (hidden check)" if part.hidden else "")


def _case(part):
    return f", on {in_notebook_words(part.case)}" if part.case else ""


def notebook_notes(record):
    """HTML for the top of the page: a notebook that was not graded, test cells that were changed."""
    status = _status(record.status, record.reason or STATUSES[record.status].notebook)
    return (
        _templates()
        .get_template("notes.html")
        .render(status=status, help=_help(record.status), tampered=record.tampered)
        .strip()
    )
