"""What the feedback page says under a kit test cell, and at the top of a notebook: a tutor's words.

Per exercise: the likely mistake (once), the first failing check with what was expected and what
came back, then the other failed checks in a line each. Built from the grading record alone,
which never holds a test's source.
"""
from html import escape

from ..checks.misconceptions import MISCONCEPTIONS
from ..records import EXERCISE_STATUSES, GRADED, NOTEBOOK_STATUSES


def in_notebook_words(text):
    """The checks' words as the student knows them: the notebooks' worked examples, not "the source"."""
    return (text or "").replace("the source's", "the notebook's example").replace("the source", "the notebook")


def exercise_html(exercise):
    """The diagnosis of one exercise, as HTML."""
    return "\n".join(f"<{tag} class='{cls}'>{html}</{tag}>" for tag, cls, html, _ in _blocks(exercise))


def exercise_text(exercise):
    """The same diagnosis as plain text (for the notebook's text/plain output)."""
    return "\n".join(text for _, _, _, text in _blocks(exercise))


def _blocks(exercise):
    """(tag, class, html, text) of each paragraph of the diagnosis."""
    blocks = []
    if exercise.status != GRADED:
        reason = exercise.reason or EXERCISE_STATUSES.get(exercise.status, "")
        blocks.append(("p", "kit-warning", escape(f"Not graded ({exercise.status}): {reason}."),
                       f"Not graded ({exercise.status}): {reason}."))
    failed = [part for part in exercise.parts if part.score < part.points]
    if not failed:
        if exercise.status == GRADED:
            blocks.append(("p", "kit-passed", "Every check passed.", "Every check passed."))
        return blocks
    mistake = next((MISCONCEPTIONS[p.misconception] for p in failed if p.misconception in MISCONCEPTIONS), None)
    if mistake:
        blocks.append(("p", "kit-diagnosis", f"<b>Likely mistake:</b> {escape(mistake)}", f"Likely mistake: {mistake}"))
    first, others = failed[0], failed[1:]
    head = f"{_title(first)}{_case(first)}"
    message = in_notebook_words(first.message).strip()
    blocks.append(("div", "kit-first-failure",
                   f"<b>First failing check:</b> {escape(head)}" + (f"<pre>{escape(message)}</pre>" if message else ""),
                   f"First failing check: {head}" + (f"\n{message}" if message else "")))
    if others:
        items = "".join(f"<li>{escape(_title(p) + _case(p))}</li>" for p in others)
        blocks.append(("div", "kit-other-failures", f"<b>Also failed:</b><ul>{items}</ul>",
                       "Also failed:\n" + "\n".join(f"  - {_title(p)}{_case(p)}" for p in others)))
    if exercise.note:
        blocks.append(("p", "kit-note", escape(exercise.note), exercise.note))
    return blocks


def _title(part):
    """The check's title; its points are left to the cell's score, which is on the notebook's scale."""
    return in_notebook_words(part.title) + (" (hidden check)" if part.hidden else "")


def _case(part):
    return f", on {in_notebook_words(part.case)}" if part.case else ""


def notebook_notes(record):
    """Markdown (HTML) for the top of the page: a notebook that was not graded, test cells that were changed."""
    notes = []
    if record.status != GRADED:
        reason = record.reason or NOTEBOOK_STATUSES.get(record.status, "")
        notes.append(f"<p class='kit-warning'>Not graded ({escape(record.status)}): {escape(reason)}</p>")
    notes += [f"<p class='kit-warning'>The test cell <code>{escape(str(change.get('grade_id')))}</code> was "
              f"{escape(str(change.get('change')))}. Test cells must stay as released; your instructor will look "
              "at this notebook.</p>" for change in record.tampered]
    return "\n".join(notes)
