"""04 · Causal self-attention (04_causal_self_attention.ipynb): its exercises' checks, written once.

Visible parts first, then what only grading uses: the known outputs, the hidden parts (``hidden=True``, where
each stands in ``PARTS``) and the wrong answers. The student's copy holds the visible parts only
(grader/release/compile.py).
"""

import functools

import numpy as np
import torch
from torch.nn import functional as F

from .. import reference
from ..checks import fixture
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import (
    array_of,
    close,
    diagnose,
    expect,
    finite,
    parameters_as_wanted,
    queries_keys_swapped,
    show,
)
from ..checks.misconceptions import Misconception
from ..checks.plain import TensorArg, call
from ..hidden import known
from ..hidden.catalogue import diagnosis
from ..hidden.edits import edit, reference_cell
from ..hidden.randomised import batched, random_array
from ..hidden.wrong_answers import Wrong, making

NOTEBOOK = "04_causal_self_attention.ipynb"

# The misconceptions first met in this notebook, in words for the student and the instructor.
MISCONCEPTIONS = (
    Misconception(
        "masking_wrong",
        "masking after the softmax, or with 0 instead of -inf",
        "The mask is missing or applied wrongly: set the scores of the positions to ignore (the future, "
        "or padding) to -inf before the softmax. Masking after the softmax leaves rows that no longer "
        "sum to 1, and masking with 0 instead of -inf still gives those positions some weight.",
        "Masked after the softmax, or with 0 instead of -inf, so masked positions keep some weight.",
    ),
)


@functools.cache
def seed_x():
    """The notebook's input, torch.manual_seed(42); torch.randn(4, 8, 2), drawn without touching the global RNG."""
    import torch

    return torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42)).numpy()


def rows_sum_to_one(weights, what):
    sums = weights.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-5):
        columns = weights.sum(axis=-2)
        hint = "softmax_dim0" if np.allclose(columns, 1.0, atol=1e-5) else None
        raise Mismatch(
            f"the rows of {what} should each sum to 1 (every step averages over its past).",
            expected="row sums [1, 1, ...]",
            got=f"row sums {show(sums)}",
            misconception=hint,
        )


def running_means(outcome, x, name, given="x"):
    """What ``name(given)`` returned for ``x``, once a float tensor shaped like ``x``."""
    return array_of(outcome, "Tensor", x.shape, "floating", f"{name}({given})")


# What the notebook prints for its x: the running means of sequence 0 at steps 1 and 7.
CAUSAL_MEAN_STEP_1 = np.array([1.4138, -0.3091])  # out[0, 1]
CAUSAL_MEAN_STEP_7 = np.array([0.1027, -0.3762])  # out[0, 7]
PRINTED_ATOL = 1e-4  # the notebook prints 4 decimals


def _columns_sum_to_one(T):
    """Lower-triangular weights normalised down each column (the softmax or the sum over the wrong dimension)."""
    return np.tril(np.ones((T, T))) / np.arange(T, 0, -1)


# The averaging weights that known mistakes give for T steps, by exercise: (misconception, weights).
WEIGHTS_MISTAKES = {
    "causal_average_loop": lambda T: [],
    "causal_average_matmul": lambda T: [("softmax_dim0", _columns_sum_to_one(T))],
    "causal_average_softmax": lambda T: [
        ("softmax_dim0", _columns_sum_to_one(T)),
        ("masking_wrong", np.full((T, T), 1.0 / T)),  # masked with 0: uniform
        ("masking_wrong", np.tril(np.ones((T, T))) / T),
    ],  # masked after softmax
}


def averaging_weights(got, what, diagnoses=()):
    """Weights (T, T) whose row t is 1/(t+1) on steps 0..t and 0 after, checked as properties: nothing on later
    steps, every row summing to 1, the same weight on every step of the past."""
    T = got.shape[-1]
    past = np.tril(np.ones((T, T), dtype=bool))
    if not np.all(np.isfinite(got)):
        problem = "has nan or inf values"
    elif np.any(got[~past] != 0):
        problem = "gives weight to later steps: everything above the diagonal must be 0"
    elif not np.allclose(got.sum(axis=-1), 1.0, atol=1e-5):
        problem = f"has rows that do not sum to 1 (row sums {show(got.sum(axis=-1))})"
    elif not all(np.allclose(got[t, : t + 1], got[t, 0], atol=1e-6) for t in range(T)):
        problem = "does not weigh the steps of the past equally"
    else:
        return
    raise Mismatch(
        f"{what} {problem}.",
        expected="row t: 1/(t+1) on steps 0..t, then 0",
        got=show(got),
        misconception=diagnose(got, diagnoses),
    )


def _running_mean_visible(name):
    def cases():
        T = 5
        eye = np.eye(T, dtype=np.float32)[None]  # (1, T, T): token t is the one-hot vector t

        def one_hot(outcome):
            got = running_means(outcome, eye, name, "torch.eye(5)[None]")[0]
            averaging_weights(
                got,
                f"{name}(torch.eye(5)[None])[0] (with one-hot tokens, the output is the "
                "averaging weights: row t is the mean of the one-hot tokens 0..t)",
                WEIGHTS_MISTAKES[name](T),
            )

        x = seed_x()

        def notebook_x(outcome):
            means = running_means(outcome, x, name)
            close(means[:, 0], x[:, 0], f"step 0 of {name}(x) (the mean of the first token alone is that token)")
            for t, printed in ((1, CAUSAL_MEAN_STEP_1), (7, CAUSAL_MEAN_STEP_7)):
                close(means[0, t], printed, f"{name}(x)[0, {t}] (printed in the notebook)", atol=PRINTED_ATOL)

        found = [
            Case("one-hot tokens: x = torch.eye(5)[None], so the output is the averaging weights", one_hot, call(eye)),
            Case("the notebook's x, shape (4, 8, 2)", notebook_x, call(x)),
        ]
        rng = np.random.default_rng(7)
        for label, x_other in [
            ("x of shape (2, 5, 3)", rng.standard_normal((2, 5, 3)).astype(np.float32)),
            ("one step: x of shape (1, 1, 4)", rng.standard_normal((1, 1, 4)).astype(np.float32)),
        ]:

            def judge(outcome, x=x_other):
                close(
                    running_means(outcome, x, name)[:, 0],
                    x[:, 0],
                    f"step 0 of {name}(x) (the mean of the first token alone is that token)",
                )

            found.append(Case(label, judge, call(x_other)))
        return found

    return cases


