"""``feedback``: one escaped HTML page per student and notebook, from the grading records, with nothing hidden."""
import html

import pytest

from grader.api import feedback
from grader import records as record
from grader.records import ExerciseRecord, NotebookRecord, PartRecord
from grader.checks.framework import grade_locally, total_score
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import notebook_of, visible_parts
from grader.hidden import hidden_parts

from .conftest import ROOT, wrong_answers
from .hidden_lines import hidden_test_lines, text_files

BASICS = "01_attention_basics.ipynb"


@pytest.fixture
def course(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text((ROOT / "nbgrader_config.py").read_text())
    return tmp_path


def page(course, student, notebook=BASICS):
    return (course / "feedback" / student / "self_attention" / notebook.replace(".ipynb", ".html")).read_text()


def test_pages_say_scores_failures_misconceptions_and_why_a_notebook_was_not_graded(course):
    scores = ExerciseRecord("attention_scores", 1.0, 3.0, parts=[
        PartRecord("returns a float tensor of shape (n_queries, n_keys)", 1, 1, hidden=False),
        PartRecord("matches the fixture", 2, 0, hidden=True, case="the fixture's queries & keys",
                   message="wrong values <b>here</b>", misconception="scores_no_transpose")])
    softmax = ExerciseRecord("softmax_scores", 0.0, 2.0, status="undefined",
                             reason="the exercise was not defined when the notebook finished")
    record.write(course, NotebookRecord("alice", "self_attention", BASICS, exercises=[scores, softmax],
                                        tampered=[{"grade_id": "attention_scores_test", "change": "edited"}]))
    record.write(course, NotebookRecord("bob", "self_attention", BASICS, status="crashed",
                                        reason="the kernel died while running the notebook", exercises=[
                                            ExerciseRecord("attention_scores", 0.0, 3.0, status="ungraded")]))
    paths = feedback(course, "self_attention")

    assert sorted(p.relative_to(course).as_posix() for p in paths) == [
        "feedback/alice/self_attention/01_attention_basics.html",
        "feedback/bob/self_attention/01_attention_basics.html"]
    alice = page(course, "alice")
    assert "Score: <b>1 / 5</b>" in alice
    assert "wrong values &lt;b&gt;here&lt;/b&gt;" in alice and "<b>here</b>" not in alice
    assert "the fixture&#x27;s queries &amp; keys" in alice
    assert html.escape(MISCONCEPTIONS["scores_no_transpose"]) in alice
    assert "matches the fixture</b> (hidden check) [0 / 2]" in alice
    assert "shape (n_queries, n_keys)</b>" not in alice  # a passed part is not a failure
    assert "<code>attention_scores_test</code> was edited" in alice
    assert "undefined: the exercise was not defined" in alice
    assert "Not graded" not in alice
    bob = page(course, "bob")
    assert "Not graded (crashed): the kernel died while running the notebook" in bob
    assert "Score: <b>0 / 3</b>" in bob


def test_a_student_in_the_gradebook_without_records_gets_a_missing_page(course):
    from grader.course import venv_on_path
    from nbgrader.api import Gradebook
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
        gradebook.add_student("dora")
    record.write(course, NotebookRecord("alice", "self_attention", BASICS))
    feedback(course, "self_attention")
    assert "Not graded (missing): no submission for this notebook" in page(course, "dora")


def graded_wrong_answers():
    """Records of real gradings, visible and hidden checks, of a wrong answer per misconception."""
    chosen = {}
    for name, misconception, answer in wrong_answers():
        chosen.setdefault(misconception, (name, answer))
    records = []
    for student, (name, answer) in enumerate(chosen.values()):
        results = grade_locally(visible_parts(name) + hidden_parts(name), answer)
        parts = [PartRecord(r.part.title, r.part.points, r.score, r.part.hidden, r.case_label,
                            r.failure and r.failure.explain(), r.failure and r.failure.misconception)
                 for r in results]
        records.append(NotebookRecord(f"student{student}", "self_attention", notebook_of(name), exercises=[
            ExerciseRecord(name, total_score(results), sum(p.points for p in parts), parts=parts)]))
    return records


def test_no_page_holds_a_line_of_a_hidden_test(course):
    records = graded_wrong_answers()
    assert sum(not p.score for r in records for p in r.exercises[0].parts if p.hidden) >= 5  # hidden parts failed
    for one in records:
        record.write(course, one)
    feedback(course, "self_attention")
    secrets = hidden_test_lines()
    pages = text_files(course / "feedback")
    assert {page(course, r.student, r.notebook) for r in records} <= set(pages.values())
    for path, text in pages.items():
        shown = html.unescape(text)
        assert [line for line in secrets if line in shown] == [], path
        assert "Traceback" not in shown and "grader.hidden" not in shown
