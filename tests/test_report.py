"""``report``: class analytics from the course's grades, as PNG figures and an HTML page."""
import html

import pytest

from grader.checks.misconceptions import MISCONCEPTIONS, TITLES
from grader.report import write_report
from grader.report.words import title
from grader.grades import CellGrade, NotebookGrade
from grader.records import ExerciseRecord, PartRecord
from grader.report.stats import class_stats

BASICS = "01_attention_basics.ipynb"


def part(misconception=None, score=0):
    return PartRecord("a part", 1, score, hidden=False, misconception=misconception)


def cell(name, score, most, status="graded", parts=()):
    return CellGrade(f"{name}_test", "test", score, most, status, None,
                     ExerciseRecord(name, score or 0, most, parts=list(parts)) if parts else None)


def notebook(student, cells, status="graded", late_penalty=0.0):
    return NotebookGrade(student, BASICS, status, None, sum(c.score or 0 for c in cells),
                         sum(c.max_score for c in cells), late_penalty, cells=cells)


GRADES = [
    notebook("alice", [cell("attention_scores", 3, 3),
                       cell("softmax_scores", 0, 2, parts=[part("softmax_dim0"), part("softmax_dim0")])]),
    notebook("bob", [cell("attention_scores", 1, 3, parts=[part("scores_no_transpose")]),
                     cell("softmax_scores", 1, 2, parts=[part("softmax_dim0"), part(score=1)])]),
    notebook("carol", [cell("attention_scores", None, 3, "crashed"), cell("softmax_scores", None, 2, "crashed")],
             status="crashed"),
    notebook("dan", [cell("attention_scores", 3, 3), cell("softmax_scores", 2, 2)], late_penalty=5.0),
]


def test_stats_count_real_scores_only_and_each_student_once():
    stats = class_stats(GRADES)
    by_name = {e.name: e for e in stats.exercises}
    assert (by_name["attention_scores"].graded, by_name["attention_scores"].passed) == (3, 2)
    assert by_name["softmax_scores"].pass_rate == pytest.approx(1 / 3)
    assert by_name["softmax_scores"].mean_fraction == pytest.approx(0.5)
    assert stats.hardest.name == "softmax_scores"
    assert stats.misconceptions == {"softmax_dim0": 2, "scores_no_transpose": 1}
    assert stats.totals["bob"] == (2, 5) and stats.not_graded == 1
    assert stats.totals["dan"] == (0, 5)  # late: nbgrader's penalty is taken off


def test_report_writes_figures_and_a_page_that_shows_them(tmp_path):
    page = write_report(class_stats(GRADES), "self_attention", tmp_path / "report")
    assert page == tmp_path / "report" / "index.html"
    text = page.read_text()
    for figure in ("scores.png", "pass_rates.png", "misconceptions.png"):
        assert (page.parent / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"<img src='{figure}'" in text
    assert "Hardest exercise: <b>softmax_scores</b>" in text
    assert "4 students; 1 notebook(s) without a real score" in text
    assert "<td>dan</td><td>0</td><td>5</td>" in text


def test_misconceptions_are_named_in_the_catalogues_words_not_by_id(tmp_path):
    text = write_report(class_stats(GRADES), "self_attention", tmp_path).read_text()
    assert "softmax_dim0" not in text and "scores_no_transpose" not in text
    assert f"<td>{html.escape(title('softmax_dim0'))}</td><td class='number'>2</td>" in text
    assert html.escape(MISCONCEPTIONS["softmax_dim0"]) in text
    assert title("softmax_dim0") == TITLES["softmax_dim0"]


def test_a_student_id_with_markup_shows_as_text(tmp_path):
    from .html_payloads import active_content, TOKEN
    ids = [f'<img src=x onerror="{TOKEN}()">', f'"><script>{TOKEN}()</script>']
    grades = [notebook(student, [cell("attention_scores", 1, 3)]) for student in ids]
    text = write_report(class_stats(grades), "self_attention", tmp_path).read_text()
    assert active_content(text) == []
    assert all(student in html.unescape(text) for student in ids)  # shown, as text