def _weights_visible():
    cases = []
    for T in (8, 1):

        def judge(outcome, T=T):
            got = array_of(outcome, "Tensor", (T, T), "floating", f"causal_average_weights({T})")
            rows_sum_to_one(got, f"causal_average_weights({T})")
            future = np.triu(got, 1)
            if np.any(future != 0):
                raise Mismatch(
                    f"causal_average_weights({T}) gives weight to the future: everything above the diagonal must be 0.",
                    expected="0 above the diagonal",
                    got=show(got),
                )

        cases.append(Case(f"T = {T}", judge, call(T)))
    return cases


def masked(shape):
    """What causal_mask gives on zeros of ``shape``: 0 on and below the top-left diagonal, -inf above."""
    keep = np.tril(np.ones(shape[-2:], dtype=bool))
    return np.broadcast_to(np.where(keep, 0.0, -np.inf), shape)


def scores_kept(outcome, what):
    """Refuse a causal mask that changed the scores it was given."""
    if outcome.get("mutated"):
        raise Mismatch(
            f"{what} changed its input in place. Return a new tensor and leave the scores "
            "alone: use scores.masked_fill(...), not masked_fill_ or item assignment on scores.",
            expected="the input unchanged",
            got="the input overwritten",
        )


def _mask_visible():
    cases = []
    for label, shape, batch in [
        ("torch.zeros(8, 8)", (8, 8), None),
        ("torch.zeros(3, 5): more keys than queries", (3, 5), None),
        ("torch.zeros(5, 3): more queries than keys", (5, 3), None),
        ("a batch: torch.zeros(2, 4, 4)", (2, 4, 4), (2,)),
    ]:

        def judge(outcome, shape=shape):
            what = f"causal_mask(torch.zeros{shape})"
            scores_kept(outcome, what)
            got = array_of(outcome, "Tensor", shape, "floating", what)
            close(got, masked(shape), what, diagnoses=[("masking_wrong", np.zeros(shape))])

        cases.append(Case(label, judge, call(np.zeros(shape, dtype=np.float32)), batch=batch and shape))
    return cases


# What the notebook prints for its example without the mask (the scaled output of the earlier notebooks).
EXAMPLE_UNMASKED = np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]])


def example_unmasked(scale, axis=-1):
    """The notebook's example without the mask, with a softmax of its scores times ``scale`` over ``axis``: what a
    known mistake returns (scaled otherwise than by 1/sqrt(3), or the softmax over the queries)."""
    scores = torch.from_numpy(fixture.SCORES.astype(np.float64) * scale)
    return torch.softmax(scores, dim=axis).numpy() @ fixture.VALUES  # torch's softmax: never the students' own


def causal_weights(got, what):
    """Square attention weights (..., T, T) of a causal softmax: none on the future, every row summing to 1."""
    T = got.shape[-1]
    future = np.triu(np.ones((T, T), dtype=bool), 1)
    if not np.all(np.isfinite(got)):
        raise Mismatch(f"{what} has nan or inf values.", expected="finite weights", got=show(got))
    if np.any(np.abs(got[..., future]) > 1e-7):
        raise Mismatch(
            f"{what} gives weight to the future: every weight above the diagonal must be 0 (mask the "
            "scores with -inf before the softmax).",
            expected="0 above the diagonal",
            got=show(got),
            misconception="masking_wrong",
        )
    sums = got.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-5):
        if np.allclose(got.sum(axis=-2), 1.0, atol=1e-5):
            hint = "softmax_dim0"  # the columns sum to 1: the softmax ran over the queries
        elif np.allclose(sums[..., -1], 1.0, atol=1e-5) and np.all(sums < 1.0 + 1e-5):
            hint = "masking_wrong"  # the last row, which sees every key, sums to 1 and the others less: masked after
        else:
            hint = None
        raise Mismatch(
            f"{what}: every row of the weights should sum to 1.",
            expected="row sums [1, 1, ...]",
            got=f"row sums {show(sums)}",
            misconception=hint,
        )


def _sdpa_visible():
    what = "scaled_dot_product_attention(queries, keys, values)"
    q, k, v = fixture.QUERIES, fixture.KEYS, fixture.VALUES
    rng = np.random.default_rng(3)

    def first_row_is_value(outcome, shape, label, values, large=False):
        got = array_of(outcome, "Tensor", shape, "floating", f"{what} on {label}")
        if large:
            finite(got, f"{what} on {label}")
        close(
            got[..., 0, :],
            values[..., 0, :],
            f"row 0 of {what} on {label} (query 0 may only look at key 0, "
            "so all its weight is on key 0 and its output is values[0])",
        )

    def unmasked(outcome):
        got = array_of(outcome, "Tensor", (3, 3), "floating", f"{what} with causal=False")
        close(
            got,
            EXAMPLE_UNMASKED,
            f"{what} with causal=False (printed in the notebook)",
            atol=PRINTED_ATOL,
            diagnoses=[
                ("scaling_wrong", example_unmasked(1.0)),
                ("scaling_wrong", example_unmasked(1 / 3)),
                ("softmax_dim0", example_unmasked(3**-0.5, axis=0)),
            ],
        )

    def one_hot_values(outcome):
        weights = array_of(outcome, "Tensor", (3, 3), "floating", f"{what} with values = torch.eye(3)")
        causal_weights(weights, f"{what} with values = torch.eye(3) (the output is the attention weights)")

    def masked(outcome):
        rows = array_of(outcome, "Tensor", (3, 3), "floating", what)[[0, 2]]
        close(
            rows,
            np.stack([v[0], EXAMPLE_UNMASKED[2]]),
            f"rows 0 and 2 of {what}, causal by default (query 0 sees only key 0, so its output is values[0]; "
            "the last query sees every key, so its row is the one without the mask)",
            atol=PRINTED_ATOL,
            diagnoses=[("masking_wrong", EXAMPLE_UNMASKED[[0, 2]])],
        )

    def copies(outcome):
        got = array_of(outcome, "Tensor", (2, 3, 3), "floating", f"{what} on a batch of two copies")
        close(
            got,
            np.stack([EXAMPLE_UNMASKED] * 2),
            f"{what} with causal=False on a batch of two copies of the example (each is the example's output)",
            atol=PRINTED_ATOL,
            diagnoses=[("softmax_implicit_dim", np.broadcast_to(v.sum(axis=0) / 2, (2, 3, 3)))],
        )

    wide = [
        a.astype(np.float32)
        for a in (rng.standard_normal((2, 3)), rng.standard_normal((4, 3)), rng.standard_normal((4, 2)))
    ]
    batch = [rng.standard_normal((2, 3, 4)).astype(np.float32) for _ in range(3)]
    big = [a * 10 for a in (q, k)]
    pair = [np.stack([a, a]) for a in (q, k, v)]
    return [
        Case("the notebook's example, causal=False", unmasked, call(q, k, v, causal=False)),
        Case(
            "the notebook's queries and keys with values = torch.eye(3), so the output is the attention weights",
            one_hot_values,
            call(q, k, np.eye(3, dtype=np.float32)),
        ),
        Case("the notebook's example, causal by default", masked, call(q, k, v)),
        Case(
            "2 queries and 4 keys", lambda o: first_row_is_value(o, (2, 2), "q (2, 3), k (4, 3)", wide[2]), call(*wide)
        ),
        Case(
            "a batch of two copies of the notebook's example, causal=False",
            copies,
            call(*pair, causal=False),
            batch=(2, 3, 3),
        ),
        Case(
            "a batch of shape (2, 3, 4)",
            lambda o: first_row_is_value(o, (2, 3, 4), "a batch", batch[2]),
            call(*batch),
            batch=(2, 3, 4),
        ),
        Case(
            "large scores: the notebook's example queries and keys times 10",
            lambda o: first_row_is_value(o, (3, 3), "large scores", v, large=True),
            call(*big, v),
        ),
    ]


