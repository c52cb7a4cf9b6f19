"""01 · Attention basics (01_attention_basics.ipynb): its exercises' checks, written once.

Visible parts first, then what only grading uses: the known outputs, the hidden parts (``hidden=True``, where
each stands in ``PARTS``) and the wrong answers. The student's copy holds the visible parts only
(grader/release/compile.py).
"""

import numpy as np
import torch

from .. import reference
from ..checks import fixture
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import array_of, close, diagnose, expect, finite, inputs_unchanged, matches, show
from ..checks.misconceptions import Misconception
from ..checks.plain import TensorArg, call
from ..hidden import known
from ..hidden.catalogue import diagnosis
from ..hidden.edits import edit, reference_cell
from ..hidden.randomised import batched, random_array
from ..hidden.wrong_answers import Wrong, making

NOTEBOOK = "01_attention_basics.ipynb"

# The misconceptions first met in this notebook, in words for the student and the instructor.
MISCONCEPTIONS = (
    Misconception(
        "scores_no_transpose",
        "scores without transposing the keys",
        "It looks like you multiplied queries @ keys without transposing the keys. "
        "Each score is a dot product of a query with a key, so you need queries @ keys "
        "transposed over its last two dimensions (keys.transpose(-2, -1)).",
        "Multiplied queries @ keys without transposing the keys (keys.transpose(-2, -1)).",
    ),
    Misconception(
        "softmax_dim0",
        "softmax over the wrong dimension (columns sum to 1)",
        "Your weights sum to 1 down each column instead of along each row. The softmax "
        "must run over the last dimension (dim=-1), the keys, so that each query's weights sum to 1.",
        "Took the softmax over the wrong dimension, so the weights sum to 1 down each column "
        "instead of along each row (the keys, dim=-1).",
    ),
    Misconception(
        "softmax_implicit_dim",
        "softmax without dim: right on one matrix, wrong on a batch",
        "Your answer is right for one matrix but wrong for a batch: it looks like "
        "torch.nn.functional.softmax was called without dim. It then guesses, with a warning (dimension 1 "
        "for 2-D input, dimension 0 for 3-D input), so a batch is normalised across its sequences. "
        "(torch.softmax and scores.softmax do not guess: without dim they raise a TypeError.) Pass dim=-1.",
        "Called torch.nn.functional.softmax without dim: right on one matrix, but on a batch it "
        "normalises across the sequences.",
    ),
    Misconception(
        "context_scaled_columns",
        "context vector: scaling columns instead of rows",
        "It looks like you multiplied softmax(scores) * hidden_states and summed each row, which "
        "scales the columns. Each weight belongs to one row (one position): weight the rows, "
        "then add them up over the positions (weights @ hidden_states).",
        "Multiplied softmax(scores) * hidden_states and summed each row, which scales the "
        "columns instead of weighting the rows (weights @ hidden_states).",
    ),
)

# The seed's first example, as printed in the notebook: three encoder states and their scores.
HIDDEN_STATES = np.array([[0.21, 0.51, 1.25], [4.13, -41.3, 0.31], [3.2, 0.02, 9.44]], dtype=np.float32)
STATE_SCORES = np.array([13.0, 9.0, 9.0], dtype=np.float32)
# What scaling the columns gives (softmax(scores) * hidden_states, summed along each row), as the notebook shows.
SCALED_COLUMNS = np.array([0.2337, 3.2598, 3.2541])
# The context vector of the scores [13, 9, 9] and the three encoder states, as the notebook prints it.
STATE_CONTEXT = np.array([0.3321, -0.2374, 1.3781])
# queries @ keys without the transpose on the notebook's example, as the notebook shows: row i is query i's.
UNTRANSPOSED = np.array([[4.0, 7.0, 3.0], [12.0, 16.0, 4.0], [10.0, 15.0, 5.0]])
# The notebook's numbers are printed to 4 decimals.
PRINTED_ATOL = 1e-4


RNG = np.random.default_rng(11)
BATCH_SCORES = (RNG.standard_normal((2, 3, 4)) * 3).astype(np.float32)
LARGE_SCORES = np.array([[1000.0, 990.0, 1000.0], [-5.0, 800.0, 0.0]], dtype=np.float32)


def integer_hint(judge):
    """``judge``, which tells a float answer to integer inputs why it is wrong."""

    def checked(outcome):
        try:
            judge(outcome)
        except Mismatch as mismatch:
            if "dtype" in mismatch.what:
                mismatch.what += " Integer inputs must give an integer result: do not convert them to float."
            raise

    return checked


def three_tensors(outcome, what):
    """The items of a returned tuple of three (queries, keys, values), once it is one."""
    if outcome.get("type") != "tuple" or outcome.get("length") != 3:
        got = f"a {outcome.get('type')}" + (f" of length {outcome['length']}" if "length" in outcome else "")
        raise Mismatch(
            f"{what} should return a tuple of three tensors: (queries, keys, values).",
            expected="a tuple of length 3",
            got=got,
        )
    return outcome["items"]


