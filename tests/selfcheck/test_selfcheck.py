"""``pytest <notebook>`` gives one result per exercise with its visible points."""

import os
import subprocess
import sys

import nbformat
import pytest

from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import notebooks
from grader.demo.fill import fill, reference_answers
from grader.demo.mistakes import WRONG_ANSWERS

from ..conftest import EXERCISES, ROOT, SOLUTIONS
from ..course_builder import visible_checks, worth

pytestmark = pytest.mark.slow


def self_check(path, on_ci=None):
    """``pytest <notebook>`` as a student runs it; ``on_ci``: with CI set or unset (pytest prints more on CI)."""
    env = (
        {k: v for k, v in os.environ.items() if k != "CI"}
        if on_ci is False
        else {**os.environ, "CI": "true"}
        if on_ci
        else None
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "grader.selfcheck.plugin", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )


def test_untouched_notebook_fails_every_exercise_and_says_why():
    notebook = "01_attention_basics.ipynb"
    exercises, checks = visible_checks(notebook)
    run = self_check(EXERCISES / notebook)
    assert run.returncode == 1
    assert f"{exercises} failed" in run.stdout
    assert "not implemented yet" in run.stdout
    assert (
        f"total of {exercises} exercises: visible checks 0/{checks} passed; this notebook is worth "
        f"{worth(notebook):g} points; the other checks, run at grading, try new inputs" in " ".join(run.stdout.split())
    )


@pytest.mark.parametrize("notebook", notebooks())
def test_filled_notebook_passes_every_exercise(tmp_path, notebook):
    release = nbformat.read(EXERCISES / notebook, as_version=4)
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    nbformat.write(fill(release, answers), tmp_path / notebook)
    run = self_check(tmp_path / notebook)
    assert run.returncode == 0, run.stdout
    assert "failed" not in run.stdout


def test_one_wrong_exercise_fails_alone(tmp_path):
    notebook = "01_attention_basics.ipynb"
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    answers["attention_scores"] = "def attention_scores(queries, keys):\n    return (queries @ keys)[..., :2]\n"
    nbformat.write(fill(nbformat.read(EXERCISES / notebook, as_version=4), answers), tmp_path / notebook)
    run = self_check(tmp_path / notebook)
    assert run.returncode == 1
    assert f"1 failed, {visible_checks(notebook)[0] - 1} passed" in run.stdout
    assert "wrong shape" in run.stdout


def test_numpy_mistakes_once_found_only_at_grading_fail_the_self_check_and_say_why(tmp_path):
    """A softmax that subtracts the maximum of the whole array, an attention whose exp overflows and a qkv that
    returns the keys first: each fails the student's own check on the notebook's example, and says why."""
    notebook = "03_attention_in_numpy.ipynb"
    mistakes = {"softmax": "softmax_global_max", "attention": "attention_unstable", "qkv": "qkv_wrong_order"}
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    for m in WRONG_ANSWERS:
        if mistakes.get(m.exercise) == m.wrong.name:
            answers[m.exercise] = m.wrong.code
    nbformat.write(fill(nbformat.read(EXERCISES / notebook, as_version=4), answers), tmp_path / notebook)
    run = self_check(tmp_path / notebook)
    said = " ".join(run.stdout.split())
    assert run.returncode == 1
    assert f"3 failed, {visible_checks(notebook)[0] - 3} passed" in run.stdout
    assert said.count(f"Likely mistake: {MISCONCEPTIONS['softmax_unstable'].explanation}") == 2
    assert "returns the right arrays in the wrong order. expected: (queries, keys, values) got: (keys," in said


def test_each_exercise_is_checked_where_its_test_cell_stands(tmp_path):
    """A helper named `attention`, which notebook 04's own code later replaces, is still right at its test cell."""
    from ..autograde.test_course_cells import SDPA_WITH_HELPER

    notebook = "04_causal_self_attention.ipynb"
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    answers["scaled_dot_product_attention"] = SDPA_WITH_HELPER
    nbformat.write(fill(nbformat.read(EXERCISES / notebook, as_version=4), answers), tmp_path / notebook)
    run = self_check(tmp_path / notebook)
    assert run.returncode == 0, run.stdout