HEAD_WEIGHTS = {
    "query.weight": fixture.W_QUERY.T.copy(),
    "key.weight": fixture.W_KEY.T.copy(),
    "value.weight": fixture.W_VALUE.T.copy(),
}  # the notebook's example weights, as nn.Linear stores them


def check_head_layout(outcome, embed_dim, head_size):
    """The Head's children and parameters: bias-free nn.Linear key, query, value; any buffers are fine."""
    children = outcome.get("children", {})
    for name in ("key", "query", "value"):
        child = children.get(name)
        if child is None or not child["linear"]:
            raise Mismatch(
                f"Head should have an attribute `{name}` that is an nn.Linear.",
                expected=f"self.{name} = nn.Linear(embed_dim, head_size, bias=False)",
                got=f"children {sorted(children)}",
            )
        if child["bias"]:
            raise Mismatch(f"self.{name} should have no bias.", expected="nn.Linear(..., bias=False)", got="a bias")
    wanted = {f"{name}.weight": [head_size, embed_dim] for name in ("key", "query", "value")}
    parameters_as_wanted(outcome, wanted, f"Head({embed_dim}, {head_size})")


def head_params(state, inputs, embed_dim, head_size, dropout=None, train=False):
    """What a Head is made and called with: its arguments, the weights loaded into it, its inputs, its mode."""
    init = {"embed_dim": embed_dim, "head_size": head_size}
    if dropout is not None:
        init["dropout"] = dropout
    return {
        "init": init,
        "state": {name: TensorArg(w) for name, w in state.items()},
        "inputs": tuple(TensorArg(a) for a in inputs),
        "forward_kwargs": {},
        "train": train,
    }


def _head_visible():
    x = seed_x()

    def layout(outcome):
        check_head_layout(outcome, 2, 3)
        array_of(outcome, "Tensor", (4, 8, 3), "floating", "Head(2, 3)(x, x, x)")

    cases = [
        Case(
            "Head(2, 3) on the notebook's x",
            layout,
            {
                "init": {"embed_dim": 2, "head_size": 3},
                "state": None,
                "inputs": (TensorArg(x), TensorArg(x), TensorArg(x)),
                "forward_kwargs": {},
                "train": False,
            },
            probe="module",
        )
    ]
    cases += _head_example_cases()
    rng = np.random.default_rng(5)
    sequences = rng.standard_normal((3, 2, 5, 4)).astype(np.float32)
    for label, inputs, extra in [
        ("one token: x of shape (2, 1, 4)", (sequences[0, :, :1],) * 3, {}),
        ("different query, key and value inputs", tuple(sequences), {}),
        ("dropout=0.5, in eval mode", (sequences[0],) * 3, {"dropout": 0.5}),
        ("dropout=0.0, in training mode", (sequences[0],) * 3, {"dropout": 0.0, "train": True}),
        ("large scores: the notebook's example x times 10", (fixture.X[None] * 10,) * 3, {"large": True}),
    ]:
        large = extra.pop("large", False)
        value = inputs[2]

        def judge(outcome, value=value, large=large, label=label):
            check_head_layout(outcome, 4, 3)
            what = f"Head(4, 3) on {label}"
            got = array_of(outcome, "Tensor", (*value.shape[:-1], 3), "floating", what)
            if large:
                finite(got, what)
            close(
                got[:, 0],
                value[:, 0] @ HEAD_WEIGHTS["value.weight"].T,
                f"position 0 of {what} (the first token sees only itself, so its output is its value)",
                rtol=1e-4,
                atol=1e-4,
            )

        cases.append(Case(label, judge, head_params(HEAD_WEIGHTS, inputs, 4, 3, **extra), probe="module"))
    return cases