def _softmax_rows():
    def rows(shape, large=False):
        def judge(outcome):
            what = f"softmax_scores on scores of shape {shape}"
            got = array_of(outcome, "Tensor", shape, "floating", what)
            if large:
                finite(got, what)
            if not np.all(got >= 0):
                raise Mismatch(f"{what} has negative weights; a softmax is never negative.", got=show(got))
            if not np.allclose(got.sum(axis=-1), 1, atol=1e-5):
                dim0 = len(shape) == 2 and np.allclose(got.sum(axis=0), 1, atol=1e-5)
                implicit = len(shape) == 3 and np.allclose(got.sum(axis=0), 1, atol=1e-5)
                raise Mismatch(
                    f"each row of {what} should sum to 1 (a softmax over the last dimension).",
                    expected="row sums of 1",
                    got=f"row sums {show(got.sum(axis=-1))}",
                    misconception="softmax_dim0" if dim0 else "softmax_implicit_dim" if implicit else None,
                )

        return inputs_unchanged(judge, "softmax_scores")

    return [
        Case("the notebook's example scores", rows((3, 3)), call(fixture.SCORES)),
        Case("one score vector [13, 9, 9]", rows((3,)), call(STATE_SCORES)),
        Case("a batch of score matrices (2, 3, 4)", rows((2, 3, 4)), call(BATCH_SCORES), batch=(2, 3, 4)),
        Case("large scores [[1000, 990, 1000], [-5, 800, 0]]", rows((2, 3), large=True), call(LARGE_SCORES)),
    ]


def _context_shape():
    def averaged(scores, states, what, large=False, expected=None, diagnoses=()):
        def judge(outcome):
            got = array_of(outcome, "Tensor", states.shape[:-2] + states.shape[-1:], "floating", what)
            if large:
                finite(got, what)
            low, high = states.min(axis=-2), states.max(axis=-2)
            if not np.all((got >= low - 1e-4) & (got <= high + 1e-4)):
                raise Mismatch(
                    f"{what} is not a weighted average of the rows: each entry must lie between the "
                    "smallest and the largest entry of its column.",
                    expected=f"between {show(low)} and {show(high)}",
                    got=show(got),
                    misconception=diagnose(got, [("context_scaled_columns", SCALED_COLUMNS)], atol=1e-4),
                )
            if expected is not None:
                close(got, expected, what, atol=PRINTED_ATOL, diagnoses=diagnoses)

        return inputs_unchanged(judge, "context_vector")

    rng = np.random.default_rng(12)
    scores, states = rng.standard_normal(5).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)
    batch_scores, batch_states = (
        rng.standard_normal((2, 3)).astype(np.float32),
        rng.standard_normal((2, 3, 4)).astype(np.float32),
    )
    large = np.array([1000.0, 990.0, 1000.0], dtype=np.float32)
    # Four copies of the notebook's example, as a batch of shape (2, 2): each item's context vector is the
    # example's. Softmax without dim normalises 3-D scores over their first dimension, across two copies: a
    # weight of 1/2 for every state, so that every item gets half the sum of the states.
    copies_scores = np.broadcast_to(STATE_SCORES, (2, 2, 3)).copy()
    copies_states = np.broadcast_to(HIDDEN_STATES, (2, 2, 3, 3)).copy()
    across_batch = np.broadcast_to(HIDDEN_STATES.astype(np.float64).sum(axis=0) / 2, (2, 2, 3))
    # The scores [13, 9, 9] and the same scores plus 1000, each with the three encoder states: a softmax ignores
    # the shift, so both context vectors are the example's, although one row of scores lies 1000 below the other.
    far_scores = np.stack([STATE_SCORES, STATE_SCORES + 1000])
    far_states = np.stack([HIDDEN_STATES, HIDDEN_STATES])
    return [
        Case(
            "the scores [13, 9, 9] and the three encoder states",
            averaged(
                STATE_SCORES,
                HIDDEN_STATES,
                "context_vector(scores, hidden_states)",
                expected=STATE_CONTEXT,
                diagnoses=[("context_scaled_columns", SCALED_COLUMNS)],
            ),
            call(STATE_SCORES, HIDDEN_STATES),
        ),
        Case(
            "5 positions of dimension 2",
            averaged(scores, states, "context_vector on 5 positions"),
            call(scores, states),
        ),
        Case(
            "a batch: scores (2, 3), hidden states (2, 3, 4)",
            averaged(batch_scores, batch_states, "context_vector on a batch"),
            call(batch_scores, batch_states),
            batch=(2, 3),
        ),
        Case(
            "a batch of 2 x 2 copies of the scores [13, 9, 9] and the three encoder states",
            averaged(
                copies_scores,
                copies_states,
                "context_vector on 2 x 2 copies of the notebook's example "
                "(each item's context vector is the example's)",
                expected=np.broadcast_to(STATE_CONTEXT, (2, 2, 3)),
                diagnoses=[("softmax_implicit_dim", across_batch)],
            ),
            call(copies_scores, copies_states),
            batch=(2, 2, 3),
        ),
        Case(
            "large scores [1000, 990, 1000]",
            averaged(large, HIDDEN_STATES, "context_vector on large scores", large=True),
            call(large, HIDDEN_STATES),
        ),
        Case(
            "a batch of the scores [13, 9, 9] and [1013, 1009, 1009], each with the three encoder states",
            averaged(
                far_scores,
                far_states,
                "context_vector on the scores [13, 9, 9] and [1013, 1009, 1009] (adding 1000 to every score "
                "changes no weight, so both context vectors are the example's)",
                large=True,
                expected=np.broadcast_to(STATE_CONTEXT, (2, 3)),
            ),
            call(far_scores, far_states),
            batch=(2, 3),
        ),
    ]


