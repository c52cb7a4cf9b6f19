"""What a kit test cell shows a stuck student: the kit's message without its code, points on the notebook's
scale, one likely mistake, lines that fit a page; the same words in the autograded notebook and in pytest."""

import nbclient
import nbformat
import pytest
from nbgrader.utils import determine_grade

from grader.autograde.outputs import kit_cell
from grader.checks.notebook import exercise_points
from grader.checks.registry import visible_parts
from grader.checks.running import grade_locally
from grader.checks.wording import WIDTH, likely_mistake
from grader.demo.fill import fill, reference_answers
from grader.hidden import hidden_parts

from ..conftest import EXERCISES, SOLUTIONS
from ..course_builder import visible_checks, worth
from ..selfcheck.test_selfcheck import self_check

STEPS = "02_self_attention_step_by_step.ipynb"


def softmax_over_columns(scores):
    import torch

    return torch.softmax(scores, dim=0)


def attention_on_own_softmax(x, w_query, w_key, w_value):
    import torch

    scores = (x @ w_query) @ (x @ w_key).transpose(-2, -1)
    return torch.softmax(scores, dim=0) @ (x @ w_value)


def wrong_steps_notebook(tmp_path):
    """Notebook 02 as a student leaves it: every answer right but attention_weights' softmax, over the columns."""
    answers = reference_answers(nbformat.read(SOLUTIONS / STEPS, as_version=4))
    answers["attention_weights"] = answers["attention_weights"].replace("dim=-1", "dim=0")
    assert "dim=0" in answers["attention_weights"]
    nb = fill(nbformat.read(EXERCISES / STEPS, as_version=4), answers)
    nbformat.write(nb, tmp_path / STEPS)
    return nb


@pytest.fixture(scope="module")
def ran_in_jupyter(tmp_path_factory, kernels):
    """The wrong notebook run top to bottom in a fresh kernel, as Jupyter or nbconvert runs it."""
    nb = wrong_steps_notebook(tmp_path_factory.mktemp("jupyter"))
    nbclient.NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        allow_errors=True,
        config=kernels,
        resources={"metadata": {"path": str(EXERCISES)}},
    ).execute()
    return {
        c.metadata["nbgrader"]["grade_id"]: c
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade") and not c.metadata["nbgrader"].get("solution")
    }


@pytest.mark.slow
def test_a_failed_test_cell_shows_the_kits_message_and_no_frame_of_the_kits_code(ran_in_jupyter):
    cell = ran_in_jupyter["attention_weights_test"]
    errors = [o for o in cell.outputs if o.output_type == "error"]
    assert len(errors) == 1 and determine_grade(cell)[0] == 0  # nbgrader still sees an error: a zero
    shown = "\n".join(errors[0].traceback)
    assert "attention_weights: no points yet" in shown
    assert "grader/" not in shown and "Traceback" not in shown and "File " not in shown


@pytest.mark.slow
def test_the_test_cell_says_the_points_on_the_notebooks_scale(ran_in_jupyter):
    text = "".join(o.text for o in ran_in_jupyter["attention_weights_test"].outputs if o.output_type == "stream")
    said = " ".join(text.split())
    assert (
        "attention_weights: visible checks 0/1 passed; this exercise is worth 4 points; the other checks, run "
        "at grading, try new inputs" in said
    )
    assert "/ 1 points" not in said
    passed = "".join(o.text for o in ran_in_jupyter["weighted_values_test"].outputs if o.output_type == "stream")
    assert "visible checks 1/1 passed; this exercise is worth 4 points" in " ".join(passed.split())
    assert all(len(line) <= WIDTH for line in (text + passed).splitlines())


@pytest.mark.slow
@pytest.mark.parametrize("on_ci", [False, True], ids=["terminal", "ci"])
def test_pytest_says_the_points_as_the_test_cell_does(tmp_path, on_ci):
    wrong_steps_notebook(tmp_path)
    run = self_check(tmp_path / STEPS, on_ci)
    said = " ".join(run.stdout.split())
    assert (
        "attention_weights: visible checks 0/1 passed; this exercise is worth 4 points; the other checks, run "
        "at grading, try new inputs" in said
    )
    assert "weighted_values: visible checks 1/1 passed; this exercise is worth 4 points" in said
    checks = visible_checks(STEPS)[1]
    exercises = visible_checks(STEPS)[0]
    # self_attention calls the wrong attention_weights: its visible check of the notebook's example output fails too
    assert (
        f"total of {exercises} exercises: visible checks {checks - 2}/{checks} passed; this notebook is worth "
        f"{worth(STEPS):g} points" in said
    )
    assert said.count("Likely mistake") == 2