def _head_example_cases():
    """Head(4, 3) with the notebook's example weights: its queries, keys and values are the example's."""
    x = fixture.X[None]  # the example's three tokens, as a batch of one
    what = "Head(4, 3) with the notebook's example weights"
    # Value weights that pass the first 3 features through, on one-hot value inputs: the values are torch.eye(3).
    copying = {**HEAD_WEIGHTS, "value.weight": np.eye(3, 4, dtype=np.float32)}
    one_hot = np.eye(3, 4, dtype=np.float32)[None]

    def weights(outcome):
        check_head_layout(outcome, 4, 3)
        got = array_of(outcome, "Tensor", (1, 3, 3), "floating", f"{what} and values torch.eye(3)")
        causal_weights(got[0], f"{what} and values torch.eye(3) (the output is the attention weights)")

    def example(outcome):
        check_head_layout(outcome, 4, 3)
        got = array_of(outcome, "Tensor", (1, 3, 3), "floating", f"{what} on the example x")[0]
        first_and_last = [
            ("scaling_wrong", np.stack([fixture.VALUES[0], example_unmasked(scale)[2]]))
            for scale in (1.0, 1 / 3, 4**-0.5)
        ]  # unscaled, / head_size, by embed_dim ** -0.5
        close(
            got[[0, 2]],
            np.stack([fixture.VALUES[0], EXAMPLE_UNMASKED[2]]),
            f"positions 0 and 2 of {what} on the example x (position 0 sees only itself, so its output is "
            "values[0]; the last position sees every token, so its output is the notebook's unmasked row, "
            "scaled by head_size ** -0.5)",
            atol=PRINTED_ATOL,
            diagnoses=[*first_and_last, ("masking_wrong", EXAMPLE_UNMASKED[[0, 2]])],
        )

    # The example's scores are symmetric, so queries and keys swapped give its output all the same. With the key
    # and value weights exchanged, the keys are the example's values and the values its keys: the scores
    # queries @ values.T are not symmetric, and the swap transposes them.
    exchanged = {**HEAD_WEIGHTS, "key.weight": HEAD_WEIGHTS["value.weight"], "value.weight": HEAD_WEIGHTS["key.weight"]}
    queries, keys, values = (a.astype(np.float64) for a in (fixture.QUERIES, fixture.KEYS, fixture.VALUES))

    def first_and_last(scores):
        """Positions 0 and 2 of the output with these weights, from its scores before the scaling: position 0 sees
        only itself, the last position every token."""
        last = torch.softmax(torch.from_numpy(scores[2] * 3**-0.5), dim=-1).numpy() @ keys
        return np.stack([keys[0], last])

    def exchanged_example(outcome):
        check_head_layout(outcome, 4, 3)
        label = f"{what}, its key and value weights exchanged, on the example x"
        got = array_of(outcome, "Tensor", (1, 3, 3), "floating", label)[0, [0, 2]]
        label = f"positions 0 and 2 of {label} (position 0 sees only itself, the last position every token)"
        expected = first_and_last(queries @ values.T)
        queries_keys_swapped(got, first_and_last(values @ queries.T), expected, label, atol=PRINTED_ATOL)
        close(got, expected, label, atol=PRINTED_ATOL)

    # The example, and the example with its last token replaced: positions 0 and 1 must not change.
    changed = np.stack([fixture.X, fixture.X])
    changed[1, 2] = [3.0, -1.0, 2.0, 0.0]

    def later_token(outcome):
        check_head_layout(outcome, 4, 3)
        got = array_of(outcome, "Tensor", (2, 3, 3), "floating", f"{what} on the example and a changed copy")
        if not np.allclose(got[1, :2], got[0, :2], rtol=1e-4, atol=1e-4):
            raise Mismatch(
                f"positions 0 and 1 of {what} changed when the last token was replaced: a later token "
                "must never change an earlier output.",
                expected=show(got[0, :2]),
                got=show(got[1, :2]),
                misconception="masking_wrong",
            )

    return [
        Case(
            "the notebook's example weights, with value weights that copy one-hot value inputs, so the "
            "output is the attention weights",
            weights,
            head_params(copying, (x, x, one_hot), 4, 3),
            probe="module",
        ),
        Case(
            "the notebook's example weights loaded, x = the notebook's example",
            example,
            head_params(HEAD_WEIGHTS, (x, x, x), 4, 3),
            probe="module",
        ),
        Case(
            "the notebook's example weights with the key and value weights exchanged, x = the notebook's example",
            exchanged_example,
            head_params(exchanged, (x, x, x), 4, 3),
            probe="module",
        ),
        Case(
            "the notebook's example and a copy whose last token was replaced",
            later_token,
            head_params(HEAD_WEIGHTS, (changed,) * 3, 4, 3),
            probe="module",
        ),
    ]


# ---- hidden: known outputs ----
# Running means of x = torch.randn(4, 8, 2) after torch.manual_seed(42) (the grader draws x itself): CAUSAL_MEAN_STEP_1
# and CAUSAL_MEAN_STEP_7 above, which the notebook prints.
CAUSAL_WEIGHTS_ROW_3 = np.array([0.25] * 4 + [0.0] * 4)  # row 3 of causal_average_weights(8)
# torch.manual_seed(42); b = torch.randint(0, 10, (8, 2)).float(), as printed in the source.
RANDINT_B = np.array([[2, 7], [6, 4], [6, 5], [0, 4], [0, 3], [8, 4], [0, 4], [1, 2]], dtype=np.float32)
RANDINT_RUNNING_MEAN_LAST = np.array([2.875, 4.125])

# ---- hidden checks ----
ref = reference.of(NOTEBOOK)

RUNNING_SHAPES = [(2, 5, 3), (1, 1, 4), (3, 9, 2), (2, 4, 7)]


def _t(array):
    return torch.from_numpy(np.asarray(array, dtype=np.float32))


# ---- wrong answers, to recognise them on any input ----

# The catalogue's wrong answers to each running mean: (misconception, wrong answer).
RUNNING_MEAN_MISTAKES = {
    "causal_average_loop": [],
    "causal_average_matmul": [("softmax_dim0", "matmul_columns")],
    "causal_average_softmax": [
        ("softmax_dim0", "softmax_dim0"),
        ("masking_wrong", "softmax_zero_mask"),
        ("masking_wrong", "softmax_mask_after"),
    ],
}
# The catalogue's wrong answers to scaled_dot_product_attention, on any input, with the causal mask, on a batch.
SDPA_MISTAKES = [
    ("scaling_wrong", "sdpa_unscaled"),
    ("scaling_wrong", "sdpa_divide_by_d"),
    ("softmax_dim0", "sdpa_softmax_dim0"),
]
SDPA_CAUSAL_MISTAKES = [
    ("masking_wrong", "sdpa_zero_mask"),
    ("masking_wrong", "sdpa_weights_times_tril"),
    ("masking_wrong", "sdpa_never_masks"),
]
SDPA_BATCH_MISTAKES = [("softmax_implicit_dim", "sdpa_softmax_no_dim")]


def _running_mean_diagnoses(name, x):
    return [found for key, wrong in RUNNING_MEAN_MISTAKES[name] for found in diagnosis(key, name, wrong, _t(x))]


def _sdpa_diagnoses(q, k, v, causal):
    mistakes = SDPA_MISTAKES + (SDPA_CAUSAL_MISTAKES if causal else []) + (SDPA_BATCH_MISTAKES if q.ndim > 2 else [])
    return [
        found
        for key, wrong in mistakes
        for found in diagnosis(key, "scaled_dot_product_attention", wrong, _t(q), _t(k), _t(v), causal=causal)
    ]


def _softmax_implicit_dim(ndim):
    return 0 if ndim in (0, 1, 3) else 1  # what F.softmax picks without dim


