"""An exercise added with two files, its notebook and one exercise module with hidden parts and a misconception of
its own (tests/new_exercise.py), in a copy of the kit: the kit's own tests pass there counting it, the student's
copy of the module holds its visible parts only, and nbgrader's gradebook grades a stub, two wrong answers and a
right one on the test cell's scale (its four parts weigh 2 points each, its cell 3)."""

import ast
import html
import zipfile

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.checks.misconceptions import MISCONCEPTIONS
from grader.course import Course
from grader.course.grades import course_grades
from grader.demo.fill import fill
from grader.gradescope.graded_cells import notebook_tests
from grader.records import read_all

from .. import new_exercise
from ..course_builder import ASSIGNMENT, make_course
from ..kit_copy import copy_kit, run
from ..new_exercise import NAME, NOTEBOOK, POINTS, SCORES

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


@pytest.fixture(scope="module")
def kit(released_course, tmp_path_factory):
    """The kit with the new exercise, released as the README says (``python -m grader release``: the notebooks and
    the student package); each student hands in the new notebook."""
    kit = make_course(released_course, tmp_path_factory.mktemp("new_exercise") / "kit")
    copy_kit(kit, "grader", "tests", "pyproject.toml", "README.md", "docs")
    new_exercise.add_to(kit)
    run(kit, "-m", "grader", "release", "--course", str(kit))
    release = nbformat.read(kit / "exercises" / ASSIGNMENT / NOTEBOOK, as_version=4)
    for student, answer in new_exercise.ANSWERS.items():
        folder = kit / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(release if answer is None else fill(release, {NAME: answer}), folder / NOTEBOOK)
    return kit


@pytest.fixture(scope="module")
def graded(kit):
    """The grade table that autograde prints."""
    return run(kit, "-m", "grader", "autograde", "--course", str(kit), "--workers", "1").stdout


@pytest.fixture(scope="module")
def self_check(kit):
    """One process in the copy: the file of the registry it imports, then what the student's self-check (pytest
    on the wrong answer's notebook: one exercise failed, pytest's exit status 1) prints."""
    notebook = kit / "submitted" / "wrong" / ASSIGNMENT / NOTEBOOK
    return run(
        kit,
        "-c",
        "import grader.checks.registry as r; print(r.__file__); import pytest; "
        f"raise SystemExit(pytest.main(['-p', 'no:cacheprovider', '{notebook}']) != 1)",
    ).stdout


def test_the_copy_imports_its_own_grader(kit, self_check):
    """Its registry is the copy's (that it finds the new exercise, the copy's tests below show)."""
    assert self_check.startswith(str(kit / "grader"))


def test_the_kits_fast_tests_pass_in_the_copy_counting_the_new_exercise(kit):
    """Those of its checks and notebooks that a new exercise can change: every one but the instances for the kit's
    own exercises and notebooks (tests/added_exercises.py), which test the same files as in the checkout."""
    done = run(
        kit,
        "-m",
        "pytest",
        "-v",
        "-p",
        "no:cacheprovider",
        "-p",
        "tests.added_exercises",
        "--added",
        NAME,
        "--added",
        NOTEBOOK,
        "-m",
        "not slow",
        "tests/checks",
        "tests/notebooks",
    )
    passed = {line.split(" ")[0].split("/")[-1] for line in done.stdout.splitlines() if " PASSED" in line}
    assert {
        f"test_checks.py::test_reference_gets_full_marks[{NAME}]",
        f"test_checks.py::test_untouched_stub_scores_zero_and_says_so[{NAME}]",
        f"test_checks.py::test_every_exercise_has_visible_checks_and_a_gate_among_any_hidden_ones[{NAME}]",
        f"test_checks.py::test_wrong_answer_loses_points_with_its_diagnosis[{NAME}-no_softmax]",
        "test_checks.py::test_every_kit_test_cell_has_checks_and_every_exercise_a_test_cell",
        "test_checks.py::test_every_misconception_has_wrong_answers_and_every_wrong_answer_a_name_of_its_own",
        f"test_notebooks.py::test_test_cells_follow_the_template_and_are_worth_their_points[{NOTEBOOK}]",
        f"test_notebooks.py::test_total_points_shown_at_the_top_of_the_released_notebook[{NOTEBOOK}]",
        f"test_narrative.py::test_titles_are_numbered_alike[{NOTEBOOK}]",
    } <= passed
    assert " failed" not in done.stdout.splitlines()[-1]


