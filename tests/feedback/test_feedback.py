"""Feedback: nbgrader's own ``generate_feedback``, made the kit's by the course's configuration.

The autograded notebooks here are the instructor's notebooks (hidden tests and all) with a wrong
answer per misconception, and a hidden test's traceback in a test cell's output: the worst case.
"""

import html
import re
import shutil
import subprocess
import sys

import bs4
import nbformat
import pytest
from nbformat.v4 import new_output

from grader import records as record
from grader.api import feedback
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import notebook_of, visible_parts
from grader.checks.running import grade_locally
from grader.checks.scoring import total_score
from grader.checks.wording import likely_mistake
from grader.course import Course
from grader.demo.mistakes import WRONG_ANSWERS
from grader.hidden import hidden_parts
from grader.records import ExerciseRecord, NotebookRecord, PartRecord
from grader.tutor.hidden_tests import HIDDEN_FAILED, clear_hidden_tests, hidden_lines

from ..course_builder import ASSIGNMENT, graded_cell, make_course
from ..hidden_lines import hidden_test_lines, text_files

pytestmark = pytest.mark.slow

TRACED = "attention_scores"  # its test cell carries a failed hidden test's traceback in every notebook 01


def graded_wrong_answers():
    """(record, answer source) of real gradings, visible and hidden checks, of a wrong answer per misconception."""
    chosen = {}
    for mistake in WRONG_ANSWERS:
        chosen.setdefault(mistake.misconception, mistake)
    found = []
    for student, mistake in enumerate(chosen.values()):
        name = mistake.exercise
        results = grade_locally(visible_parts(name) + hidden_parts(name), mistake.wrong.answer())
        parts = [
            PartRecord(
                r.part.title,
                r.part.points,
                r.score,
                r.part.hidden,
                r.case_label,
                r.failure and r.failure.explain(with_misconception=False),
                r.failure and r.failure.misconception,
            )
            for r in results
        ]
        found.append(
            (
                NotebookRecord(
                    f"student{student}",
                    ASSIGNMENT,
                    notebook_of(name),
                    exercises=[ExerciseRecord(name, total_score(results), sum(p.points for p in parts), parts=parts)],
                ),
                mistake.source,
            )
        )
    return found


def autograded(course, one, answer):
    """The instructor's notebook as nbgrader's autograde leaves it: the answer in, hidden tests and a traceback."""
    nb = nbformat.read(course / "solutions" / ASSIGNMENT / one.notebook, as_version=4)
    name = one.exercises[0].name
    next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == name).source = answer
    traced = next((c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == f"{TRACED}_test"), None)
    if traced is not None:
        secret = hidden_lines(traced)[-1]
        traced.outputs = [
            new_output("stream", name="stdout", text=f"checking\n{secret}\n"),
            new_output(
                "error",
                ename="AssertionError",
                evalue=secret,
                traceback=[
                    "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m",
                    "\x1b[0;31mAssertionError\x1b[0m                            Traceback (most recent call last)",
                    f"Cell \x1b[0;32mIn[9], line 4\x1b[0m\n      2 grade = 1\n      3 ### BEGIN HIDDEN TESTS\n"
                    f"\x1b[0;32m----> 4\x1b[0m {secret}\n",
                    f"\x1b[0;31mAssertionError\x1b[0m: {secret}",
                ],
            ),
        ]
    folder = course / "autograded" / one.student / ASSIGNMENT
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / one.notebook)
    (folder / "timestamp.txt").write_text("2026-01-09 10:00:00.000000 UTC")


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("feedback") / "course")
    graded = graded_wrong_answers()
    graded[1][0].tampered = [{"grade_id": graded[1][0].exercises[0].cell, "change": "edited"}]
    with Course.at(course).gradebook() as book:
        for one, _ in graded:
            book.add_student(one.student)
            book.add_submission(ASSIGNMENT, one.student)
    for one, answer in graded:
        record.write(Course.at(course), one)
        autograded(course, one, answer)
    pages = feedback(course, ASSIGNMENT)
    return course, graded, pages


def page(course, one):
    return (course / "feedback" / one.student / ASSIGNMENT / one.notebook.replace(".ipynb", ".html")).read_text()


def test_nbgraders_generate_feedback_writes_a_page_per_autograded_notebook(course):
    course, graded, pages = course
    assert sorted(pages) == sorted(
        course / "feedback" / one.student / ASSIGNMENT / one.notebook.replace(".ipynb", ".html") for one, _ in graded
    )
    assert len(graded) >= 6  # a wrong answer per misconception