def _attention_diagnoses(q, k, v, causal, scale, other_scales=()):
    """A head's answers with one known mistake, computed here on its projections: (key, array) pairs for
    :func:`diagnose`. The catalogue has no wrong Head for some of them (masking after the softmax, softmax
    without dim), and its Head that divides by head_size rounds otherwise than this product by 1 / d."""
    q, k, v = _t(q), _t(k), _t(v)
    raw = q @ k.transpose(-2, -1)
    L, S = raw.shape[-2:]
    keep = torch.ones(L, S).tril().bool()

    def masked(scores, fill=float("-inf")):
        return scores.masked_fill(~keep, fill) if causal else scores

    d = q.shape[-1]
    found = [("scaling_wrong", (F.softmax(masked(raw * s), dim=-1) @ v).numpy()) for s in (1.0, 1.0 / d, *other_scales)]
    found.append(("softmax_dim0", (F.softmax(masked(raw * scale), dim=-2) @ v).numpy()))
    if causal:
        found += [
            ("masking_wrong", (F.softmax(masked(raw * scale, 0.0), dim=-1) @ v).numpy()),  # 0, not -inf
            ("masking_wrong", ((F.softmax(raw * scale, dim=-1) * keep) @ v).numpy()),  # after softmax
            ("masking_wrong", (F.softmax(raw * scale, dim=-1) @ v).numpy()),
        ]  # no mask at all
    if raw.ndim > 2:
        dim = _softmax_implicit_dim(raw.ndim)
        found.append(("softmax_implicit_dim", (F.softmax(masked(raw * scale), dim=dim) @ v).numpy()))
    return [(key, wrong) for key, wrong in found if np.isfinite(wrong).all()]  # nan would match any answer's nan


# ---- the running mean: loop, matmul, softmax ----


def _running_mean_known(name):
    def cases():
        x = seed_x()
        diagnoses = _running_mean_diagnoses(name, x)

        def judge_x(outcome):
            got = running_means(outcome, x, name)
            for t, expected in ((1, CAUSAL_MEAN_STEP_1), (7, CAUSAL_MEAN_STEP_7)):
                close(
                    got[0, t],
                    expected,
                    f"{name}(x)[0, {t}]",
                    atol=known.SOURCE_ATOL,
                    diagnoses=[(key, wrong[0, t]) for key, wrong in diagnoses],
                )

        b = RANDINT_B[None]  # (1, 8, 2)
        b_diagnoses = _running_mean_diagnoses(name, b)

        def judge_b(outcome):
            got = running_means(outcome, b, name, "b[None]")
            close(
                got[0, -1],
                RANDINT_RUNNING_MEAN_LAST,
                f"the last step of {name}(b[None])",
                atol=known.SOURCE_ATOL,
                diagnoses=[(key, wrong[0, -1]) for key, wrong in b_diagnoses],
            )

        return [
            Case("the notebook's x (torch.manual_seed(42); torch.randn(4, 8, 2))", judge_x, call(x)),
            Case("the notebook's b = torch.randint(0, 10, (8, 2)).float(), as a batch of one", judge_b, call(b)),
        ]

    return cases


def _running_mean_random(name):
    def cases():
        reference = getattr(ref, name)  # here, not at import: the solution notebook runs only when it is needed
        found = []
        for seed, shape in enumerate(RUNNING_SHAPES):
            x = random_array(np.random.default_rng(100 + seed), *shape)
            expected = reference(_t(x)).numpy()
            judge = expect(
                "Tensor", expected, f"{name} on x of shape {shape}", diagnoses=_running_mean_diagnoses(name, x)
            )
            found.append(Case(f"random x of shape {shape}", judge, call(x)))
        return found

    return cases


def _weights_diagnoses(T):
    return diagnosis("softmax_dim0", "causal_average_weights", "weights_columns", T)


def _weights_known():
    def judge(outcome):
        got = array_of(outcome, "Tensor", (8, 8), "floating", "causal_average_weights(8)")
        close(
            got[3],
            CAUSAL_WEIGHTS_ROW_3,
            "row 3 of causal_average_weights(8)",
            atol=known.SOURCE_ATOL,
            diagnoses=[(key, wrong[3]) for key, wrong in _weights_diagnoses(8)],
        )

    return [Case("T = 8", judge, call(8))]


def _weights_random():
    found = []
    for T in (1, 2, 5, 13):
        judge = expect(
            "Tensor",
            ref.causal_average_weights(T).numpy(),
            f"causal_average_weights({T})",
            diagnoses=_weights_diagnoses(T),
        )
        found.append(Case(f"T = {T}", judge, call(T)))
    return found


# ---- causal_mask ----


def _mask_cases(shapes, seed0):
    found = []
    for seed, shape in enumerate(shapes):
        scores = random_array(np.random.default_rng(seed0 + seed), *shape)
        expected = ref.causal_mask(_t(scores)).numpy()
        judge = expect(
            "Tensor",
            expected,
            f"causal_mask on scores of shape {shape}",
            diagnoses=diagnosis("masking_wrong", "causal_mask", "mask_with_zero", _t(scores)),
        )
        found.append(batched(Case(f"random scores of shape {shape}", judge, call(scores)), scores.shape, 2))
    return found


def _mask_random():
    return _mask_cases([(5, 5), (3, 6), (6, 3), (1, 4), (4, 1)], 200)


def _mask_batches():
    return _mask_cases([(2, 4, 4), (2, 3, 5, 6), (3, 1, 7, 5)], 210)


def _mask_new_tensor():
    scores = random_array(np.random.default_rng(220), 4, 6)
    expected = ref.causal_mask(_t(scores)).numpy()

    def judge(outcome):
        scores_kept(outcome, "causal_mask")
        close(
            array_of(outcome, "Tensor", expected.shape, "floating", "causal_mask(scores)"),
            expected,
            "causal_mask(scores)",
        )

    return [Case("random scores of shape (4, 6), checked after the call", judge, call(scores))]


# ---- scaled_dot_product_attention ----


def _sdpa_case(q, k, v, causal, label, atol=1e-6, expected=None, pass_flag=True):
    if expected is None:
        expected = ref.scaled_dot_product_attention(_t(q), _t(k), _t(v), causal=causal).numpy()
    diagnoses = _sdpa_diagnoses(q, k, v, causal)
    what = f"scaled_dot_product_attention(q {q.shape}, k {k.shape}, v {v.shape}, causal={causal})"
    kwargs = {"causal": causal} if pass_flag else {}
    return Case(label, expect("Tensor", expected, what, atol=atol, diagnoses=diagnoses), call(q, k, v, **kwargs))


def _sdpa_known():
    example = (fixture.QUERIES, fixture.KEYS, fixture.VALUES)
    return [
        _sdpa_case(
            *example,
            False,
            "the notebook's example, causal=False (the scaled output)",
            atol=known.SOURCE_ATOL,
            expected=known.SCALED_OUTPUT,
        ),
        _sdpa_case(*example, True, "the notebook's example, causal by default", pass_flag=False),
    ]