def _keys_dtype():
    vs = [TensorArg(v) for v in fixture.X.astype(np.int64)]
    ws = [TensorArg(w) for w in fixture.W_KEY.T.astype(np.int64)]
    rng = np.random.default_rng(13)
    float_vs = [TensorArg(v) for v in rng.standard_normal((2, 5)).astype(np.float32)]
    float_ws = [TensorArg(w) for w in rng.standard_normal((4, 5)).astype(np.float32)]

    def judge(outcome):
        array_of(outcome, "Tensor", (3, 3), "integer", "compute_keys([v_1, v_2, v_3], [w_1, w_2, w_3])")

    def float_judge(outcome):
        array_of(outcome, "Tensor", (2, 4), "floating", "compute_keys on 2 float vectors and 4 weight vectors")

    return [
        Case(
            "the three integer vectors and the three integer weight vectors",
            inputs_unchanged(integer_hint(judge), "compute_keys"),
            call(vs, ws),
        ),
        Case(
            "2 float vectors and 4 float weight vectors of dimension 5",
            inputs_unchanged(float_judge, "compute_keys"),
            call(float_vs, float_ws),
        ),
    ]


def in_order(items, expected, what):
    """Each of (queries, keys, values) as the notebook's table shows it; says so when two come back swapped."""
    names = ("queries", "keys", "values")
    got = [np.asarray(item["values"], dtype=np.float64) for item in items]
    for i, name in enumerate(names):
        if np.allclose(got[i], expected[i], atol=PRINTED_ATOL):
            continue
        others = [names[j] for j in range(3) if j != i and np.allclose(got[i], expected[j], atol=PRINTED_ATOL)]
        if others:
            raise Mismatch(
                f"the {name} (item {i}) returned by project_qkv {what} are the {others[0]}: return "
                "(queries, keys, values) in that order, each from its own weight matrix.",
                expected=show(expected[i]),
                got=show(got[i]),
            )
        close(got[i], expected[i], f"the {name} (item {i}) returned by project_qkv {what}", atol=PRINTED_ATOL)


def _qkv_shapes():
    rng = np.random.default_rng(14)
    other = [rng.standard_normal(shape).astype(np.float32) for shape in ((2, 5), (5, 3), (5, 3), (5, 4))]
    batch = [rng.standard_normal((2, 3, 4)).astype(np.float32), fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE]

    def shapes(n_shape, d_k, d_v, what, expected=None):
        def judge(outcome):
            items = three_tensors(outcome, "project_qkv")
            for name, item, d in zip(("queries", "keys", "values"), items, (d_k, d_k, d_v)):
                array_of(item, "Tensor", (*n_shape, d), "floating", f"the {name} returned by project_qkv {what}")
            if expected is not None:
                in_order(items, expected, what)

        return inputs_unchanged(judge, "project_qkv")

    return [
        Case(
            "the notebook's example x and weights",
            shapes((3,), 3, 3, "on the notebook's example", (fixture.QUERIES, fixture.KEYS, fixture.VALUES)),
            call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE),
        ),
        Case("x (2, 5), w_query and w_key (5, 3), w_value (5, 4)", shapes((2,), 3, 4, "on x (2, 5)"), call(*other)),
        Case(
            "a batch: x (2, 3, 4) and the notebook's example weights",
            shapes((2, 3), 3, 3, "on a batch"),
            call(*batch),
            batch=(2, 3, 4),
        ),
    ]


def _query_shape():
    rng = np.random.default_rng(15)
    copies = np.broadcast_to(fixture.KEYS, (3, 3, 3))
    cases = []
    for label, query, keys, batch, expected, wrong in [
        (
            "the notebook's example first query and its keys",
            fixture.QUERIES[0],
            fixture.KEYS,
            None,
            fixture.SCORES[0],
            UNTRANSPOSED[0],
        ),
        ("a query (5,) and 4 keys", rng.standard_normal(5), rng.standard_normal((4, 5)), None, None, None),
        (
            "a batch: queries (2, 5) and keys (2, 4, 5)",
            rng.standard_normal((2, 5)),
            rng.standard_normal((2, 4, 5)),
            (2,),
            None,
            None,
        ),
        (
            "a batch: the notebook's three example queries, each against the notebook's keys",
            fixture.QUERIES,
            copies,
            (3,),
            fixture.SCORES,
            None,
        ),
    ]:
        shape = keys.shape[:-1]

        def judge(outcome, shape=shape, label=label, expected=expected, wrong=wrong):
            what = f"query_scores on {label}"
            got = array_of(outcome, "Tensor", shape, "floating", what)
            if expected is not None:
                close(got, expected, what, diagnoses=[] if wrong is None else [("scores_no_transpose", wrong)])

        cases.append(
            Case(
                label,
                inputs_unchanged(judge, "query_scores"),
                call(query.astype(np.float32), keys.astype(np.float32)),
                batch=batch and tuple(query.shape),
            )
        )
    return cases