def autograded_cell(name, answer):
    """A kit test cell as the autograde writes it, for ``answer`` graded by every check."""
    results = grade_locally(visible_parts(name) + hidden_parts(name), answer)
    cell = nbformat.v4.new_code_cell(
        "",
        metadata={
            "nbgrader": {"grade": True, "solution": False, "grade_id": f"{name}_test", "points": exercise_points(name)}
        },
    )
    kit_cell(cell, name, "graded", None, results)
    return cell


def test_a_passed_kit_cell_shows_no_number_and_partial_credit_keeps_nbgraders():
    import torch

    right = autograded_cell("attention_weights", lambda scores: torch.softmax(scores, dim=-1))
    assert [o.output_type for o in right.outputs] == ["stream"] and determine_grade(right) == (4, 4)
    assert (
        "attention_weights: 4 / 4 points; visible checks 1/1 passed, hidden checks 3/3 passed" in right.outputs[0].text
    )
    batch_wrong = autograded_cell("attention_weights", lambda scores: torch.softmax(scores, dim=1))
    assert [o.output_type for o in batch_wrong.outputs] == ["stream", "execute_result"]
    assert determine_grade(batch_wrong)[0] == 2  # the visible batch check and the hidden batches fail
    assert "partial credit: 2 of 4 points" in batch_wrong.outputs[1].data["text/html"]


def test_the_autograded_cell_gives_one_likely_mistake_in_lines_that_fit():
    cell = autograded_cell("attention_weights", softmax_over_columns)
    text = cell.outputs[0].text
    assert text.count("Likely mistake") == 1 and "sum to 1 down each column" in text
    assert all(len(line) <= WIDTH for line in text.splitlines())
    assert "Traceback" not in "".join(cell.outputs[-1].traceback)


def test_one_diagnosis_without_contradiction_for_a_softmax_over_the_columns():
    text = autograded_cell("self_attention", attention_on_own_softmax).outputs[0].text
    assert text.count("Likely mistake") == 1
    assert "sum to 1 down each column" in text and "right for one matrix but wrong for a batch" not in text


def test_the_most_common_mistake_is_the_one_named():
    assert likely_mistake([None, "softmax_dim0", "softmax_implicit_dim", "softmax_dim0"]) == "softmax_dim0"
    assert likely_mistake(["softmax_implicit_dim", "softmax_dim0"]) == "softmax_implicit_dim"
    assert likely_mistake([None, "not a known one"]) is None


def attention_keys_for_queries(x, w_query, w_key, w_value):
    """Queries and keys swapped: right on the notebook's example, whose scores are symmetric, wrong with other
    weights."""
    import torch

    scores = (x @ w_key) @ (x @ w_query).transpose(-2, -1)
    return torch.softmax(scores, dim=-1) @ (x @ w_value)


def test_an_honest_mistake_on_new_inputs_names_the_mistake_not_fixed_numbers():
    text = " ".join(autograded_cell("self_attention", attention_on_own_softmax).outputs[0].text.split())
    assert "visible checks 0/1 passed" in text  # the notebook's example output shows it (it passed them before)
    assert "fixed numbers" not in text and "Likely mistake: Your weights sum to 1 down each column" in text
    swapped = " ".join(autograded_cell("self_attention", attention_keys_for_queries).outputs[0].text.split())
    assert "visible checks 0/1 passed" in swapped  # the example with other weights shows it (it passed them before)
    assert "it is wrong on new inputs" in swapped and "looks computed with the queries and the keys swapped" in swapped
    assert "fixed numbers" not in swapped


def test_a_hard_coded_answer_is_still_called_one():
    import torch

    from grader.checks import fixture

    printed = torch.softmax(torch.tensor(fixture.SCORES), dim=-1)  # the notebook's example, whatever the scores
    text = " ".join(autograded_cell("attention_weights", lambda scores: printed.clone()).outputs[0].text.split())
    assert "the same numbers whatever its inputs" in text and "not return fixed numbers" in text


def test_an_answer_that_depends_on_the_shape_alone_is_not_called_fixed():
    """A mask depends on the shape alone: equal answers for inputs of one shape do not mean fixed numbers."""
    import numpy as np

    from grader.checks.cases import Case, Mismatch, Part
    from grader.checks.plain import TensorArg
    from grader.checks.running import plan, run_locally
    from grader.checks.scoring import judge_parts

    def wrong(outcome):
        raise Mismatch("wrong values")

    def cases(*shapes):
        return lambda: [
            Case(f"{shape}", wrong, {"args": (TensorArg(np.full(shape, n, np.float32)),), "kwargs": {}})
            for n, shape in enumerate(shapes)
        ]

    for shapes, fixed in [([(3, 3), (3, 3)], False), ([(3, 3), (4, 4)], True)]:
        planned = plan([Part("known", 1, lambda: []), Part("random", 1, cases(*shapes), gate=True)])
        answer = (lambda x: x.new_zeros(3, 3)) if fixed else (lambda x: x.new_zeros(x.shape).triu(1))
        results = judge_parts(planned, run_locally(answer, planned))
        assert results[1].fixed is fixed