def _qkv(seed, batch, L, S, d, dv):
    rng = np.random.default_rng(seed)
    return random_array(rng, *batch, L, d), random_array(rng, *batch, S, d), random_array(rng, *batch, S, dv)


def _sdpa_cases(shapes, seed0):
    found = []
    for seed, (batch, L, S, d, dv, causal) in enumerate(shapes):
        q, k, v = _qkv(seed0 + seed, batch, L, S, d, dv)
        case = _sdpa_case(q, k, v, causal, f"random q {q.shape}, k {k.shape}, v {v.shape}, causal={causal}")
        found.append(batched(case, q.shape, 2))
    return found


# ---- Head ----


def _head_state(rng, embed_dim, head_size):
    return {f"{name}.weight": random_array(rng, head_size, embed_dim) for name in ("key", "query", "value")}


def _head_reference(state, inputs, embed_dim, head_size):
    head = ref.Head(embed_dim, head_size).eval()
    head.load_state_dict({name: _t(w) for name, w in state.items()})
    with torch.no_grad():
        return head(*(_t(a) for a in inputs)).numpy()


def _head_diagnoses(state, inputs, embed_dim, head_size):
    query, key, value = (_t(a) for a in inputs)
    q = (query @ _t(state["query.weight"]).T).numpy()
    k = (key @ _t(state["key.weight"]).T).numpy()
    v = (value @ _t(state["value.weight"]).T).numpy()
    others = (embed_dim**-0.5,) if embed_dim != head_size else ()
    return _attention_diagnoses(q, k, v, True, head_size**-0.5, others)


def _head_case(label, state, inputs, embed_dim, head_size, dropout=None, train=False):
    expected = _head_reference(state, inputs, embed_dim, head_size)
    diagnoses = _head_diagnoses(state, inputs, embed_dim, head_size)
    what = f"Head({embed_dim}, {head_size}) on inputs of shape {inputs[0].shape}"
    compare = expect("Tensor", expected, what, diagnoses=diagnoses)

    def judge(outcome):
        check_head_layout(outcome, embed_dim, head_size)
        compare(outcome)

    return Case(label, judge, head_params(state, inputs, embed_dim, head_size, dropout, train), probe="module")


def _head_fixture():
    state = {
        "query.weight": fixture.W_QUERY.T.copy(),
        "key.weight": fixture.W_KEY.T.copy(),
        "value.weight": fixture.W_VALUE.T.copy(),
    }
    x = fixture.X[None]  # (1, 3, 4)
    return [_head_case("the notebook's example weights and inputs", state, (x, x, x), 4, 3)]


def _head_random():
    found = []
    for seed, (B, T, E, hs, distinct) in enumerate(
        [(2, 5, 4, 3, False), (3, 7, 6, 4, False), (1, 1, 3, 2, False), (2, 6, 5, 8, True)]
    ):
        rng = np.random.default_rng(400 + seed)
        state = _head_state(rng, E, hs)
        x = random_array(rng, B, T, E)
        inputs = (x, random_array(rng, B, T, E), random_array(rng, B, T, E)) if distinct else (x, x, x)
        kind = "different query, key and value inputs" if distinct else "self-attention"
        found.append(
            _head_case(f"random weights, inputs ({B}, {T}, {E}), head_size {hs}, {kind}", state, inputs, E, hs)
        )
    return found


def _head_causality():
    B, T, E, hs, t0 = 2, 7, 5, 4, 4
    rng = np.random.default_rng(420)
    state = _head_state(rng, E, hs)
    x = random_array(rng, B, T, E)
    changed = x.copy()
    changed[:, t0:] = random_array(rng, B, T - t0, E) * 3
    before = _head_reference(state, (x, x, x), E, hs)[:, :t0]
    diagnoses = [(key, wrong[:, :t0]) for key, wrong in _head_diagnoses(state, (changed,) * 3, E, hs)]
    diagnoses.append(("softmax_unstable", lambda got: not np.isfinite(got).all()))  # tokens 3 times larger

    def judge(outcome):
        check_head_layout(outcome, E, hs)
        got = array_of(outcome, "Tensor", (B, T, hs), "floating", f"Head({E}, {hs}) on the changed input")
        close(
            got[:, :t0],
            before,
            f"the outputs at positions 0-{t0 - 1} on an input whose tokens from position "
            f"{t0} on were replaced (a causal head gives the same outputs there as on the unchanged input)",
            diagnoses=diagnoses,
        )

    return [
        Case(
            f"inputs whose tokens {t0}-{T - 1} were replaced",
            judge,
            head_params(state, (changed,) * 3, E, hs),
            probe="module",
        )
    ]


def _head_dropout():
    rng = np.random.default_rng(430)
    state = _head_state(rng, 6, 3)
    x = random_array(rng, 2, 5, 6)
    return [
        _head_case("dropout=0.5 in eval mode (no dropout)", state, (x, x, x), 6, 3, dropout=0.5),
        _head_case("dropout=0.0 in training mode", state, (x, x, x), 6, 3, dropout=0.0, train=True),
    ]


# ---- hidden: wrong answers, as edits of the reference cells (grader/hidden/edits.py) ----
MASK = (
    "keep = torch.ones(*scores.shape[-2:]).tril().bool()  # True = may look\n"
    '        scores = scores.masked_fill(~keep, float("-inf"))'
)
SDPA = edit(reference_cell("scaled_dot_product_attention"), ("scores = causal_mask(scores)", MASK))
HEAD = edit(
    reference_cell("Head"),
    ("F.softmax(causal_mask(scores), dim=-1)", "F.softmax(scores, dim=-1)"),
    ("        weights = self.dropout", f"        {MASK}\n        weights = self.dropout"),
)
RUNNING_MEANS = '''\
    """The running means of the notebook's x, whatever x is."""
    seed_x = torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42))
    return torch.cumsum(seed_x, dim=1) / torch.arange(1, 9).reshape(1, 8, 1)
'''

