"""Every reference passes everything; every stub and every known mistake is graded as it should be."""

import pytest

from grader.checks.cells import is_test_cell
from grader.checks.in_process import run_code_cells
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.notebook import exercise_cells, read, sources_before
from grader.checks.registry import exercise_names, notebook_of, notebooks, visible_parts
from grader.checks.running import grade_locally
from grader.checks.scoring import total_score
from grader.demo.mistakes import WRONG_ANSWERS
from grader.hidden import hidden_parts
from grader.hidden.wrong_answers import by_misconception
from grader.reference import of as solutions_of

from ..conftest import EXERCISES, SOLUTIONS


def grade_all(name, obj, sources):
    parts = visible_parts(name) + hidden_parts(name)
    results = grade_locally(parts, obj, sources)
    return results, total_score(results), sum(p.points for p in parts)


def grade_wrong(mistake):
    """A wrong answer graded as its answer cell: what the cell defines, the cell its notebook's code."""
    return grade_all(mistake.exercise, mistake.wrong.answer(), [mistake.source])


def wrong_answer(exercise, name):
    """The wrong answer ``name`` to ``exercise`` (grader/demo/mistakes.py)."""
    return next(m for m in WRONG_ANSWERS if (m.exercise, m.wrong.name) == (exercise, name))


def ids(mistakes):
    return [f"{m.exercise}-{m.wrong.name}" for m in mistakes]


def reference(name):
    """The instructor's own solution, from the solution notebook."""
    return getattr(solutions_of(notebook_of(name)), name)


@pytest.fixture(scope="module")
def stubs():
    """Each exercise's stub, taken from the released notebook that grades it."""
    found = {}
    for notebook in notebooks():
        nb = read(EXERCISES / notebook)
        namespace = run_code_cells(nb, EXERCISES)[0]
        found.update({name: (namespace[name], sources_before(nb, name)) for name in exercise_cells(nb)})
    return found


def test_every_kit_test_cell_has_checks_and_every_exercise_a_test_cell():
    """Exercises are found, not counted: the solution notebooks' ``<exercise>_test`` cells and the checks agree."""
    graded = {}
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        for cell in read(path).cells:
            if is_test_cell(cell) and cell.metadata["nbgrader"]["grade_id"].endswith("_test"):
                graded[cell.metadata["nbgrader"]["grade_id"].removesuffix("_test")] = path.name
    assert graded == {name: notebook_of(name) for name in exercise_names()}


@pytest.mark.parametrize("name", exercise_names())
def test_reference_gets_full_marks(name):
    sources = sources_before(read(SOLUTIONS / notebook_of(name)), name)
    results, score, total = grade_all(name, reference(name), sources)
    assert [r.failure for r in results if r.failure] == []
    assert score == total > 0


@pytest.mark.parametrize("name", exercise_names())
def test_every_exercise_has_visible_checks_and_a_gate_among_any_hidden_ones(name):
    """Hidden checks are optional; an exercise that has some has a randomised gate part among them."""
    assert visible_parts(name) and not any(p.hidden for p in visible_parts(name))
    assert all(p.hidden for p in hidden_parts(name))
    assert not hidden_parts(name) or any(p.gate for p in hidden_parts(name)), (
        "a randomised gate part stops hard-coded answers"
    )


@pytest.mark.parametrize("name", exercise_names())
def test_untouched_stub_scores_zero_and_says_so(name, stubs):
    results, score, _ = grade_all(name, *stubs[name])
    assert score == 0
    assert all("not implemented yet" in r.failure.what for r in results)


@pytest.mark.parametrize("mistake", WRONG_ANSWERS, ids=ids(WRONG_ANSWERS))
def test_wrong_answer_loses_points_with_its_diagnosis(mistake):
    """Each of the catalogue's wrong answers is diagnosed as its misconception; the others as none."""
    results, score, total = grade_wrong(mistake)
    assert score < total
    diagnosed = {r.failure.misconception for r in results if r.failure}
    if mistake.misconception is None:
        assert diagnosed == {None}
    else:
        assert mistake.misconception in diagnosed


@pytest.mark.parametrize("mistake", WRONG_ANSWERS, ids=ids(WRONG_ANSWERS))
def test_a_wrong_answer_that_the_notebook_shows_fails_a_visible_check(mistake):
    """No hidden surprises: every wrong answer loses points at grading (above), so one that passed every visible
    check would pass the self-check and then lose them. Only an answer right on everything the notebook shows and
    wrong elsewhere (``unseen``: fixed numbers, say) may; and a visible part must catch every other."""
    failures = _visible_failures(mistake)
    if mistake.wrong.unseen:
        assert not failures, "marked unseen, but a visible part catches it"
    else:
        assert failures, "passes every visible check, then loses points at grading"
        if mistake.misconception:
            assert mistake.misconception in {f.misconception for f in failures}, "caught, but not diagnosed"


def test_every_misconception_has_wrong_answers_and_every_wrong_answer_a_name_of_its_own():
    assert list(by_misconception()) == list(MISCONCEPTIONS) and all(by_misconception().values())
    assert {m.exercise for m in WRONG_ANSWERS} <= set(exercise_names())
    assert len({(m.exercise, m.wrong.name) for m in WRONG_ANSWERS}) == len(WRONG_ANSWERS)