def _scores_shape():
    rng = np.random.default_rng(16)
    cases = []
    for label, queries, keys, batch, expected in [
        ("the notebook's example queries and keys", fixture.QUERIES, fixture.KEYS, False, fixture.SCORES),
        ("2 queries and 4 keys of dimension 5", rng.standard_normal((2, 5)), rng.standard_normal((4, 5)), False, None),
        (
            "a batch: queries (2, 3, 5) and keys (2, 4, 5)",
            rng.standard_normal((2, 3, 5)),
            rng.standard_normal((2, 4, 5)),
            True,
            None,
        ),
    ]:
        shape = (*queries.shape[:-1], keys.shape[-2])

        def judge(outcome, shape=shape, label=label, expected=expected):
            what = f"attention_scores on {label}"
            got = array_of(outcome, "Tensor", shape, "floating", what)
            if expected is not None:
                close(got, expected, what, diagnoses=[("scores_no_transpose", UNTRANSPOSED)])

        cases.append(
            Case(
                label,
                judge,
                call(queries.astype(np.float32), keys.astype(np.float32)),
                batch=queries.shape if batch else None,
            )
        )
    return cases


# ---- hidden: known outputs ----
CONTEXT_HIDDEN_STATES = np.array([[0.21, 0.51, 1.25], [4.13, -41.3, 0.31], [3.2, 0.02, 9.44]], dtype=np.float32)
CONTEXT_SCALED_COLUMNS = np.array([0.2337, 3.2598, 3.2541])  # the context_scaled_columns mistake
CONTEXT_VECTOR = np.array([0.3321, -0.2374, 1.3781])
KEYS_FROM_VECTORS = np.array([[0, 1, 1], [4, 4, 0], [2, 3, 1]], dtype=np.int64)
SCORES_NO_TRANSPOSE = np.array([[4, 7, 3], [12, 16, 4], [10, 15, 5]])
SOFTMAX_13_9_9 = np.array([0.9647, 0.0177, 0.0177])
SOFTMAX_2_4_4 = np.array([0.0634, 0.4683, 0.4683])

# ---- hidden checks ----
ref = reference.of(NOTEBOOK)

QKV = ("queries", "keys", "values")


def _softmax(array, dim):
    return torch.softmax(torch.from_numpy(np.asarray(array, dtype=np.float32)), dim=dim).numpy()


def _implicit_dim(ndim):
    """The dimension that softmax picks without dim (PyTorch's legacy rule)."""
    return 0 if ndim in (0, 1, 3) else 1


def _expected(fn, *arrays):
    return fn(*(torch.from_numpy(a) for a in arrays)).numpy()


# ---- softmax_scores ----


def _softmax_diagnoses(scores):
    if scores.ndim == 2:
        return diagnosis("softmax_dim0", "softmax_scores", "softmax_dim0", torch.from_numpy(scores))
    if scores.ndim >= 3:
        return diagnosis("softmax_implicit_dim", "softmax_scores", "softmax_implicit_dim", torch.from_numpy(scores))
    return []


def _softmax_case(scores, expected, label, atol=1e-6, rtol=1e-5, diagnoses=None):
    what = f"softmax_scores on scores of shape {scores.shape}"
    diagnoses = _softmax_diagnoses(scores) if diagnoses is None else diagnoses
    judge = expect("Tensor", expected, what, rtol=rtol, atol=atol, diagnoses=diagnoses)
    return Case(label, inputs_unchanged(judge, what), call(scores))


def _softmax_known():
    return [
        _softmax_case(
            np.array([13.0, 9.0, 9.0], dtype=np.float32),
            SOFTMAX_13_9_9,
            "the scores [13, 9, 9]",
            atol=known.SOURCE_ATOL,
        ),
        _softmax_case(
            np.array([2.0, 4.0, 4.0], dtype=np.float32),
            SOFTMAX_2_4_4,
            "the first query's scores [2, 4, 4]",
            atol=known.SOURCE_ATOL,
        ),
        _softmax_case(fixture.SCORES, known.SOFTMAX, "the notebook's example scores", atol=known.SOURCE_ATOL),
    ]


def _softmax_random(shapes, seed):
    cases = []
    for i, shape in enumerate(shapes):
        scores = random_array(np.random.default_rng(seed + i), *shape, scale=3.0)
        case = _softmax_case(scores, _expected(ref.softmax_scores, scores), f"random scores {shape}")
        cases.append(batched(case, scores.shape, 2))
    return cases


def _softmax_large():
    cases = []
    for scores in [
        np.array([1000.0, 1000.0], dtype=np.float32),
        np.array([[1000.0, 990.0, 1000.0], [-5.0, 800.0, 0.0]], dtype=np.float32),
        random_array(np.random.default_rng(30), 2, 4, 5, scale=500.0),
    ]:
        unstable = [("softmax_unstable", lambda got: not np.all(np.isfinite(got)))]
        cases.append(
            _softmax_case(
                scores,
                _expected(ref.softmax_scores, scores),
                f"large scores {scores.shape}",
                atol=1e-4,
                rtol=1e-4,
                diagnoses=unstable + _softmax_diagnoses(scores),
            )
        )
    return cases


