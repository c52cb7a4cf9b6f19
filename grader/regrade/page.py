"""The diff of a regrade as the instructor reads it: a table on the terminal, the rows of its CSV file (written by
grader.regrade.run) and an HTML page (Jinja2, autoescaped: student ids and names are the students' own, and are
escaped as on every page of the kit)."""

import jinja2

from ..cli.counts import count
from .diff import number

COLUMNS = ["student", "name", "notebook", "exercise", "before", "after", "max_score", "why"]
ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("grader.regrade", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def rows(changes):
    return [
        [c.student, c.name, c.notebook, c.exercise, c.before, c.after, c.max_score if c.grade_id else "", c.why]
        for c in changes
    ]


def write_html(path, assignment, changes, regraded, state):
    """The page; ``regraded`` and ``state`` are the kit's own sentences (whom, and whether it is applied)."""
    path.write_text(
        ENVIRONMENT.get_template("diff.html.j2").render(
            assignment=assignment, changes=changes, regraded=regraded, state=state, number=number
        ),
        encoding="utf-8",
    )
    return path


def table(changes):
    """The changes as the terminal shows them, a line each: ``alice 01 softmax_scores 0 → 4/4: why``."""
    if not changes:
        return "no score changed"
    lines = [f"{count(len(changes), 'changed score')}:"]
    for c in changes:
        out_of = f"/{number(c.max_score)}" if c.grade_id else ""
        lower = " (lower)" if c.lower else ""
        lines.append(
            f"  {printable(c.student)} {printable(c.notebook.split('_', 1)[0])} {printable(c.exercise)}: "
            f"{number(c.before)} → {number(c.after)}{out_of}{lower}: {c.why}"
        )
    return "\n".join(lines)


def printable(text):
    """A student's id or file name as a terminal may show it: no control character (an escape sequence) passes."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)
