"""The similarity page, from a Jinja2 template with autoescaping: every student's id and code is text on it."""

import jinja2

from .evidence import evidence
from .histogram import BAR, BOTTOM, HEIGHT, LEFT, TOP, WIDTH, bars

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("grader.similarity", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
SHOWN = 50  # pairs shown side by side; the rest are counted
GROUP_NAMES = 12  # students named in a group; the rest are counted


def render(assignment, found, answers, titles, report_link):
    """The page of a :class:`~grader.similarity.compare.Similarity`; ``answers`` holds the code it shows."""
    shown = []
    for number, entry in enumerate(found.entries[:SHOWN], 1):
        exercises = []
        for finding in entry.findings:
            codes = [(s, answers.students[s][entry.notebook][finding.exercise]) for s in (entry.first, entry.second)]
            exercises.append((finding, evidence(*codes, answers.stubs[entry.notebook][finding.exercise])))
        shown.append((number, entry, exercises))
    histograms = [
        (notebook, titles.get(notebook, notebook), len(scores), bars(scores))
        for notebook, scores in found.notebook_scores.items()
    ]
    return ENVIRONMENT.get_template("similarity.html.j2").render(
        assignment=assignment,
        found=found,
        shown=shown,
        hidden=len(found.entries) - len(shown),
        histograms=histograms,
        titles=titles,
        report_link=report_link,
        group_names=GROUP_NAMES,
        svg={"width": WIDTH, "height": HEIGHT, "left": LEFT, "bottom": BOTTOM, "top": TOP, "bar": BAR},
    )