# ---- context_vector ----


def _context_case(scores, states, label):
    what = f"context_vector on scores {scores.shape} and hidden states {states.shape}"
    weights = torch.from_numpy(_softmax(scores, _implicit_dim(scores.ndim)))  # softmax without dim
    implicit = (weights.unsqueeze(-2) @ torch.from_numpy(states)).squeeze(-2).numpy()
    diagnoses = diagnosis(
        "context_scaled_columns",
        "context_vector",
        "context_scaled_columns",
        torch.from_numpy(scores),
        torch.from_numpy(states),
    )
    if scores.ndim >= 3:
        diagnoses.append(("softmax_implicit_dim", implicit))
    judge = expect("Tensor", _expected(ref.context_vector, scores, states), what, diagnoses=diagnoses)
    return Case(label, inputs_unchanged(judge, what), call(scores, states))


def _context_known():
    scores, states = np.array([13.0, 9.0, 9.0], dtype=np.float32), CONTEXT_HIDDEN_STATES
    what = "context_vector on the scores [13, 9, 9] and the three encoder states"
    judge = expect(
        "Tensor",
        CONTEXT_VECTOR,
        what,
        atol=known.SOURCE_ATOL,
        diagnoses=[("context_scaled_columns", CONTEXT_SCALED_COLUMNS)],
    )
    return [
        Case("the scores [13, 9, 9] and the three encoder states", inputs_unchanged(judge, what), call(scores, states))
    ]


def _context_cases(shapes, seed):
    cases = []
    for i, (batch, n, d) in enumerate(shapes):
        rng = np.random.default_rng(seed + i)
        scores, states = random_array(rng, *batch, n, scale=2.0), random_array(rng, *batch, n, d)
        case = _context_case(scores, states, f"random scores {scores.shape}, hidden states {states.shape}")
        cases.append(batched(case, states.shape, 2))
    return cases


# ---- compute_keys ----


def _keys_case(vs, ws, label, atol=1e-6, dtype="floating"):
    what = f"compute_keys on {len(vs)} vectors and {len(ws)} weight vectors of dimension {vs[0].shape[0]}"
    expected = ref.compute_keys([torch.from_numpy(v) for v in vs], [torch.from_numpy(w) for w in ws]).numpy()
    judge = integer_hint(expect("Tensor", expected, what, dtype=dtype, atol=atol))
    return Case(label, inputs_unchanged(judge, what), call([TensorArg(v) for v in vs], [TensorArg(w) for w in ws]))


def _keys_known():
    vs, ws = list(fixture.X.astype(np.int64)), list(fixture.W_KEY.T.astype(np.int64))
    what = "compute_keys on the notebook's vectors"
    judge = integer_hint(expect("Tensor", KEYS_FROM_VECTORS, what, dtype="integer", atol=known.SOURCE_ATOL))
    return [
        Case(
            "the notebook's integer vectors v_1, v_2, v_3 and weights w_1, w_2, w_3",
            inputs_unchanged(judge, what),
            call([TensorArg(v) for v in vs], [TensorArg(w) for w in ws]),
        )
    ]


def _keys_random(integer):
    cases = []
    for i, (n, m, d) in enumerate([(4, 2, 5), (2, 3, 6), (5, 5, 3)]):
        rng = np.random.default_rng(40 + 10 * integer + i)
        if integer:
            vs = list(rng.integers(-4, 5, size=(n, d)).astype(np.int64))
            ws = list(rng.integers(-4, 5, size=(m, d)).astype(np.int64))
        else:
            vs, ws = list(random_array(rng, n, d)), list(random_array(rng, m, d))
        kind = "integer" if integer else "float"
        cases.append(
            _keys_case(
                vs,
                ws,
                f"{n} random {kind} vectors and {m} weight vectors of dimension {d}",
                dtype="integer" if integer else "floating",
            )
        )
    return cases


# ---- project_qkv ----


def _qkv_judge(expected, what, atol=1e-6):
    """A judge: a tuple (queries, keys, values), each item as expected; says so when two are swapped."""

    def judge(outcome):
        for i, (name, item) in enumerate(zip(QKV, three_tensors(outcome, what))):
            item_what = f"the {name} (item {i}) of {what}"
            try:
                expect("Tensor", expected[i], item_what, atol=atol)(item)
            except Mismatch as mismatch:
                got = np.asarray(item.get("values")) if item.get("values") is not None else None
                for j, other in enumerate(expected):
                    if j != i and got is not None and matches(got, other, atol=atol):
                        raise Mismatch(
                            f"{item_what} are the {QKV[j]}: return (queries, keys, values) in "
                            "that order, each from its own weight matrix.",
                            expected=mismatch.expected,
                            got=mismatch.got,
                        ) from None
                raise

    return judge


