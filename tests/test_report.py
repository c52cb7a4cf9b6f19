"""``report``: class analytics from the grading records, as PNG figures and an HTML page."""
import pytest

from grader.api import report
from grader import records as record
from grader.records import ExerciseRecord, NotebookRecord, PartRecord
from grader.report.stats import class_stats

from .conftest import ROOT

BASICS = "01_attention_basics.ipynb"


def part(misconception=None, score=0):
    return PartRecord("a part", 1, score, hidden=False, misconception=misconception)


RECORDS = [
    NotebookRecord("alice", "self_attention", BASICS, exercises=[
        ExerciseRecord("attention_scores", 3, 3),
        ExerciseRecord("softmax_scores", 0, 2, parts=[part("softmax_dim0"), part("softmax_dim0")])]),
    NotebookRecord("bob", "self_attention", BASICS, exercises=[
        ExerciseRecord("attention_scores", 1, 3, parts=[part("scores_no_transpose")]),
        ExerciseRecord("softmax_scores", 1, 2, parts=[part("softmax_dim0"), part(score=1)])]),
    NotebookRecord("carol", "self_attention", BASICS, status="crashed", exercises=[
        ExerciseRecord("attention_scores", 0, 3, status="ungraded"),
        ExerciseRecord("softmax_scores", 0, 2, status="ungraded")]),
    NotebookRecord("dan", "self_attention", BASICS, exercises=[
        ExerciseRecord("attention_scores", 3, 3), ExerciseRecord("softmax_scores", 2, 2)]),
]


def test_stats_count_real_scores_only_and_each_student_once():
    stats = class_stats(RECORDS)
    by_name = {e.name: e for e in stats.exercises}
    assert (by_name["attention_scores"].graded, by_name["attention_scores"].passed) == (3, 2)
    assert by_name["softmax_scores"].pass_rate == pytest.approx(1 / 3)
    assert by_name["softmax_scores"].mean_fraction == pytest.approx(0.5)
    assert stats.hardest.name == "softmax_scores"
    assert stats.misconceptions == {"softmax_dim0": 2, "scores_no_transpose": 1}
    assert stats.totals["bob"] == (2, 5) and stats.not_graded == 1


@pytest.fixture
def course(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    for one in RECORDS:
        record.write(tmp_path, one)
    return tmp_path


def test_report_writes_figures_and_a_page_that_shows_them(course):
    page = report(course, "self_attention")
    assert page == course / "reports" / "self_attention" / "index.html"
    text = page.read_text()
    for figure in ("scores.png", "pass_rates.png", "misconceptions.png"):
        assert (page.parent / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"<img src='{figure}'" in text
    assert "Hardest exercise: <b>softmax_scores</b>" in text
    assert "<td>softmax_dim0</td><td>2</td>" in text
    assert "4 students; 1 notebook(s) without a real score" in text


def test_report_goes_where_asked(course, tmp_path):
    assert report(course, "self_attention", out=tmp_path / "elsewhere") == tmp_path / "elsewhere" / "index.html"