def test_generate_feedback_imports_no_pytorch(course, tmp_path):
    """nbgrader's generate_feedback (the feedback verb, formgrader's button) writes the same pages without PyTorch:
    the kit's preprocessor asks the registry which exercise each test cell grades, and reads no exercise module."""
    course, graded, _ = course
    copy = shutil.copytree(course, tmp_path / "course")
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "nbgrader",
            "generate_feedback",
            ASSIGNMENT,
            "--force",
            "--log-level=ERROR",
        ],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "nbformat" in imported and "torch" not in imported and "grader.exercises.basics" not in imported
    assert all(page(copy, one) == page(course, one) for one, _ in graded)


def test_no_page_holds_a_line_of_a_hidden_test(course):
    course, graded, _ = course
    assert sum(not p.score for one, _ in graded for p in one.exercises[0].parts if p.hidden) >= 5
    secrets = hidden_test_lines()
    pages = text_files(course / "feedback")
    assert {page(course, one) for one, _ in graded} <= set(pages.values())
    for path, text in pages.items():
        shown = html.unescape(text)
        assert [line for line in secrets if line in shown] == [], path
        assert "BEGIN HIDDEN TESTS" not in shown and "grader.hidden" not in shown and "check_hidden" not in shown


def test_a_failed_hidden_assert_shows_its_error_but_not_its_line(course):
    course, graded, _ = course
    one = next(one for one, _ in graded if one.notebook.startswith("01") and one.exercises[0].name != TRACED)
    secret = hidden_lines(
        graded_cell(nbformat.read(course / "solutions" / ASSIGNMENT / one.notebook, as_version=4), TRACED)
    )[-1]
    text = html.unescape(re.sub(r"<[^>]+>", "", page(course, one)))
    assert "AssertionError" in text and HIDDEN_FAILED in text and "Traceback" in text
    assert secret not in text


def exercise_output(soup, name):
    """The output area under the test cell of exercise ``name``."""
    anchor = soup.find("a", attrs={"name": f"{name}_test"})
    cell = anchor.find_parent("div", class_="cell")
    return cell, cell.find("div", class_="output_area")


def test_a_page_reads_like_a_tutor_diagnosis_once_first_failure_then_a_line_per_other(course):
    course, graded, _ = course
    for one, _answer in graded:
        exercise = one.exercises[0]
        failed = [p for p in exercise.parts if p.score < p.points]
        soup = bs4.BeautifulSoup(page(course, one), "html.parser")
        cell, output = exercise_output(soup, exercise.name)
        diagnoses = output.find_all(class_="kit-diagnosis")
        misconception = likely_mistake([p.misconception for p in failed])
        if misconception is None:
            assert diagnoses == []
        else:
            explanation = MISCONCEPTIONS[misconception].explanation
            assert len(diagnoses) == 1 and explanation in diagnoses[0].get_text(), exercise.name
            assert soup.get_text().count(explanation) == 1
        first = output.find(class_="kit-first-failure").get_text()
        assert failed[0].title.replace("the source's", "") in first
        assert ("expected" in first and "got" in first) or failed[0].message.splitlines()[0] in first
        others = output.find(class_="kit-other-failures")
        assert len(others.find_all("li") if others else []) == len(failed) - 1
        assert "the source" not in output.get_text()  # the notebooks' own text is issue 10's
        answer_panels = [p for p in soup.find_all(class_="nbgrader_cell") if "Student's answer" in p.get_text()]
        assert any(f"def {exercise.name}(" in p.get_text() for p in answer_panels)  # the student's own code


def test_a_changed_test_cell_is_said_at_the_top_of_the_page(course):
    course, graded, _ = course
    tampered, untouched = graded[1][0], graded[2][0]
    top = bs4.BeautifulSoup(page(course, tampered), "html.parser").find(class_="kit-warning")
    assert f"The test cell {tampered.exercises[0].cell} was edited" in top.get_text()
    assert "kit-warning" not in page(course, untouched)


def test_the_page_has_the_gradebooks_scores(course):
    course, graded, _ = course
    one = graded[0][0]
    with Course.at(course).gradebook() as book:
        grade = book.find_grade(one.exercises[0].cell, one.notebook.removesuffix(".ipynb"), ASSIGNMENT, one.student)
        grade.manual_score = 0.5
        book.db.commit()
    feedback(course, ASSIGNMENT)
    soup = bs4.BeautifulSoup(page(course, one), "html.parser")
    cell, _ = exercise_output(soup, one.exercises[0].name)
    assert "Score: 0.5 /" in cell.get_text()