def _qkv_case(x, weights, label, expected=None, atol=1e-6):
    what = f"project_qkv on x {x.shape}"
    if expected is None:
        expected = tuple(e.numpy() for e in ref.project_qkv(*(torch.from_numpy(a) for a in (x, *weights))))
    return Case(label, inputs_unchanged(_qkv_judge(expected, what, atol), what), call(x, *weights))


def _qkv_known():
    return [
        _qkv_case(
            fixture.X,
            (fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE),
            "the notebook's example x and weights",
            expected=(fixture.QUERIES, fixture.KEYS, fixture.VALUES),
            atol=known.SOURCE_ATOL,
        )
    ]


def _qkv_cases(shapes, seed):
    cases = []
    for i, (batch, n, d_in, d_k, d_v) in enumerate(shapes):
        rng = np.random.default_rng(seed + i)
        x = random_array(rng, *batch, n, d_in)
        weights = (random_array(rng, d_in, d_k), random_array(rng, d_in, d_k), random_array(rng, d_in, d_v))
        label = f"random x {x.shape}, w_query and w_key ({d_in}, {d_k}), w_value ({d_in}, {d_v})"
        cases.append(batched(_qkv_case(x, weights, label), x.shape, 2))
    return cases


# ---- query_scores ----


def _query_no_transpose(query, keys):
    if query.shape[-1] != keys.shape[-2]:
        return None
    return (torch.from_numpy(query).unsqueeze(-2) @ torch.from_numpy(keys)).squeeze(-2).numpy()


def _query_case(query, keys, label, expected=None, atol=1e-6):
    what = f"query_scores on a query {query.shape} and keys {keys.shape}"
    expected = _expected(ref.query_scores, query, keys) if expected is None else expected
    wrong = _query_no_transpose(query, keys)
    diagnoses = [] if wrong is None else [("scores_no_transpose", wrong)]
    judge = expect("Tensor", expected, what, atol=atol, diagnoses=diagnoses)
    return Case(label, inputs_unchanged(judge, what), call(query, keys))


def _query_known():
    return [
        _query_case(
            fixture.QUERIES[i],
            fixture.KEYS,
            f"the notebook's example query {i} and keys",
            expected=fixture.SCORES[i],
            atol=known.SOURCE_ATOL,
        )
        for i in range(3)
    ]


def _query_cases(shapes, seed):
    cases = []
    for i, (batch, n, d) in enumerate(shapes):
        rng = np.random.default_rng(seed + i)
        query, keys = random_array(rng, *batch, d), random_array(rng, *batch, n, d)
        case = _query_case(query, keys, f"a random query {query.shape} and keys {keys.shape}")
        cases.append(batched(case, keys.shape, 2))
    return cases


# ---- attention_scores ----


def _scores_known():
    judge = expect(
        "Tensor",
        fixture.SCORES,
        "attention_scores on the notebook's example",
        atol=known.SOURCE_ATOL,
        diagnoses=[("scores_no_transpose", SCORES_NO_TRANSPOSE)],
    )
    return [Case("the notebook's example queries and keys", judge, call(fixture.QUERIES, fixture.KEYS))]


def _scores_random():
    cases = []
    for seed, (batch, n, m, d) in enumerate([((), 4, 4, 5), ((2,), 3, 5, 4), ((2, 3), 6, 2, 8)]):
        rng = np.random.default_rng(seed)
        q, k = random_array(rng, *batch, n, d), random_array(rng, *batch, m, d)
        expected = ref.attention_scores(torch.from_numpy(q), torch.from_numpy(k)).numpy()
        wrong = diagnosis(
            "scores_no_transpose", "attention_scores", "scores_no_transpose", torch.from_numpy(q), torch.from_numpy(k)
        )
        judge = expect("Tensor", expected, f"attention_scores on queries {q.shape} and keys {k.shape}", diagnoses=wrong)
        cases.append(batched(Case(f"random queries {q.shape} and keys {k.shape}", judge, call(q, k)), q.shape, 2))
    return cases


# ---- hidden: wrong answers, as edits of the reference cells (grader/hidden/edits.py) ----
# Reference lines that several answers change, and the body of three answers that return fixed running means.
QUERY_SCORE = "(keys @ query.unsqueeze(-1)).squeeze(-1)  # (..., n, d) @ (..., d, 1) -> (..., n)"

