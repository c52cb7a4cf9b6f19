"""``report``: class analytics from the grading records, as PNG figures and one HTML page."""
import pathlib

from ..course import all_records
from . import plots
from .page import render
from .stats import class_stats

FIGURES = {"scores.png": plots.score_histogram, "pass_rates.png": plots.pass_rates,
           "misconceptions.png": plots.misconceptions}


def report(course=".", assignment="self_attention", out=None):
    """Write the figures and ``index.html`` to ``out`` (default ``<course>/reports/<assignment>/``); return the page."""
    out = pathlib.Path(out or pathlib.Path(course) / "reports" / assignment)
    out.mkdir(parents=True, exist_ok=True)
    stats = class_stats(all_records(course, assignment))
    for name, draw in FIGURES.items():
        draw(stats, out / name)
    page = out / "index.html"
    page.write_text(render(assignment, stats, list(FIGURES)), encoding="utf-8")
    return page
