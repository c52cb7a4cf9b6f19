"""One notebook's feedback as an HTML page, from its grading record alone (never a test's source)."""
from html import escape

from ..records import EXERCISE_STATUSES, GRADED, NOTEBOOK_STATUSES
from ..checks.misconceptions import MISCONCEPTIONS

STYLE = """body{font-family:sans-serif;max-width:52em;margin:2em auto;line-height:1.4}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}
.warning{background:#fff3cd;padding:.5em 1em}pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}"""


def render(record):
    title = f"{record.notebook}: feedback for {record.student}"
    max_score = sum(e.max_score for e in record.exercises)
    body = [f"<h1>{escape(title)}</h1>",
            f"<p class='score'>Score: <b>{record.score:g} / {max_score:g}</b></p>"]
    if record.status != GRADED:
        reason = record.reason or NOTEBOOK_STATUSES.get(record.status, "")
        body.append(f"<p class='warning'>Not graded ({escape(record.status)}): {escape(reason)}</p>")
    body += [_tamper_note(change) for change in record.tampered]
    if record.exercises:
        body.append(_exercise_table(record.exercises))
    body += [_failures(exercise) for exercise in record.exercises if _failed_parts(exercise)]
    return (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _tamper_note(change):
    return (f"<p class='warning'>The test cell <code>{escape(str(change.get('grade_id')))}</code> was "
            f"{escape(str(change.get('change')))}. Test cells must stay as released; your instructor "
            "will look at this notebook.</p>")


def _exercise_table(exercises):
    rows = "".join(f"<tr><td>{escape(e.name)}</td><td>{e.score:g} / {e.max_score:g}</td>"
                   f"<td>{escape(_status_text(e))}</td></tr>" for e in exercises)
    return f"<table><tr><th>Exercise</th><th>Score</th><th>Status</th></tr>{rows}</table>"


def _status_text(exercise):
    if exercise.status == GRADED:
        return "graded" + (f": {exercise.note}" if exercise.note else "")
    return f"{exercise.status}: {exercise.reason or EXERCISE_STATUSES.get(exercise.status, '')}"


def _failed_parts(exercise):
    return [part for part in exercise.parts if part.score < part.points]


def _failures(exercise):
    items = []
    for part in _failed_parts(exercise):
        lines = [f"<b>{escape(part.title)}</b>{' (hidden check)' if part.hidden else ''}"
                 f" [{part.score:g} / {part.points:g}]"]
        if part.case:
            lines.append(f"case: {escape(part.case)}")
        if part.message:
            lines.append(f"<pre>{escape(part.message)}</pre>")
        explanation = MISCONCEPTIONS.get(part.misconception or "")
        if explanation and explanation not in (part.message or ""):
            lines.append(f"<p>Likely mistake: {escape(explanation)}</p>")
        items.append("<li>" + "<br>\n".join(lines) + "</li>")
    return f"<h2>{escape(exercise.name)}</h2>\n<ul>\n" + "\n".join(items) + "\n</ul>"