WRONG_ANSWERS = (
    *making(
        "softmax_dim0",
        Wrong(
            "causal_average_weights",
            "weights_columns",
            edit(reference_cell("causal_average_weights"), ("dim=1", "dim=0")),
        ),
        Wrong(
            "causal_average_matmul",
            "matmul_columns",
            """\
def causal_average_matmul(x):
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T))
    return tril / tril.sum(dim=0, keepdim=True) @ x
""",
        ),
        Wrong(
            "causal_average_softmax",
            "softmax_dim0",
            """\
def causal_average_softmax(x):
    T = x.shape[1]
    keep = torch.ones(T, T).tril().bool()
    return F.softmax(torch.zeros(T, T).masked_fill(~keep, float("-inf")), dim=0) @ x
""",
        ),
        Wrong("scaled_dot_product_attention", "sdpa_softmax_dim0", edit(SDPA, ("dim=-1", "dim=-2"))),
        Wrong("Head", "head_softmax_dim1", edit(HEAD, ("dim=-1", "dim=1"))),
    ),
    *making(
        "softmax_implicit_dim",
        Wrong(
            "scaled_dot_product_attention",
            "sdpa_softmax_no_dim",
            edit(SDPA, (", dim=-1) @ v  # (..., L, d_v)", ") @ v  # right on one matrix, wrong on a batch")),
        ),
    ),
    *making(
        "scaling_wrong",
        Wrong("scaled_dot_product_attention", "sdpa_unscaled", edit(SDPA, (" * q.size(-1) ** -0.5", "")), demo=True),
        Wrong(
            "scaled_dot_product_attention", "sdpa_divide_by_d", edit(SDPA, ("q.size(-1) ** -0.5", "(1.0 / q.size(-1))"))
        ),
        Wrong("Head", "head_divided_by_head_size", edit(HEAD, ("* k.size(-1) ** -0.5", "/ k.size(-1)")), demo=True),
        Wrong("Head", "head_unscaled", edit(HEAD, (" * k.size(-1) ** -0.5", ""))),
        Wrong("Head", "head_scaled_by_embed_dim", edit(HEAD, ("k.size(-1) ** -0.5", "query.size(-1) ** -0.5"))),
    ),
    *making(
        "masking_wrong",
        Wrong(
            "causal_mask", "mask_with_zero", edit(reference_cell("causal_mask"), ('float("-inf")', "0.0")), demo=True
        ),
        Wrong(
            "scaled_dot_product_attention",
            "sdpa_mask_after",
            '''\
import math

import torch


def scaled_dot_product_attention(q, k, v, causal=True):
    """softmax(q k^T / sqrt(d)) v, with the future removed."""
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    if causal:
        L, S = weights.shape[-2:]
        weights = weights.masked_fill(torch.ones(L, S, dtype=torch.bool).triu(1), 0.0)
    return weights @ v
''',
            demo=True,
        ),
        Wrong(
            "scaled_dot_product_attention",
            "sdpa_weights_times_tril",
            """\
def scaled_dot_product_attention(q, k, v, causal=True):
    weights = F.softmax(q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5, dim=-1)
    if causal:
        weights = weights * torch.ones(*weights.shape[-2:]).tril().bool()
    return weights @ v
""",
        ),
        Wrong("scaled_dot_product_attention", "sdpa_zero_mask", edit(SDPA, ('float("-inf")', "0.0"))),
        Wrong(
            "scaled_dot_product_attention", "sdpa_never_masks", edit(SDPA, (f"    if causal:\n        {MASK}\n", ""))
        ),
        Wrong(
            "causal_average_softmax",
            "softmax_zero_mask",
            """\
def causal_average_softmax(x):
    T = x.shape[1]
    keep = torch.ones(T, T).tril().bool()
    return F.softmax(torch.zeros(T, T).masked_fill(~keep, 0.0), dim=-1) @ x
""",
        ),
        Wrong(
            "causal_average_softmax",
            "softmax_mask_after",
            """\
def causal_average_softmax(x):
    T = x.shape[1]
    return (F.softmax(torch.zeros(T, T), dim=-1) * torch.tril(torch.ones(T, T))) @ x
""",
        ),
        Wrong("Head", "head_zero_mask", edit(HEAD, ('float("-inf")', "0.0"))),
        Wrong("Head", "head_never_masks", edit(HEAD, (f"        {MASK}\n", ""))),
    ),
    *making(
        "softmax_unstable",
        Wrong(
            "scaled_dot_product_attention",
            "sdpa_unstable",
            edit(
                SDPA,
                (
                    "return F.softmax(scores, dim=-1) @ v",
                    "e = scores.exp()\n    return e / e.sum(-1, keepdim=True) @ v",
                ),
            ),
        ),
        Wrong(
            "Head",
            "head_unstable",
            edit(
                HEAD,
                (
                    "weights = self.dropout(F.softmax(scores, dim=-1))",
                    "e = scores.exp()\n        weights = self.dropout(e / e.sum(-1, keepdim=True))",
                ),
            ),
        ),
        Wrong(
            "scaled_dot_product_attention",
            "sdpa_global_max",
            edit(
                SDPA,
                (
                    "return F.softmax(scores, dim=-1) @ v",
                    "e = (scores - scores.max()).exp()  # one maximum for the whole tensor\n"
                    "    return e / e.sum(-1, keepdim=True) @ v",
                ),
            ),
        ),
        Wrong(
            "Head",
            "head_global_max",
            edit(
                HEAD,
                (
                    "weights = self.dropout(F.softmax(scores, dim=-1))",
                    "e = (scores - scores.max()).exp()  # one maximum for the whole batch\n"
                    "        weights = self.dropout(e / e.sum(-1, keepdim=True))",
                ),
            ),
        ),
    ),
    # Mistakes that no misconception of the catalogue names.
    Wrong(
        "Head",
        "head_queries_from_key_weights",
        edit(
            HEAD,
            (
                "q, k, v = self.query(query), self.key(key), self.value(value)",
                "q, k, v = self.key(query), self.query(key), self.value(value)",
            ),
        ),
    ),
    Wrong("causal_average_loop", "loop_hard_coded", "def causal_average_loop(x):\n" + RUNNING_MEANS),
    Wrong(
        "causal_average_loop",
        "loop_excludes_current",
        edit(
            reference_cell("causal_average_loop"),
            ("x[b, :t + 1].mean(dim=0)  # (C,)", "x[b, :t].mean(dim=0)  # nan at t = 0"),
        ),
    ),
    Wrong(
        "causal_average_weights",
        "weights_hard_coded",
        edit(reference_cell("causal_average_weights"), ("torch.ones(T, T)", "torch.ones(8, 8)")),
    ),
    Wrong(
        "causal_average_weights",
        "weights_no_tril",
        edit(reference_cell("causal_average_weights"), ("torch.tril(torch.ones(T, T))", "torch.ones(T, T)")),
    ),
    Wrong("causal_average_matmul", "matmul_hard_coded", "def causal_average_matmul(x):\n" + RUNNING_MEANS),
    Wrong(
        "causal_average_matmul",
        "matmul_sums",
        """\
def causal_average_matmul(x):
    return torch.tril(torch.ones(x.shape[1], x.shape[1])) @ x  # running sums, not means
""",
    ),
    Wrong(
        "causal_mask",
        "mask_in_place",
        edit(
            reference_cell("causal_mask"),
            (
                'scores.masked_fill(~keep, float("-inf"))',
                'scores.masked_fill_(~keep, float("-inf"))  # right values, but the caller\'s scores overwritten',
            ),
        ),
    ),
    Wrong(
        "causal_mask",
        "mask_matrix_only",
        edit(
            reference_cell("causal_mask"),
            ("L, S = scores.shape[-2:]", "L, S = scores.shape  # right on one matrix, fails on a batch"),
        ),
    ),
    Wrong("causal_mask", "mask_bottom_right", edit(reference_cell("causal_mask"), (".tril()", ".tril(S - L)"))),
    Wrong(
        "causal_mask",
        "mask_hard_coded",
        """\
def causal_mask(scores):
    return torch.zeros(8, 8).masked_fill(~torch.ones(8, 8).tril().bool(), float("-inf"))
""",
    ),
    Wrong("causal_average_softmax", "softmax_hard_coded", "def causal_average_softmax(x):\n" + RUNNING_MEANS),
    Wrong(
        "scaled_dot_product_attention",
        "sdpa_hard_coded",
        """\
def scaled_dot_product_attention(q, k, v, causal=True):
    return torch.tensor([[1.0, 2.0, 3.0], [1.9990, 7.9941, 0.0029], [1.9926, 7.4796, 0.7359]])
""",
    ),
    Wrong(
        "Head",
        "head_dropout_always",
        edit(
            HEAD,
            (
                "self.dropout(F.softmax(scores, dim=-1))  # (B, T, T)",
                "F.dropout(F.softmax(scores, dim=-1), self.dropout.p, training=True)  # in eval mode too",
            ),
        ),
    ),
    Wrong(
        "Head",
        "HeadWithBias",
        edit(
            HEAD,
            *(
                (
                    f"self.{name} = nn.Linear(embed_dim, head_size, bias=False)",
                    f"self.{name} = nn.Linear(embed_dim, head_size)",
                )
                for name in ("key", "query", "value")
            ),
        ),
    ),
)


