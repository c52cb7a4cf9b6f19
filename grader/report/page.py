"""The report's HTML page: the figures, and the numbers behind them."""
from html import escape

from ..checks.misconceptions import MISCONCEPTIONS


def render(assignment, stats, figures):
    hardest = stats.hardest
    body = [f"<h1>Class report: {escape(assignment)}</h1>",
            f"<p>{len(stats.totals)} students; {stats.not_graded} notebook(s) without a real score "
            "(missing, invalid, crashed or timed out: see the grade export).</p>"]
    if hardest:
        body.append(f"<p>Hardest exercise: <b>{escape(hardest.name)}</b> (mean {100 * hardest.mean_fraction:.0f}% "
                    f"of its points, {100 * hardest.pass_rate:.0f}% with full marks).</p>")
    body += [f"<img src='{escape(name)}' alt='{escape(name)}'>" for name in figures]
    body.append("<h2>Exercises</h2><table><tr><th>Exercise</th><th>Graded</th><th>Full marks</th>"
                "<th>Mean</th></tr>" + "".join(
                    f"<tr><td>{escape(e.name)}</td><td>{e.graded}</td><td>{100 * e.pass_rate:.0f}%</td>"
                    f"<td>{100 * e.mean_fraction:.0f}%</td></tr>" for e in stats.exercises) + "</table>")
    body.append("<h2>Misconceptions</h2><table><tr><th>Misconception</th><th>Students</th><th>What it is</th></tr>"
                + "".join(f"<tr><td>{escape(name)}</td><td>{count}</td>"
                          f"<td>{escape(MISCONCEPTIONS.get(name, ''))}</td></tr>"
                          for name, count in stats.misconceptions.items()) + "</table>")
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
            f"<title>Class report: {escape(assignment)}</title><style>body{{font-family:sans-serif;margin:2em}}"
            "td,th{border:1px solid #ccc;padding:.2em .6em}table{border-collapse:collapse}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
