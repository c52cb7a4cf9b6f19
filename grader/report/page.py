"""The report's HTML page: the figures, and the numbers behind them."""
from html import escape

from .words import explanation, title

STYLE = ("body{font-family:sans-serif;margin:2em;max-width:60em}td,th{border:1px solid #ccc;padding:.2em .6em;"
         "text-align:left}table{border-collapse:collapse;margin-bottom:1em}td.number{text-align:right}")


def render(assignment, stats, figures):
    hardest = stats.hardest
    body = [f"<h1>Class report: {escape(assignment)}</h1>",
            f"<p>{len(stats.totals)} students; {stats.not_graded} notebook(s) without a real score "
            "(missing, invalid, crashed or timed out: see the grade export). Scores are nbgrader's gradebook's, "
            "late penalties and manual grades included.</p>"]
    if hardest:
        body.append(f"<p>Hardest exercise: <b>{escape(hardest.name)}</b> (mean {100 * hardest.mean_fraction:.0f}% "
                    f"of its points, {100 * hardest.pass_rate:.0f}% with full marks).</p>")
    body += [f"<img src='{escape(name)}' alt='{escape(name)}'>" for name in figures]
    body.append("<h2>Exercises</h2>" + _table(["Exercise", "Graded", "Full marks", "Mean"], [
        [escape(e.name), e.graded, f"{100 * e.pass_rate:.0f}%", f"{100 * e.mean_fraction:.0f}%"]
        for e in stats.exercises], "exercises"))
    body.append("<h2>Misconceptions</h2>" + _table(["Misconception", "Students", "What it is"], [
        [escape(title(name)), count, escape(explanation(name))] for name, count in stats.misconceptions.items()],
        "misconceptions"))
    body.append("<h2>Students</h2>" + _table(["Student", "Score", "Out of"], [
        [escape(student), f"{score:g}", f"{most:g}"] for student, (score, most) in sorted(stats.totals.items())],
        "students"))
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
            f"<title>Class report: {escape(assignment)}</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _table(heads, rows, name):
    """An HTML table; numbers align right."""
    head = "".join(f"<th>{h}</th>" for h in heads)
    body = "".join("<tr>" + "".join(_cell(value) for value in row) + "</tr>" for row in rows)
    return f"<table class='{name}'><tr>{head}</tr>{body}</table>"


def _cell(value):
    return f"<td>{value}</td>" if isinstance(value, str) else f"<td class='number'>{value}</td>"
