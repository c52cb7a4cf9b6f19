"""An error of the grader's own (a probe, a judge, a library that changed) is the grader's problem: said so, never
scored as the student's mistake, and shown to the instructor in the records and the export's status column."""

import csv
import html

import nbformat
import pytest

from grader.checks.cases import Case, CouldNotCheck, Mismatch, Part, PartResult
from grader.checks.grade import CheckFailed, Grade, grader_problem
from grader.checks.registry import visible_parts
from grader.checks.running import grade_locally
from grader.checks.scoring import gate_note
from grader.checks.wording import WIDTH
from grader.hidden import hidden_parts

from ..course_builder import ASSIGNMENT, autograde, exercise, make_course, records, submission, submit

pytestmark = pytest.mark.sandbox  # the tests that grade a course are marked slow too

STEPS = "02_self_attention_step_by_step.ipynb"
# A matplotlib without what the kit's heatmap probe reads (as 3.6 lacked Axes.get_subplotspec): the probe fails
# on the student's right figure.
OLD_MATPLOTLIB = "import matplotlib.gridspec\ndel matplotlib.gridspec.SubplotSpec.get_geometry\n"


def heatmaps():
    from grader.reference import of

    return of(STEPS).show_heatmaps


def old_matplotlib(monkeypatch):
    import matplotlib.gridspec

    monkeypatch.delattr(matplotlib.gridspec.SubplotSpec, "get_geometry")


def test_a_probe_that_fails_is_the_graders_problem_not_the_students(monkeypatch):
    old_matplotlib(monkeypatch)
    results = grade_locally(visible_parts("show_heatmaps") + hidden_parts("show_heatmaps"), heatmaps())
    failures = [r.failure for r in results if r.failure]
    assert failures and all(isinstance(f, CouldNotCheck) for f in failures)
    assert all("your code raised" not in f.what and "get_geometry" in f.what for f in failures)
    assert grader_problem("show_heatmaps", results).startswith("the grader could not check show_heatmaps (Attribute")


def test_the_test_cell_says_the_grader_could_not_check_it(monkeypatch, capsys):
    old_matplotlib(monkeypatch)
    grade = Grade("show_heatmaps", heatmaps())
    with pytest.raises(CheckFailed) as failed:
        grade.result()
    said = " ".join(str(failed.value).split())
    assert "the grader could not check show_heatmaps" in said and "not of your code: tell your instructor" in said
    assert "your code raised" not in "".join(capsys.readouterr())


def test_an_error_inside_the_students_code_is_still_the_students():
    def broken(scores):
        return scores.no_such_method()

    results = grade_locally(visible_parts("attention_weights"), broken)
    assert "your code raised AttributeError" in results[0].failure.what
    assert not isinstance(results[0].failure, CouldNotCheck)


def test_a_probe_whose_answer_cannot_be_sent_is_the_graders_problem_in_the_sandbox():
    import types

    from grader.checks import plain
    from grader.sandbox import runner

    shell = types.SimpleNamespace(user_ns={"attention_weights": lambda scores: scores})
    answer = runner.answer(
        shell,
        {"exercise": "attention_weights", "probe": "call", "params": plain.to_plain({"args": (1,), "kwargs": {}})},
        1000,
        clean=None,
        handles=None,
        probe=lambda obj, probe, params: {"type": "Tensor", "values": object()},
    )
    outcome = plain.from_plain(answer["outcome"])
    assert outcome["type"] == "grader_error" and outcome["error"] == "TypeError"


def test_a_gate_the_grader_could_not_check_takes_no_points_away_in_words():
    gate, known = Part("random inputs", 1, list, gate=True), Part("the notebook's example", 1, list)
    assert gate_note([PartResult(gate, CouldNotCheck("AttributeError", "gone")), PartResult(known, None)]) is None
    assert gate_note([PartResult(gate, Mismatch("wrong values")), PartResult(known, None)]) is not None


def test_a_judge_that_fails_is_the_graders_problem():
    def judge(outcome):
        return outcome["no such key"]

    part = Part("a judge with a bug", 1, lambda: [Case("one case", judge, {"args": (1,), "kwargs": {}})])
    results = grade_locally([part], lambda x: x)
    assert isinstance(results[0].failure, CouldNotCheck) and "KeyError" in results[0].failure.what


