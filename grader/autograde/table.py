"""The grade table printed at the end of autograde: a row per student, a column per notebook.

The scores are the gradebook's (late penalties and manual grades included), as ``nbgrader export``.
Each column is headed by the notebook's number and short title; the legend explains only the marks used.
"""

import textwrap

from ..course.grades import course_grades
from ..course.review import notes
from ..course.titles import short_titles

COLUMN = 10  # a cell: score, "/", maximum, mark
ATTENTION = "! = needs attention (not graded, crashed, timed out, tampered, missing or waiting for a manual grade)"
LATE = "L = late: handed in after the due date; {}"
PENALTY = {
    "all": "the late penalty is taken off",
    "none": "no late penalty is taken off",
    "some": "a late penalty is taken off where the gradebook has one",
}


def grade_table(course):
    """Scores per student and notebook; '!' marks a score that needs the instructor's attention, 'L' a notebook
    handed in late (with or without a late penalty); under the table, who needs what (and how late, when late)."""
    released = course.released_notebooks()
    grades = course_grades(course, released)
    notebooks = sorted({g.notebook for g in grades})
    maximum = {g.notebook: g.max_score for g in grades}
    by_student = {}
    for grade in grades:
        by_student.setdefault(grade.student, {})[grade.notebook] = grade
    width = max([len("student")] + [len(s) for s in by_student])
    rows = _header(notebooks, short_titles(released), width)
    for student, entries in sorted(by_student.items()):
        cells = [_cell(entries.get(name), maximum[name]) for name in notebooks]
        total = sum(entry.score for entry in entries.values())
        rows.append(f"{student:{width}}  " + "  ".join(cells) + f"  {total:>5g}/{sum(maximum.values()):<3g}")
    entries = [entry for entries in by_student.values() for entry in entries.values()]
    used = {_mark(entry) for entry in entries}
    legend = [text for mark, text in (("!", ATTENTION), ("L", _late_legend(entries))) if mark in used]
    to_do = notes(grades)
    return "\n".join(rows + legend + (["", "Needs attention:"] + [f"  {line}" for line in to_do] if to_do else []))


def _header(notebooks, titles, width):
    """The header's lines: each column's number over its short title, wrapped to the column's width."""
    heads = [[name.split("_")[0]] + textwrap.wrap(titles.get(name, ""), COLUMN) for name in notebooks]
    depth = max(map(len, heads), default=1)
    lines = []
    for row in range(depth):
        last = row == depth - 1
        cells = [head[row] if row < len(head) else "" for head in heads]
        lines.append(
            f"{'student' if last else '':{width}}  "
            + "  ".join(f"{c:^{COLUMN}}" for c in cells)
            + f"  {'total' if last else '':^9}"
        )
    return [line.rstrip() for line in lines]


def _late_legend(entries):
    """What 'L' means, and whether the notebooks it marks had a late penalty taken off: all, none or some."""
    penalties = [entry.late_penalty > 0 for entry in entries if _mark(entry) == "L"]
    return LATE.format(PENALTY["all" if all(penalties) else "some" if any(penalties) else "none"])


def _mark(entry):
    """'!' needs attention (its note under the table says how late it is, if late), 'L' late, else blank."""
    return "!" if entry.needs_attention else "L" if entry.late else " "


def _cell(entry, maximum):
    score = entry.score if entry else 0.0
    return f"{score:>5g}/{maximum:<3g}{'!' if entry is None else _mark(entry)}"