PARTS = {
    "causal_average_loop": [
        Part(
            "one-hot tokens give the averaging weights; the notebook's running means; step 0 is x[:, 0]",
            1,
            _running_mean_visible("causal_average_loop"),
            requires={"shape", "edge"},
        ),
        Part("the notebook's running means", 1, _running_mean_known("causal_average_loop"), hidden=True),
        Part(
            "random batches, lengths and widths",
            1,
            _running_mean_random("causal_average_loop"),
            gate=True,
            requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "causal_average_weights": [
        Part(
            "returns a float (T, T) tensor, lower triangular, rows summing to 1", 1, _weights_visible, requires={"edge"}
        ),
        Part("row 3 of T = 8", 1, _weights_known, hidden=True),
        Part("other lengths T", 1, _weights_random, gate=True, requires={"edge"}, hidden=True),
    ],
    "causal_average_matmul": [
        Part(
            "one-hot tokens give the averaging weights; the notebook's running means; step 0 is x[:, 0]",
            1,
            _running_mean_visible("causal_average_matmul"),
            requires={"shape", "edge"},
        ),
        Part("the notebook's running means", 1, _running_mean_known("causal_average_matmul"), hidden=True),
        Part(
            "random batches, lengths and widths",
            1,
            _running_mean_random("causal_average_matmul"),
            gate=True,
            requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "causal_mask": [
        Part(
            "0 on and below the diagonal, -inf above, for square, non-square and batched scores; the input unchanged",
            1,
            _mask_visible,
            requires={"shape", "batch", "inputs"},
        ),
        Part("random square and non-square scores", 1, _mask_random, gate=True, requires={"shape"}, hidden=True),
        Part("batches of scores", 1, _mask_batches, requires={"batch"}, hidden=True),
        Part(
            "returns a new tensor, the input unchanged", 1, _mask_new_tensor, requires={"inputs", "shape"}, hidden=True
        ),
    ],
    "causal_average_softmax": [
        Part(
            "one-hot tokens give the averaging weights; the notebook's running means; step 0 is x[:, 0]",
            1,
            _running_mean_visible("causal_average_softmax"),
            requires={"shape", "edge"},
        ),
        Part("the notebook's running means", 1, _running_mean_known("causal_average_softmax"), hidden=True),
        Part(
            "random batches, lengths and widths",
            1,
            _running_mean_random("causal_average_softmax"),
            gate=True,
            requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "scaled_dot_product_attention": [
        Part(
            "the notebook's output with and without the mask; weights on the past only, summing to 1; "
            "query 0 sees only key 0; non-square, batched and large scores",
            1,
            _sdpa_visible,
            requires={"argument", "shape", "batch", "large"},
        ),
        *known_random_batches(
            (
                "the notebook's example, with and without the mask",
                "random single sequences, square and non-square",
                "leading batch dimensions",
            ),
            _sdpa_known,
            _sdpa_cases,
            random=(
                [
                    ((), 5, 5, 4, 3, True),
                    ((), 5, 5, 4, 3, False),
                    ((), 3, 6, 8, 2, True),
                    ((), 6, 3, 2, 5, True),
                    ((), 4, 7, 3, 3, False),
                ],
                300,
            ),
            batches=(
                [
                    ((2,), 5, 5, 4, 3, True),
                    ((3,), 4, 6, 5, 2, True),
                    ((2,), 6, 6, 3, 4, False),
                    ((2, 3), 4, 4, 8, 3, True),
                    ((2, 2), 5, 3, 4, 4, True),
                ],
                310,
            ),
            requires={"argument"},
            hidden=True,
        ),
    ],
    "Head": [
        Part(
            "bias-free nn.Linear key, query, value; given weights load; weights on the past only, summing to 1; "
            "the scaled output of the notebook's example; a later token never changes an earlier output",
            1,
            _head_visible,
            requires={"weights", "edge", "shape", "mode", "causal", "large"},
        ),
        Part("the notebook's example weights", 1, _head_fixture, requires={"weights"}, hidden=True),
        Part(
            "random weights and inputs", 1, _head_random, gate=True, requires={"edge", "shape", "weights"}, hidden=True
        ),
        Part(
            "a later token never changes an earlier output",
            1,
            _head_causality,
            requires={"causal", "weights"},
            hidden=True,
        ),
        Part("dropout off in eval mode", 1, _head_dropout, requires={"mode", "weights"}, hidden=True),
    ],
}
