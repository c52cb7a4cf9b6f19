"""The report's HTML page, from a Jinja2 template with autoescaping: the figures, and the numbers behind them."""

import jinja2

from .words import exercise_label, explanation, notebook_title, title

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("grader.report", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def render(assignment, stats, figures, directions, similarity=None):
    """The page of ``stats`` and ``figures`` ({file name: alt text}), its commands and formgrader's pages by
    ``directions``, linking ``similarity`` (the similarity page's file name) when there is one; every value from the
    course (student ids, names, words) is escaped."""
    hardest = stats.hardest
    notebooks = {}
    for exercise in stats.exercises:
        notebooks.setdefault(exercise.notebook, []).append(exercise)
    return ENVIRONMENT.get_template("report.html.j2").render(
        assignment=assignment,
        stats=stats,
        figures=figures,
        similarity=similarity,
        directions=directions,
        hardest=hardest and (exercise_label(hardest, stats.titles), hardest),
        notebooks=[
            (notebook_title(nb, stats.titles) if nb else "", [(exercise_label(e), e) for e in found])
            for nb, found in notebooks.items()
        ],
        misconceptions=[(title(name), count, explanation(name)) for name, count in stats.misconceptions.items()],
        students=sorted(stats.totals.items()),
        nothing=set(stats.handed_in_nothing),
    )