@pytest.mark.parametrize("name", exercise_names())
def test_hidden_checks_vary_the_data_never_the_specification(name):
    """Every kind of requirement a hidden part grades is also graded by a visible part."""
    visible = frozenset().union(*(part.requires for part in visible_parts(name)))
    for part in hidden_parts(name):
        assert part.requires <= visible, f"{part.title!r} grades {sorted(part.requires - visible)} only when hidden"


def _visible_failures(mistake):
    return [
        r.failure
        for r in grade_locally(visible_parts(mistake.exercise), mistake.wrong.answer(), [mistake.source])
        if r.failure
    ]


@pytest.mark.parametrize(
    "name,answer,fix",
    [
        ("sum_weighted_values", "sum_dim1", "dim=-2"),
        ("self_attention", "attention_dot_t", "transpose only the last two dimensions"),
        ("weighted_values", "weighted_seed004", "`...`"),
    ],
)
def test_answer_right_on_one_sequence_fails_a_visible_batch_check_that_says_so(name, answer, fix):
    """Answers that passed every visible check and lost points only when hidden checks tried a batch."""
    failures = _visible_failures(wrong_answer(name, answer))
    assert failures, "the visible checks should catch it"
    assert "works for one sequence but not for a batch of shape" in failures[0].what
    assert fix in failures[0].what


@pytest.mark.parametrize(
    "name,answer",
    [
        ("attention_weights", "weights_unstable"),
        ("attention", "attention_unstable"),
    ],
)
def test_unstable_softmax_fails_a_visible_check_with_its_diagnosis(name, answer):
    failures = _visible_failures(wrong_answer(name, answer))
    assert [f.misconception for f in failures] == ["softmax_unstable"]


def test_torch_softmax_through_a_closure_loses_exactly_the_rule_point():
    """The issue's evasion got 6/6; the direct call got 5/6."""
    results, score, total = grade_wrong(wrong_answer("softmax", "softmax_torch_closure"))
    assert (score, total) == (5, 6)
    assert [r.part.title for r in results if r.failure] == ["written with NumPy only, without SciPy"]


def test_every_misconception_has_catalogue_words():
    assert len(MISCONCEPTIONS) == len(MISCONCEPTIONS.values())
    for entry in MISCONCEPTIONS.values():
        assert " " in entry.title and entry.title != entry.key
        assert entry.explanation and entry.for_instructors


def test_softmax_without_dim_is_described_as_pytorch_behaves():
    """torch.softmax(scores) raises TypeError; only torch.nn.functional.softmax guesses a dimension."""
    import torch

    with pytest.raises(TypeError):
        torch.softmax(torch.zeros(2, 3))
    text = MISCONCEPTIONS["softmax_implicit_dim"].explanation
    assert "torch.nn.functional.softmax" in text and "TypeError" in text


UNSTABLE = [m for m in WRONG_ANSWERS if m.misconception == "softmax_unstable"]


@pytest.mark.parametrize("mistake", UNSTABLE, ids=ids(UNSTABLE))
def test_unstable_softmax_gets_exactly_that_diagnosis_everywhere(mistake):
    results, score, total = grade_wrong(mistake)
    assert score < total
    assert {r.failure.misconception for r in results if r.failure} == {"softmax_unstable"}


NANOGPT_HEAD = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

block_size = 32


class Head(nn.Module):
    """One head of self-attention, as nanoGPT writes it: the causal mask is a buffer."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.register_buffer('tril', torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value):
        B, T, C = query.shape
        k, q, v = self.key(key), self.query(query), self.value(value)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = self.dropout(F.softmax(wei, dim=-1))
        return wei @ v
'''

MHA_WITH_BUFFER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """All heads in one product; the causal mask kept as a (persistent) buffer."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal = num_heads, causal
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(64, 64)).view(1, 1, 64, 64))
        nn.init.xavier_uniform_(self.in_proj_weight)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, -1).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
        if self.causal:
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        if key_padding_mask is not None:
            att = att.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        y = self.dropout(att.softmax(dim=-1)) @ v
        return self.out_proj(y.transpose(1, 2).reshape(B, T, E))
'''


@pytest.mark.parametrize("name,source", [("Head", NANOGPT_HEAD), ("MultiHeadAttention", MHA_WITH_BUFFER)])
def test_modules_that_keep_a_mask_buffer_get_full_marks(name, source):
    """nanoGPT's Head (a `tril` buffer) got 0/5: the hidden checks' strict load_state_dict missed `tril`."""
    namespace = {}
    exec(source, namespace)
    results, score, total = grade_all(name, namespace[name], [source])
    assert [r.failure for r in results if r.failure] == []
    assert score == total


def test_a_module_with_an_extra_parameter_still_fails():
    source = NANOGPT_HEAD.replace(
        "self.dropout = nn.Dropout(dropout)",
        "self.dropout = nn.Dropout(dropout)\n        self.gain = nn.Parameter(torch.ones(1))",
    )
    namespace = {}
    exec(source, namespace)
    results, score, total = grade_all("Head", namespace["Head"], [source])
    assert score == 0
    assert "unexpected gain" in results[0].failure.got


def test_hidden_batch_failures_are_said_in_words_too():
    results, _, _ = grade_wrong(wrong_answer("sum_weighted_values", "sum_dim1"))
    batches = next(r for r in results if r.part.title == "batches")
    assert batches.failure.what.startswith("works for one sequence but not for a batch of shape (2, 3, 4, 5)")