WRONG_ANSWERS = (
    *making(
        "scores_no_transpose",
        Wrong(
            "attention_scores",
            "scores_no_transpose",
            edit(
                reference_cell("attention_scores"),
                ("keys.transpose(-2, -1)  # (..., n, d) @ (..., d, m) -> (..., n, m)", "keys"),
            ),
            demo=True,
        ),
        Wrong(
            "query_scores",
            "query_no_transpose",
            edit(
                reference_cell("query_scores"),
                ("(keys @ query.unsqueeze(-1)).squeeze(-1)  # (..., n, d) @ (..., d, 1) -> (..., n)", "query @ keys"),
            ),
        ),
    ),
    *making(
        "softmax_dim0",
        Wrong("softmax_scores", "softmax_dim0", edit(reference_cell("softmax_scores"), ("dim=-1", "dim=0")), demo=True),
    ),
    *making(
        "softmax_implicit_dim",
        Wrong(
            "softmax_scores",
            "softmax_implicit_dim",
            edit(reference_cell("softmax_scores"), (", dim=-1", "")),
            demo=True,
        ),
        Wrong(
            "context_vector",
            "context_implicit_dim",
            edit(
                reference_cell("context_vector"),
                ("F.softmax(scores, dim=-1)  # (..., n)", "F.softmax(scores)  # dim 0 for 3-D scores"),
            ),
        ),
    ),
    *making(
        "context_scaled_columns",
        Wrong(
            "context_vector",
            "context_scaled_columns",
            edit(
                reference_cell("context_vector"),
                (
                    "(weights.unsqueeze(-2) @ hidden_states).squeeze(-2)  # (..., 1, n) @ (..., n, d) -> (..., d)",
                    "(weights * hidden_states).sum(dim=-1)",
                ),
            ),
            demo=True,
        ),
    ),
    *making(
        "softmax_unstable",
        Wrong(
            "softmax_scores",
            "softmax_unstable",
            edit(
                reference_cell("softmax_scores"),
                ("F.softmax(scores, dim=-1)", "scores.exp() / scores.exp().sum(dim=-1, keepdim=True)"),
            ),
        ),
        Wrong(
            "context_vector",
            "context_unstable",
            edit(
                reference_cell("context_vector"),
                ("F.softmax(scores, dim=-1)", "scores.exp() / scores.exp().sum(dim=-1, keepdim=True)"),
            ),
        ),
        Wrong(
            "softmax_scores",
            "softmax_global_max",
            edit(
                reference_cell("softmax_scores"),
                (
                    "return F.softmax(scores, dim=-1)",
                    "e = (scores - scores.max()).exp()  # one maximum for the whole tensor\n"
                    "    return e / e.sum(dim=-1, keepdim=True)",
                ),
            ),
        ),
        Wrong(
            "context_vector",
            "context_global_max",
            edit(
                reference_cell("context_vector"),
                (
                    "weights = F.softmax(scores, dim=-1)  # (..., n)",
                    "e = (scores - scores.max()).exp()  # one maximum for the whole batch\n"
                    "    weights = e / e.sum(dim=-1, keepdim=True)",
                ),
            ),
        ),
    ),
    # Mistakes that no misconception of the catalogue names.
    Wrong(
        "softmax_scores",
        "softmax_hard_coded",
        """\
def softmax_scores(scores):
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]]).softmax(dim=-1)
""",
    ),
    Wrong(
        "softmax_scores",
        "softmax_in_place",
        edit(
            reference_cell("softmax_scores"),
            (
                "F.softmax(scores, dim=-1)",
                "scores.sub_(scores.amax(dim=-1, keepdim=True)).exp_().div_(scores.sum(dim=-1, keepdim=True))",
            ),
        ),
    ),
    Wrong(
        "context_vector",
        "context_no_softmax",
        """\
def context_vector(scores, hidden_states):
    return scores @ hidden_states
""",
    ),
    Wrong(
        "context_vector",
        "context_one_sequence_only",
        edit(
            reference_cell("context_vector"),
            (
                "(weights.unsqueeze(-2) @ hidden_states).squeeze(-2)  # (..., 1, n) @ (..., n, d) -> (..., d)",
                "weights @ hidden_states  # right for one sequence, wrong shape for a batch",
            ),
        ),
    ),
    Wrong(
        "context_vector",
        "context_hard_coded",
        """\
def context_vector(scores, hidden_states):
    return torch.tensor([0.3321, -0.2374, 1.3781])
""",
    ),
    Wrong(
        "compute_keys",
        "keys_as_float",
        edit(
            reference_cell("compute_keys"),
            ("return v @ w  # (n, m)", "return v.float() @ w.float()  # (n, m), float whatever the inputs' dtype"),
        ),
    ),
    Wrong(
        "compute_keys",
        "keys_weights_as_rows",
        edit(reference_cell("compute_keys"), ("torch.stack(ws, dim=-1)  # (d, m)", "torch.stack(ws)  # (m, d)")),
    ),
    Wrong(
        "compute_keys",
        "keys_hard_coded",
        """\
def compute_keys(vs, ws):
    return torch.tensor([[0, 1, 1], [4, 4, 0], [2, 3, 1]])
""",
    ),
    Wrong(
        "project_qkv",
        "qkv_swapped",
        edit(reference_cell("project_qkv"), ("return queries, keys, values", "return keys, queries, values")),
    ),
    Wrong(
        "project_qkv",
        "qkv_stacked",
        edit(
            reference_cell("project_qkv"),
            ("return queries, keys, values", "return torch.stack([queries, keys, values])"),
        ),
    ),
    Wrong(
        "project_qkv",
        "qkv_one_matrix_only",
        edit(
            reference_cell("project_qkv"),
            (
                "    queries = x @ w_query",
                "    x = x.reshape(-1, x.shape[-1])[: x.shape[-2]]  # drops the batch: the first sequence only\n"
                "    queries = x @ w_query",
            ),
        ),
    ),
    Wrong(
        "project_qkv",
        "qkv_hard_coded",
        """\
def project_qkv(x, w_query, w_key, w_value):
    return (torch.tensor([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]]),
            torch.tensor([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]]),
            torch.tensor([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]]))
""",
    ),
    Wrong(
        "query_scores",
        "query_elementwise",
        edit(
            reference_cell("query_scores"),
            (QUERY_SCORE, "query * keys.T  # the source's first try: a matrix, not one score per key"),
        ),
    ),
    Wrong(
        "query_scores",
        "query_dot_T",
        edit(
            reference_cell("query_scores"),
            (QUERY_SCORE, "query @ keys.T  # right for one query; .T reverses every dimension of a batch"),
        ),
    ),
    Wrong(
        "query_scores",
        "query_hard_coded",
        """\
def query_scores(query, keys):
    return torch.tensor([2.0, 4.0, 4.0])
""",
    ),
    Wrong(
        "attention_scores",
        "scores_dot_T",
        edit(
            reference_cell("attention_scores"),
            (
                "keys.transpose(-2, -1)  # (..., n, d) @ (..., d, m) -> (..., n, m)",
                "keys.T  # right for one matrix, wrong for a batch",
            ),
        ),
    ),
    Wrong(
        "attention_scores",
        "scores_hard_coded",
        '''\
def attention_scores(queries, keys):
    """Every query against every key."""
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]])
''',
        demo=True,
    ),
)


