"""What a student's feedback page says at its top after a regrade: what changed in their grade and why.

A Markdown cell put first in the applied autograded notebook, which nbgrader's feedback shows like the notebook's
other cells (formgrader shows it too); a later ``autograde`` writes the notebook afresh, without it.
"""

import re

from nbformat.v4 import new_markdown_cell

from .diff import number

NOTE = "regrade_note"  # the cell's metadata key


def note_cell(changes, when):
    """The note for one notebook's ``changes`` that the student sees (``told``), or None when there are none."""
    told = [c for c in changes if c.told]
    if not told:
        return None
    lines = [f"**Your grade for this notebook was changed on {when}.**", ""]
    for change in told:
        out_of = f" of {number(change.max_score)}" if change.grade_id else ""
        lines.append(
            f"- {plain(change.exercise)}: {number(change.before)} → {number(change.after)}{out_of} "
            f"points, because {plain('; '.join(change.told))}."
        )
    return new_markdown_cell("\n".join(lines), metadata={NOTE: True})


def plain(text):
    """``text`` as Markdown shows it, character for character: every punctuation mark that Markdown or HTML reads
    is escaped with a backslash (CommonMark)."""
    return re.sub(r"([\\`*_{}\[\]<>()#+\-.!|~&])", r"\\\1", text)


def with_note(nb, cell):
    """``nb`` with ``cell`` first, and no earlier regrade's note."""
    nb.cells = [c for c in nb.cells if not c.metadata.get(NOTE)]
    if cell is not None:
        nb.cells.insert(0, cell)
    return nb
