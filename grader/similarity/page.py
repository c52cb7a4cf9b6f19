"""The similarity page, from a Jinja2 template with autoescaping: every student's id and code is text on it."""

import itertools

import jinja2

from .answers import exercise_names
from .evidence import evidence
from .histogram import BAR, BOTTOM, HEIGHT, LEFT, TOP, WIDTH, histogram
from .shuffles import SHUFFLES

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("grader.similarity", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
SHOWN = 50  # flagged pairs shown side by side; the rest are in the table only
UNFLAGGED = 5  # the highest pairs not flagged, per notebook, listed for comparison
STRONG = 1.0  # bits: an exercise is shown side by side if its evidence is this much or more
GROUP_NAMES = 12  # students named in a group; the rest are counted


def render(assignment, found, answers, titles, report_link):
    """The page of a :class:`~grader.similarity.comparison.Similarity`; ``answers`` holds the code it shows."""
    flagged = found.flagged()
    shown = []
    for number, pair in enumerate(flagged[:SHOWN], 1):
        exercises = []
        for shared in pair.shared:
            if shared.evidence < STRONG:
                continue
            codes = [(s, answers.students[s][pair.notebook][shared.exercise]) for s in (pair.first, pair.second)]
            stub = answers.stubs[pair.notebook][shared.exercise]
            weights = found.notebooks[pair.notebook].exercises[shared.exercise][1].weights
            exercises.append((shared, evidence(*codes, stub, weights)))
        shown.append((number, pair, exercises))
    notebooks = [
        (
            notebook,
            titles.get(notebook.name, notebook.name),
            histogram(notebook.pair_scores(), notebook.flag_above),
            list(
                itertools.islice(
                    (notebook.pair(a, b) for v, a, b in notebook.ranked() if not notebook.flags(v)), UNFLAGGED
                )
            ),
        )
        for notebook in found.notebooks.values()
    ]
    return ENVIRONMENT.get_template("similarity.html.j2").render(
        assignment=assignment,
        found=found,
        flagged=flagged,
        shown=shown,
        notebooks=notebooks,
        titles=titles,
        names=exercise_names(answers.stubs),
        report_link=report_link,
        group_names=GROUP_NAMES,
        strong=STRONG,
        shuffles=SHUFFLES,
        svg={"width": WIDTH, "height": HEIGHT, "left": LEFT, "bottom": BOTTOM, "top": TOP, "bar": BAR},
    )