def test_clear_hidden_tests_keeps_the_visible_part_of_source_and_outputs():
    cell = nbformat.v4.new_code_cell(
        "assert f(1) == 2\n### BEGIN HIDDEN TESTS\nassert f(5) == 10, 'five to ten'\n### END HIDDEN TESTS"
    )
    cell.outputs = [
        new_output("stream", name="stdout", text="visible line\nassert f(5) == 10, 'five to ten'\n"),
        new_output(
            "error",
            ename="AssertionError",
            evalue="five to ten",
            traceback=["----> 3 assert f(5) == 10, 'five to ten'", "AssertionError: five to ten"],
        ),
        new_output("execute_result", data={"text/plain": "'five to ten'"}, execution_count=1),
    ]
    assert clear_hidden_tests(cell)
    assert cell.source == "assert f(1) == 2"
    assert [o.output_type for o in cell.outputs] == ["stream", "error"]
    assert cell.outputs[0].text == "visible line\n"
    assert (cell.outputs[1].evalue, cell.outputs[1].traceback) == (HIDDEN_FAILED, [f"AssertionError: {HIDDEN_FAILED}"])
    plain = nbformat.v4.new_code_cell("assert f(1) == 2")
    assert not clear_hidden_tests(plain) and plain.source == "assert f(1) == 2"


def test_a_mistake_made_by_a_function_the_exercise_calls_is_said_to_be_there():
    from grader.checks.policy import source_outcome
    from grader.tutor.page import exercise_html, exercise_text

    cells = [
        "import torch\ndef attention_weights(scores):\n    return torch.softmax(scores, dim=0)\n",
        "def self_attention(x, wq, wk, wv):\n    return attention_weights((x @ wq) @ (x @ wk).mT) @ (x @ wv)\n",
    ]
    calls = source_outcome("self_attention", cells)["reaches"]
    assert calls == ["attention_weights"]
    columns = PartRecord("random inputs", 1, 0, True, "random x (4, 5)", "wrong values", "softmax_dim0")
    batch = PartRecord("batches", 1, 0, True, "random x (2, 3, 4)", "wrong values <b>", "softmax_implicit_dim")
    weights = ExerciseRecord("attention_weights", 0, 4, parts=[columns])
    attention = ExerciseRecord("self_attention", 0, 4, parts=[columns, columns, batch])
    notebook = {"attention_weights": weights, "self_attention": attention}
    text = exercise_text(attention, calls, notebook)
    assert (
        "Likely mistake, in your attention_weights, which self_attention calls: Your weights sum to 1 down "
        "each column" in text
    )
    assert text.count("Likely mistake") == 1 and MISCONCEPTIONS["softmax_implicit_dim"].explanation not in text
    assert text.startswith("Hidden checks 0/3 passed.")
    assert "Likely mistake: Your weights" in exercise_text(attention, [], notebook)  # its own mistake, then
    page = exercise_html(attention, calls, notebook)
    assert "wrong values &lt;b&gt;" not in page and "<pre style='white-space: pre-wrap'>wrong values</pre>" in page
    assert "&lt;b&gt;" in exercise_html(ExerciseRecord("self_attention", 0, 4, parts=[batch]))


@pytest.mark.parametrize("status", ["timeout", "memory", "crashed"])
def test_a_check_the_sandbox_could_not_finish_says_what_to_try_and_that_the_zero_waits(status):
    from grader.records.statuses import STATUSES
    from grader.tutor.page import exercise_html, exercise_text

    reason = f"checking attention_scores {STATUSES[status].happened} (the limit is 10 s)"
    for page in (
        exercise_html(ExerciseRecord("attention_scores", 0, 3, status, reason)),
        exercise_text(ExerciseRecord("attention_scores", 0, 3, status, reason)),
    ):
        said = " ".join(bs4.BeautifulSoup(page, "html.parser").get_text(" ").split())
        assert f"Not graded: {reason}." in said
        assert f"What usually causes it: {STATUSES[status].cause}." in said
        assert f"What to try: {STATUSES[status].to_try}" in said and "0 for now, not final" in said


def test_a_graded_exercise_has_no_such_advice():
    from grader.tutor.page import exercise_html

    page = exercise_html(ExerciseRecord("attention_scores", 3, 3, "graded", None))
    assert "What to try" not in page and "for now" not in page