@pytest.fixture(scope="module")
def graded_with_old_matplotlib(released_course, tmp_path_factory):
    """Notebook 02 graded where matplotlib lacks what the kit's heatmap probe reads; the student's one mistake
    is a softmax over the columns in attention_weights, which self_attention calls."""
    course = make_course(released_course, tmp_path_factory.mktemp("grader_errors") / "course")
    nb = submission(course, notebook=STEPS)
    weights = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "attention_weights")
    weights.source = weights.source.replace("dim=-1", "dim=0")
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "show_heatmaps")
    cell.source = OLD_MATPLOTLIB + cell.source
    submit(course, "ada", nb, STEPS)
    with open(course / "nbgrader_config.py", "a") as config:
        # The kit's own 10 s a unit, not the test courses' 4: show_heatmaps' probes (then 11) once ended as timed out
        # in a full `make test`, under its load, where this test is about the grader's error.
        config.write("c.SandboxExecute.unit_seconds = 10\n")
    run = autograde(course)
    assert run.returncode == 0, run.stdout + run.stderr
    return course


@pytest.mark.slow
def test_the_record_and_the_export_show_the_graders_problem(graded_with_old_matplotlib):
    course = graded_with_old_matplotlib
    record = next(r for r in records(course).values() if r.notebook == STEPS)
    heat = exercise(record, "show_heatmaps")
    assert heat.status == "grader_error" and "the grader could not check show_heatmaps" in heat.reason
    assert record.needs_attention
    assert all(exercise(record, name).status == "graded" for name in ("attention_weights", "self_attention"))
    from grader.api import export

    path = export(course, ASSIGNMENT)
    with open(path, newline="") as handle:
        row = next(r for r in csv.DictReader(handle) if r["exercise"] == "show_heatmaps")
    assert (row["status"], row["score"], row["needs_attention"]) == ("grader could not check", "", "yes")


@pytest.mark.slow
def test_the_graders_problem_waits_for_a_manual_grade_in_formgrader_and_the_grade_table(graded_with_old_matplotlib):
    from grader.autograde.table import grade_table
    from grader.course import Course

    course = Course.at(graded_with_old_matplotlib)
    with course.gradebook() as book:
        notebook = book.find_submission_notebook(STEPS.removesuffix(".ipynb"), ASSIGNMENT, "ada")
        assert notebook.flagged and {g.name for g in notebook.grades if g.needs_manual_grade} == {"show_heatmaps_test"}
    notes = grade_table(course).split("Needs attention:")[1]
    assert "ada 02: the grader could not check it (its own error, not the student's), grade by hand" in notes


def kit_cells(course):
    nb = nbformat.read(course / "autograded" / "ada" / ASSIGNMENT / STEPS, as_version=4)
    return {
        c.metadata["nbgrader"]["grade_id"]: c
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade") and c.metadata["nbgrader"]["grade_id"].endswith("_test")
    }


@pytest.mark.slow
def test_formgraders_view_says_each_likely_mistake_once_in_lines_that_fit(graded_with_old_matplotlib):
    cells = kit_cells(graded_with_old_matplotlib)
    for cell in cells.values():
        text = "".join(o.text for o in cell.outputs if o.output_type == "stream")
        assert text.count("Likely mistake") <= 1 and all(len(line) <= WIDTH for line in text.splitlines())
        assert all("grader/" not in "".join(o.traceback) for o in cell.outputs if o.output_type == "error")
    assert [o.output_type for o in cells["weighted_values_test"].outputs] == ["stream"]  # full marks: no number
    assert "Likely mistake" in cells["self_attention_test"].outputs[0].text


@pytest.mark.slow
def test_the_feedback_names_the_called_function_that_makes_the_mistake(graded_with_old_matplotlib):
    from grader.api import feedback

    course = graded_with_old_matplotlib
    feedback(course, ASSIGNMENT)
    page = (course / "feedback" / "ada" / ASSIGNMENT / STEPS.replace(".ipynb", ".html")).read_text()
    assert "in your attention_weights, which self_attention calls" in page
    assert "Not graded: the grader could not check show_heatmaps (AttributeError" in html.unescape(page)