def gradebook_scores(kit):
    """{student: (score, max_score)} of the new exercise's test cell, as nbgrader's gradebook has them."""
    with Gradebook(f"sqlite:///{kit / 'gradebook.db'}") as gradebook:
        return {
            student: (grade.score, grade.max_score)
            for student in new_exercise.ANSWERS
            for grade in [gradebook.find_grade(f"{NAME}_test", NOTEBOOK.removesuffix(".ipynb"), ASSIGNMENT, student)]
        }


def test_the_gradebook_scores_each_answer_on_the_cells_scale(graded, kit):
    assert gradebook_scores(kit) == {student: (score, POINTS) for student, score in SCORES.items()}
    assert any(line.startswith("wrong") and "1.5/3" in line for line in graded.splitlines())


def test_the_records_diagnose_the_wrong_answer_and_say_the_stub_is_not_implemented(graded, kit):
    found = {r.student: e for r in read_all(Course.at(kit)) if r.notebook == NOTEBOOK for e in r.exercises}
    assert {student: (e.score, e.max_score) for student, e in found.items()} == {
        student: (score, POINTS) for student, score in SCORES.items()
    }
    assert all("not implemented yet" in part.message for part in found["stub"].parts)
    assert [part.misconception for part in found["wrong"].parts if part.score < part.points][0] == "softmax_dim0"
    assert {part.misconception for part in found["no_softmax"].parts} == {new_exercise.MISCONCEPTION}


def own_words():
    """The words for a stuck student of the module's own misconception, as its ``Misconception(...)`` has them."""
    made = next(
        node
        for node in ast.walk(ast.parse(new_exercise.CHECKS))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Misconception"
    )
    assert ast.literal_eval(made.args[0]) == new_exercise.MISCONCEPTION
    return ast.literal_eval(made.args[2])


def test_the_feedback_names_the_mistake(graded, kit):
    run(kit, "-m", "grader", "feedback", "--course", str(kit))
    pages = {
        student: html.unescape(
            (kit / "feedback" / student / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")).read_text()
        )
        for student in SCORES
    }
    assert MISCONCEPTIONS["softmax_dim0"].explanation in " ".join(pages["wrong"].split())
    assert own_words() in " ".join(pages["no_softmax"].split())
    assert "not implemented yet" in pages["stub"] and "Likely mistake" not in pages["right"]


def test_gradescope_gives_the_gradebooks_scores(graded, kit):
    """Its results' scores are the gradebook's, whatever the exercise (this process's kit does not know it)."""
    entries = {
        g.student: [(t.score, t.max_score) for t in notebook_tests(1, g, None)]
        for g in course_grades(Course.at(kit))
        if g.notebook == NOTEBOOK
    }
    assert entries == {student: [(score, POINTS)] for student, score in SCORES.items()}


def test_the_student_package_holds_the_visible_parts_only(kit):
    """The wheel that release built in the copy: the new module's visible parts and its misconception's words, none
    of its hidden parts or its wrong answer."""
    wheel = next((kit / "downloads").glob("*.whl"))
    with zipfile.ZipFile(wheel) as opened:
        copy = opened.read(f"grader/exercises/{new_exercise.MODULE}.py").decode()
    assert "def _one_query" in copy and "def _every_query" in copy and "attend_without_softmax" in copy
    assert "_random" not in copy and "WRONG_ANSWERS" not in copy and "scores @ values" not in copy


def test_the_students_self_check_says_what_the_cell_is_worth(self_check):
    said = " ".join(self_check.split())
    assert f"{NAME}: visible checks 1/2 passed; this exercise is worth {POINTS} points" in said
    assert MISCONCEPTIONS["softmax_dim0"].explanation in said