PARTS = {
    "softmax_scores": [
        Part(
            "non-negative weights whose rows sum to 1: a vector, a matrix, a batch, large scores",
            1,
            _softmax_rows,
            requires={"shape", "batch", "large"},
        ),
        Part("the notebook's weights", 1, _softmax_known, requires={"shape"}, hidden=True),
        Part(
            "random score vectors and matrices",
            1,
            lambda: _softmax_random([(5,), (7,), (4, 6), (3, 3), (6, 2)], 10),
            gate=True,
            requires={"shape"},
            hidden=True,
        ),
        Part(
            "batches of score matrices",
            1,
            lambda: _softmax_random([(5, 4), (2, 3, 5), (4, 3, 3), (2, 2, 3, 4)], 20),
            requires={"batch"},
            hidden=True,
        ),
        Part("large scores do not overflow", 1, _softmax_large, requires={"batch", "large"}, hidden=True),
    ],
    "context_vector": [
        Part(
            "one weighted average of the rows, of shape (..., d): the notebook's context vector, also for a batch "
            "of copies of it; other sizes, batches and large scores",
            1,
            _context_shape,
            requires={"shape", "batch", "large"},
        ),
        *known_random_batches(
            ("the notebook's context vector", "random scores and hidden states", "batches of sequences"),
            _context_known,
            _context_cases,
            random=([((), 4, 4), ((), 5, 3), ((), 3, 6)], 50),
            batches=([((2,), 5, 3), ((3,), 3, 3), ((2, 3), 4, 6)], 60),
            hidden=True,
        ),
    ],
    "compute_keys": [
        Part(
            "an integer tensor of shape (n, m) for integer inputs, float for float inputs",
            1,
            _keys_dtype,
            requires={"dtype", "shape"},
        ),
        Part("the notebook's keys", 1, _keys_known, requires={"dtype"}, hidden=True),
        Part(
            "random float vectors", 1, lambda: _keys_random(False), gate=True, requires={"dtype", "shape"}, hidden=True
        ),
        Part(
            "integer vectors give an integer result",
            1,
            lambda: _keys_random(True),
            requires={"dtype", "shape"},
            hidden=True,
        ),
    ],
    "project_qkv": [
        Part(
            "a tuple of three float tensors of shape (..., n, d_out), in the order (queries, keys, values) of "
            "the notebook's table",
            1,
            _qkv_shapes,
            requires={"shape", "batch"},
        ),
        *known_random_batches(
            ("the notebook's example queries, keys and values", "random inputs and weights", "batches of sequences"),
            _qkv_known,
            _qkv_cases,
            random=([((), 4, 5, 3, 2), ((), 6, 3, 4, 5), ((), 2, 4, 4, 4)], 70),
            batches=([((2,), 4, 5, 3, 2), ((2, 3), 3, 4, 6, 3)], 80),
            hidden=True,
        ),
    ],
    "query_scores": [
        Part(
            "the notebook's example scores, also for a batch; a float tensor of shape (..., n_keys)",
            1,
            _query_shape,
            requires={"shape", "batch"},
        ),
        *known_random_batches(
            (
                "the notebook's example scores, one query at a time",
                "random queries and keys",
                "batches of queries and keys",
            ),
            _query_known,
            _query_cases,
            random=([((), 4, 4), ((), 3, 5), ((), 7, 3)], 90),
            batches=([((2,), 6, 4), ((3,), 3, 3), ((2, 3), 4, 5)], 100),
            hidden=True,
        ),
    ],
    "attention_scores": [
        Part(
            "the notebook's example scores; a float tensor of shape (..., n_queries, n_keys)",
            1,
            _scores_shape,
            requires={"shape", "batch"},
        ),
        Part("the notebook's example scores", 1, _scores_known, hidden=True),
        Part("random shapes and batches", 1, _scores_random, gate=True, requires={"batch", "shape"}, hidden=True),
    ],
}
