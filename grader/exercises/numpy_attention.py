"""03 · Attention in NumPy (03_attention_in_numpy.ipynb): its exercises' checks, written once.

Visible parts first, then what only grading uses: the known outputs, the hidden parts (``hidden=True``, where
each stands in ``PARTS``) and the wrong answers. The student's copy holds the visible parts only
(grader/release/compile.py).
"""

import itertools
import re

import numpy as np

from .. import reference
from ..checks import fixture
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import array_of, close, expect, finite, read_source
from ..checks.misconceptions import Misconception
from ..checks.plain import numpy_call
from ..hidden import known
from ..hidden.catalogue import diagnosis
from ..hidden.edits import edit, reference_cell
from ..hidden.randomised import batched, random_array
from ..hidden.wrong_answers import Wrong, making

NOTEBOOK = "03_attention_in_numpy.ipynb"

# The misconceptions first met in this notebook, in words for the student and the instructor.
MISCONCEPTIONS = (
    Misconception(
        "scaling_wrong",
        "scaling by d_k instead of sqrt(d_k), or not at all",
        "The scores are scaled wrongly: divide by sqrt(d_k), the size of one query or key (one head's "
        "size in multi-head attention), not by d_k, and do not skip the scaling. Without it, large "
        "scores push the softmax towards one-hot weights.",
        "Scaled the scores by d_k instead of sqrt(d_k), or not at all.",
    ),
    Misconception(
        "softmax_unstable",
        "softmax without subtracting each row's max: nan for large inputs",
        "Your softmax gives nan or inf for large inputs. Without a maximum subtracted, exp overflows; with one "
        "maximum for the whole array, a row far below it becomes exp(...) = 0 everywhere, and 0 / 0 is nan. "
        "Subtract the maximum of each row, along the softmax's axis, before exp: softmax(x) = softmax(x - max(x)), "
        "and exp of a non-positive number cannot overflow.",
        "Did not subtract each row's maximum before exp (no maximum, or one for the whole array), so the softmax "
        "gives nan or inf for large inputs.",
    ),
)

# What softmax may use: NumPy and the standard library's plain helpers, nothing that computes it for you.
ALLOWED_MODULES = frozenset({"numpy", "math", "builtins", "functools", "operator", "typing", "numbers", "warnings"})
LIBRARIES = re.compile(r"\b(scipy|torch|jax|tensorflow|sklearn)\b")


def not_mutated(outcome, what):
    if outcome.get("mutated"):
        raise Mismatch(f"{what} changed its input array in place; work on new arrays instead (x = x - m, not x -= m).")


def arrays_in_tuple(outcome, shapes, what, names=("queries", "keys", "values")):
    """The arrays of a returned tuple, once its form and every array's type and shape are right."""
    if outcome.get("type") not in ("tuple", "list") or outcome.get("length") != len(shapes):
        got = f"a value of type {outcome.get('type')}"
        if "length" in outcome:
            got += f" of length {outcome['length']}"
        raise Mismatch(
            f"{what} should return a tuple of {len(shapes)} NumPy arrays ({', '.join(names)}).",
            expected=f"a tuple of {len(shapes)} arrays",
            got=got,
        )
    return [
        array_of(item, "ndarray", shape, "floating", f"{what}: the {name}")
        for item, shape, name in zip(outcome["items"], shapes, names)
    ]


def same_arrays(got, expected, what, names=("queries", "keys", "values"), rtol=1e-5, atol=1e-6):
    """Compare each returned array with its expected value; say so when only the order is wrong."""

    def same(g, e):
        return g.shape == np.shape(e) and np.allclose(g, e, rtol=rtol, atol=atol)

    if not all(same(g, e) for g, e in zip(got, expected)):
        for order in itertools.permutations(range(len(expected))):
            if all(same(g, expected[i]) for g, i in zip(got, order)):
                raise Mismatch(
                    f"{what} returns the right arrays in the wrong order.",
                    expected="(" + ", ".join(names) + ")",
                    got="(" + ", ".join(names[i] for i in order) + ")",
                )
    for g, e, name in zip(got, expected, names):
        close(g, e, f"{what}: the {name}", rtol, atol)


def numpy_only(outcome):
    """softmax's code, read from the notebook, uses NumPy only: softmax is the exercise, not a library call."""
    found = read_source(outcome, "softmax")
    used = sorted(
        {use for use in found["uses"] if use.split(".")[0].lstrip(".") not in ALLOWED_MODULES}
        | {match for text in found["strings"] for match in LIBRARIES.findall(text)}
    )
    traced = [f"{name} (defined by no cell)" for name in found["unresolved"]] + [
        f"{way} (a run-time lookup)" for way in found["dynamic"]
    ]
    if used or traced:
        raise Mismatch(
            "softmax must be written with NumPy only (np.exp, np.max, np.sum), without SciPy, torch "
            "or another library, and without run-time lookups that hide what it calls.",
            expected="only NumPy",
            got="uses " + ", ".join(used + traced),
        )


RNG = np.random.default_rng(31)
# The notebook's example scores with 1000 added to the last row (exact in float32): a softmax ignores the shift,
# so its weights are the example's. Every score of the other rows lies 1000 below the largest score.
FAR_APART = fixture.SCORES + np.array([[0.0], [0.0], [1000.0]], dtype=np.float32)
# The notebook's example queries, the last one times 1000: its scores reach about 6900, those of the others 10.
LAST_QUERY_LARGE = fixture.QUERIES * np.array([[1.0], [1.0], [1000.0]], dtype=np.float32)


def _softmax_shape():
    def rows(shape, axis=-1, large=False):
        def judge(outcome):
            what = f"softmax on an array of shape {shape}" + ("" if axis == -1 else f", axis={axis}")
            got = array_of(outcome, "ndarray", shape, "floating", what)
            if large:
                finite(got, what)
            not_mutated(outcome, what)
            if np.allclose(got.sum(axis=axis), 1, atol=1e-5) and np.all(got >= 0):
                return
            dim0 = axis == -1 and len(shape) > 1 and np.allclose(got.sum(axis=0), 1, atol=1e-5)
            raise Mismatch(
                f"{what}: the values along axis {axis} should be non-negative and sum to 1.",
                expected="sums of 1",
                got=f"sums {np.round(got.astype(np.float64).sum(axis=axis), 4).tolist()}",
                misconception="softmax_dim0" if dim0 else None,
            )

        return judge

    batch = (RNG.standard_normal((2, 3, 4)) * 3).astype(np.float32)
    columns = (RNG.standard_normal((4, 5)) * 3).astype(np.float32)
    return [
        Case("the notebook's example scores", rows((3, 3)), numpy_call(fixture.SCORES)),
        Case("one vector of 5 scores", rows((5,)), numpy_call(columns[0].copy())),
        Case("axis=0 on a (4, 5) array", rows((4, 5), axis=0), numpy_call(columns, axis=0)),
        Case("a batch of shape (2, 3, 4)", rows((2, 3, 4)), numpy_call(batch), batch=(2, 3, 4)),
        Case(
            "large inputs [1000., 1000.]",
            rows((2,), large=True),
            numpy_call(np.array([1000.0, 1000.0], dtype=np.float32)),
        ),
        Case(
            "the notebook's example scores with 1000 added to the last row: rows far apart",
            rows((3, 3), large=True),
            numpy_call(FAR_APART),
        ),
    ]


def _softmax_code():
    return [Case("the code of softmax, read from the notebook", numpy_only, {"name": "softmax"}, probe="source")]


def _qkv_shape():
    batch = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    other = (
        RNG.standard_normal((2, 5)).astype(np.float32),
        RNG.standard_normal((5, 3)).astype(np.float32),
        RNG.standard_normal((5, 3)).astype(np.float32),
        RNG.standard_normal((5, 4)).astype(np.float32),
    )

    def shapes(shapes, what):
        def judge(outcome):
            arrays_in_tuple(outcome, shapes, what)
            not_mutated(outcome, what)

        return judge

    return [
        Case(
            "the notebook's example",
            shapes([(3, 3)] * 3, "qkv(x, w_query, w_key, w_value)"),
            numpy_call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE),
        ),
        Case(
            "x (2, 5), w_query and w_key (5, 3), w_value (5, 4)",
            shapes([(2, 3), (2, 3), (2, 4)], "qkv on x (2, 5)"),
            numpy_call(*other),
        ),
        Case(
            "a batch: x (2, 3, 4)",
            shapes([(2, 3, 3)] * 3, "qkv on a batch"),
            numpy_call(batch, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE),
            batch=(2, 3, 4),
        ),
    ]


def _product_cases(name, with_values):
    q, k, v = fixture.QUERIES, fixture.KEYS, fixture.VALUES
    wide = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 5), (4, 5), (4, 3))]
    batch = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 3, 4), (2, 5, 4), (2, 5, 2))]
    found = []
    for label, args, kwargs, shape, is_batch, large in [
        (
            "the notebook's example queries, keys" + (" and values" if with_values else ""),
            (q, k, v),
            {},
            (3, 3),
            False,
            False,
        ),
        ("the notebook's example, d_k=1", (q, k, v), {"d_k": 1}, (3, 3), False, False),
        ("2 queries and 4 keys of dimension 5", wide, {}, (2, 3 if with_values else 4), False, False),
        ("a batch: Q (2, 3, 4), K (2, 5, 4)", batch, {}, (2, 3, 2 if with_values else 5), True, False),
        ("large scores: the notebook's example Q and K times 10", (q * 10, k * 10, v), {}, (3, 3), False, True),
        (
            "large scores: the notebook's example with the last query times 1000, rows of scores far apart",
            (LAST_QUERY_LARGE, k, v),
            {},
            (3, 3),
            False,
            True,
        ),
    ]:
        if large and not with_values:
            continue

        def judge(outcome, shape=shape, large=large, label=label):
            what = f"{name} on {label}"
            got = array_of(outcome, "ndarray", shape, "floating", what)
            if large:
                finite(got, what)

        given = args if with_values else args[:2]
        found.append(Case(label, judge, numpy_call(*given, **kwargs), batch=(2, 3, 4) if is_batch else None))
    return found


# What the notebook shows for its example: Q @ K without the transpose (the classic mistake it warns of) and
# what attention prints with d_k=1 and with the default d_k (the scores divided by sqrt(3)).
NOT_TRANSPOSED = np.array([[4, 7, 3], [12, 16, 4], [10, 15, 5]], dtype=np.float32)
PRINTED_OUTPUT = {
    1: [[1.9366, 6.6831, 1.5951], [2.0, 7.964, 0.054], [1.9997, 7.7599, 0.3584]],
    None: [[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]],
}
PRINTED_ATOL = 1e-4  # the notebook prints 4 decimals


def _qkv_example():
    def judge(outcome):
        what = "qkv on the notebook's example"
        got = arrays_in_tuple(outcome, [(3, 3)] * 3, what)
        same_arrays(got, (fixture.QUERIES, fixture.KEYS, fixture.VALUES), what)

    example = numpy_call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)
    return [Case("the notebook's example: Q, K and V as it prints them", judge, example)]


def _scores_example():
    scores, root = fixture.SCORES, np.sqrt(3.0)
    unscaled = [("scores_no_transpose", NOT_TRANSPOSED)]
    scaled = [
        ("scaling_wrong", scores / 3),
        ("scaling_wrong", scores),
        ("scores_no_transpose", NOT_TRANSPOSED / root),
        ("scores_no_transpose", NOT_TRANSPOSED),
    ]
    cases = []
    for given, expected, wrong, label in [
        ({"d_k": 1}, scores, unscaled, "the notebook's example Q, K, d_k=1"),
        ({}, scores / root, scaled, "the notebook's example Q, K with the default d_k (3)"),
    ]:
        judge = expect("ndarray", expected, f"scaled_scores on {label}", diagnoses=wrong)
        cases.append(Case(label, judge, numpy_call(fixture.QUERIES, fixture.KEYS, **given)))
    return cases


def _columns_sum_to_one(values):
    """Weights whose columns, not rows, sum to 1 (a softmax over the queries): the outputs then add up, over the
    queries, to the values added up over the keys."""
    return lambda got: np.allclose(got.sum(axis=-2), values.sum(axis=-2), atol=PRINTED_ATOL)


def _summed_over_features(values):
    """Each weighted value summed over its features: divided by the sum of its value row, each entry is a weight,
    and each row of these weights sums to 1."""
    totals = values.sum(axis=-1)

    def matches(got):
        weights = got / totals[..., None, :]
        return bool(np.all(weights >= -1e-6) and np.allclose(weights.sum(axis=-1), 1, atol=PRINTED_ATOL))

    return matches


def _divided_by_three():
    """attention's output on the notebook's example with its scores divided by d_k = 3 instead of sqrt(3)
    (small scores: exp cannot overflow)."""
    e = np.exp(fixture.SCORES.astype(np.float64) / 3)
    return (e / e.sum(axis=1, keepdims=True)) @ fixture.VALUES


def _attention_example():
    values = fixture.VALUES
    properties = [("softmax_dim0", _columns_sum_to_one(values)), ("sum_over_features", _summed_over_features(values))]
    scaling = [("scaling_wrong", PRINTED_OUTPUT[1]), ("scaling_wrong", _divided_by_three())]
    cases = []
    for given, wrong, label in [
        ({"d_k": 1}, [], "the notebook's example Q, K, V, d_k=1"),
        ({}, scaling, "the notebook's example Q, K, V with the default d_k (3)"),
    ]:
        judge = expect(
            "ndarray",
            PRINTED_OUTPUT[given.get("d_k")],
            f"attention on {label}",
            atol=PRINTED_ATOL,
            diagnoses=[*wrong, *properties],
        )
        cases.append(Case(label, judge, numpy_call(fixture.QUERIES, fixture.KEYS, values, **given)))
    return cases


# ---- hidden: known outputs ----
LARGE_ATOL = 1e-4  # exp(x - logsumexp(x)) is off by about 1.5e-5 near 1000 in float32
# Large inputs: exp overflows without the max subtracted; the right answer is plain.
LARGE_INPUTS = np.array([1000.0, 1000.0], dtype=np.float32)
LARGE_SOFTMAX = np.array([0.5, 0.5])
# Seed 003's wrong final sum for query 0 (unscaled): each weighted value summed over its features.
WRONG_SUM_QUERY0 = np.array([0.3803, 4.6831, 5.1514])

# ---- hidden checks ----
ref = reference.of(NOTEBOOK)


def _nonfinite(got):
    return not np.isfinite(got).all()


def _softmax_judge(expected, what, atol=1e-6, rtol=1e-5, diagnoses=(), check_input=False):
    inner = expect(
        "ndarray", expected, what, rtol=rtol, atol=atol, diagnoses=[("softmax_unstable", _nonfinite), *diagnoses]
    )

    def judge(outcome):
        inner(outcome)
        if check_input:
            not_mutated(outcome, what)

    return judge


# ---------------------------------------------------------------- softmax


def _over_columns(x):
    return diagnosis("softmax_dim0", "softmax", "softmax_over_columns", x)


def _softmax_known():
    judge = _softmax_judge(
        known.SOFTMAX,
        "softmax on the notebook's example scores",
        atol=known.SOURCE_ATOL,
        diagnoses=_over_columns(fixture.SCORES),
        check_input=True,
    )
    return [Case("the notebook's example scores", judge, numpy_call(fixture.SCORES))]


def _quantised(rng, *shape):
    """Multiples of 1/64: adding 1000 to them is exact in float32, so a shift changes nothing."""
    return (rng.integers(-256, 256, shape) / 64).astype(np.float32)


def _softmax_large():
    big = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1003.0]], dtype=np.float32)
    cases = [
        Case(
            "[1000., 1000.]",
            _softmax_judge(LARGE_SOFTMAX, "softmax([1000., 1000.])", atol=LARGE_ATOL),
            numpy_call(LARGE_INPUTS),
        ),
        Case(
            f"large scores {big.tolist()}",
            _softmax_judge(ref.softmax(big.astype(np.float64)), "softmax of large scores", atol=LARGE_ATOL),
            numpy_call(big),
        ),
    ]
    x = _quantised(np.random.default_rng(30), 4, 6)
    shifts = [1000.0, -1000.0, 50.0]

    def shift_invariant(outcome):
        items = outcome["items"]
        base = array_of(items[0], "ndarray", x.shape, "floating", "softmax(x)")
        for shift, item in zip(shifts, items[1:]):
            got = array_of(item, "ndarray", x.shape, "floating", f"softmax(x + {shift:g})")
            if _nonfinite(got):
                raise Mismatch(
                    f"softmax(x + {shift:g}) should equal softmax(x), but it is not finite.",
                    expected=None,
                    got=None,
                    misconception="softmax_unstable",
                )
            close(
                got,
                base,
                f"softmax(x + {shift:g}) compared with softmax(x) (a softmax ignores a shift)",
                atol=LARGE_ATOL,
                rtol=1e-4,
            )

    calls = [((x,), {})] + [((x + np.float32(s),), {}) for s in shifts]
    cases.append(Case("softmax(x + c) equals softmax(x)", shift_invariant, {"calls": calls}, probe="calls"))
    return cases


def _softmax_random():
    cases = []
    for seed, shape in enumerate([(5,), (4, 6), (3, 7), (1, 4)], start=10):
        x = random_array(np.random.default_rng(seed), *shape, scale=3.0)
        wrong = _over_columns(x) if x.ndim == 2 and x.shape[0] > 1 else []
        judge = _softmax_judge(ref.softmax(x), f"softmax on random scores of shape {shape}", diagnoses=wrong)
        cases.append(Case(f"random scores of shape {shape}", judge, numpy_call(x)))
    return cases


def _softmax_axis():
    cases = []
    for seed, (shape, axis) in enumerate(
        [((2, 3, 4), None), ((4, 5), 0), ((2, 3, 4), 1), ((2, 3, 4, 5), -2)], start=20
    ):
        x = random_array(np.random.default_rng(seed), *shape, scale=3.0)
        kwargs = {} if axis is None else {"axis": axis}
        wrong = _over_columns(x) if axis is None else []
        where = "the last axis" if axis is None else f"axis={axis}"
        judge = _softmax_judge(ref.softmax(x, **kwargs), f"softmax over {where} of shape {shape}", diagnoses=wrong)
        cases.append(Case(f"scores of shape {shape}, {where}", judge, numpy_call(x, **kwargs)))
    return cases


# ---------------------------------------------------------------- qkv


def _qkv_judge(x, wq, wk, wv, what, atol=1e-6, check_input=False):
    expected = ref.qkv(x, wq, wk, wv)

    def judge(outcome):
        got = arrays_in_tuple(outcome, [e.shape for e in expected], what)
        same_arrays(got, expected, what, atol=atol)
        if check_input:
            not_mutated(outcome, what)

    return judge


def _qkv_known():
    w = (fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)
    judge = _qkv_judge(fixture.X, *w, "qkv on the notebook's example", atol=known.SOURCE_ATOL, check_input=True)
    return [Case("the notebook's example", judge, numpy_call(fixture.X, *w))]


def _qkv_random():
    cases = []
    for seed, (batch, n, d_in, d_k, d_v) in enumerate(
        [((), 5, 4, 3, 3), ((), 3, 6, 4, 2), ((2,), 4, 5, 3, 6), ((2, 3), 2, 4, 8, 4)], start=40
    ):
        rng = np.random.default_rng(seed)
        x = random_array(rng, *batch, n, d_in)
        wq, wk, wv = random_array(rng, d_in, d_k), random_array(rng, d_in, d_k), random_array(rng, d_in, d_v)
        what = f"qkv on x {x.shape} with weights {wq.shape}, {wk.shape}, {wv.shape}"
        case = Case(f"random x {x.shape}", _qkv_judge(x, wq, wk, wv, what), numpy_call(x, wq, wk, wv))
        cases.append(batched(case, x.shape, 2))
    return cases


# ---------------------------------------------------------------- scaled_scores


def _scores_wrong(q, k, d_k=None):
    """The scaling and transpose mistakes on these inputs (scaling makes none when d_k is 1)."""
    kwargs = {} if d_k is None else {"d_k": d_k}
    d = k.shape[-1] if d_k is None else d_k
    wrong = (
        [
            *diagnosis("scaling_wrong", "scaled_scores", "scores_divided_by_d_k", q, k, **kwargs),
            *diagnosis("scaling_wrong", "scaled_scores", "scores_not_scaled", q, k, **kwargs),
        ]
        if d != 1
        else []
    )
    return [
        *wrong,
        *diagnosis("scores_no_transpose", "scaled_scores", "scores_no_transpose", q, k, **kwargs),
        *diagnosis("scores_no_transpose", "scaled_scores", "scores_no_transpose_not_scaled", q, k, **kwargs),
    ]


def _scores_case(q, k, d_k, label, atol=1e-6):
    kwargs = {} if d_k is None else {"d_k": d_k}
    shown = "" if d_k is None else f", d_k={d_k:g}"
    judge = expect(
        "ndarray",
        ref.scaled_scores(q, k, d_k),
        f"scaled_scores({label}{shown})",
        atol=atol,
        diagnoses=_scores_wrong(q, k, d_k),
    )
    return Case(f"{label}{shown}", judge, numpy_call(q, k, **kwargs))


def _scores_known():
    q, k = fixture.QUERIES, fixture.KEYS
    return [
        _scores_case(q, k, 1, "the notebook's example Q, K", atol=known.SOURCE_ATOL),
        _scores_case(q, k, None, "the notebook's example Q, K", atol=known.SOURCE_ATOL),
    ]


def _scores_cases(shapes, start):
    out = []
    for seed, (batch, n, m, d, d_k) in enumerate(shapes, start=start):
        rng = np.random.default_rng(seed)
        q, k = random_array(rng, *batch, n, d), random_array(rng, *batch, m, d)
        out.append(batched(_scores_case(q, k, d_k, f"random Q {q.shape}, K {k.shape}"), q.shape, 2))
    return out


# ---------------------------------------------------------------- attention


def _attention_wrong(q, k, v, d_k=None):
    """The known mistakes on these inputs (scaling makes none when d_k is 1). Summing over the features is
    computed here: the catalogue's answer adds up the weighted values, which rounds otherwise."""
    kwargs = {} if d_k is None else {"d_k": d_k}
    d = k.shape[-1] if d_k is None else d_k
    weights = ref.softmax(q @ np.swapaxes(k, -2, -1) / np.sqrt(d))
    wrong = (
        [
            *diagnosis("scaling_wrong", "attention", "attention_divided_by_d_k", q, k, v, **kwargs),
            *diagnosis("scaling_wrong", "attention", "attention_not_scaled", q, k, v, **kwargs),
        ]
        if d != 1
        else []
    )
    return [
        *wrong,
        ("sum_over_features", weights * v.sum(axis=-1)[..., None, :]),
        *diagnosis("softmax_dim0", "attention", "attention_softmax_over_columns", q, k, v, **kwargs),
    ]


def _attention_case(q, k, v, d_k, label, expected=None, atol=1e-6, diagnoses=()):
    kwargs = {} if d_k is None else {"d_k": d_k}
    shown = "" if d_k is None else f", d_k={d_k:g}"
    expected = ref.attention(q, k, v, d_k) if expected is None else expected
    judge = expect(
        "ndarray",
        expected,
        f"attention({label}{shown})",
        atol=atol,
        diagnoses=[*diagnoses, *_attention_wrong(q, k, v, d_k)],
    )
    return Case(f"{label}{shown}", judge, numpy_call(q, k, v, **kwargs))


def _attention_known():
    qkv = (fixture.QUERIES, fixture.KEYS, fixture.VALUES)
    source_sum = [
        ("sum_over_features", lambda got: got.shape == (3, 3) and np.allclose(got[0], WRONG_SUM_QUERY0, atol=1e-4))
    ]
    return [
        _attention_case(*qkv, 1, "the notebook's example Q, K, V", known.OUTPUT, known.SOURCE_ATOL, source_sum),
        _attention_case(*qkv, None, "the notebook's example Q, K, V", known.SCALED_OUTPUT, known.SOURCE_ATOL),
    ]


def _attention_cases(shapes, start):
    out = []
    for seed, (batch, n, m, d, d_v, d_k) in enumerate(shapes, start=start):
        rng = np.random.default_rng(seed)
        q, k = random_array(rng, *batch, n, d, scale=1.5), random_array(rng, *batch, m, d, scale=1.5)
        v = random_array(rng, *batch, m, d_v)
        case = _attention_case(q, k, v, d_k, f"random Q {q.shape}, K {k.shape}, V {v.shape}")
        out.append(batched(case, q.shape, 2))
    return out


# ---- hidden: wrong answers, as edits of the reference cells (grader/hidden/edits.py) ----
ATTENTION = edit(
    reference_cell("attention"),
    (
        "weights = softmax(scaled_scores(Q, K, d_k), axis=-1)",
        "d_k = K.shape[-1] if d_k is None else d_k\n"
        "    scores = Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k)\n"
        "    e = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
        "    weights = e / e.sum(axis=-1, keepdims=True)",
    ),
)

WRONG_ANSWERS = (
    *making(
        "scores_no_transpose",
        Wrong(
            "scaled_scores",
            "scores_no_transpose",
            edit(reference_cell("scaled_scores"), ("np.swapaxes(K, -2, -1)", "K")),
            demo=True,
        ),
        Wrong(
            "scaled_scores",
            "scores_no_transpose_not_scaled",
            edit(reference_cell("scaled_scores"), ("np.swapaxes(K, -2, -1) / np.sqrt(d_k)", "K")),
        ),
    ),
    *making(
        "softmax_dim0",
        Wrong(
            "softmax",
            "softmax_over_columns",
            edit(
                reference_cell("softmax"),
                ("np.max(x, axis=axis", "np.max(x, axis=0"),
                ("np.sum(e, axis=axis", "np.sum(e, axis=0"),
            ),
        ),
        Wrong(
            "attention",
            "attention_softmax_over_columns",
            edit(ATTENTION, ("scores.max(axis=-1", "scores.max(axis=0"), ("e.sum(axis=-1", "e.sum(axis=0")),
        ),
    ),
    *making(
        "sum_over_features",
        Wrong(
            "attention",
            "attention_sum_over_features",
            edit(
                ATTENTION,
                (
                    "return weights @ V",
                    "weighted = weights[..., :, :, None] * V[..., None, :, :]  # (..., n, m, d_v)\n"
                    "    return weighted.sum(axis=-1)  # the source's final step: each summed over its features",
                ),
            ),
        ),
    ),
    *making(
        "scaling_wrong",
        Wrong(
            "scaled_scores",
            "scores_divided_by_d_k",
            edit(reference_cell("scaled_scores"), ("np.sqrt(d_k)", "d_k")),
            demo=True,
        ),
        Wrong("scaled_scores", "scores_not_scaled", edit(reference_cell("scaled_scores"), (" / np.sqrt(d_k)", ""))),
        Wrong("attention", "attention_divided_by_d_k", edit(ATTENTION, ("np.sqrt(d_k)", "d_k"))),
        Wrong("attention", "attention_not_scaled", edit(ATTENTION, (" / np.sqrt(d_k)", ""))),
    ),
    *making(
        "softmax_unstable",
        Wrong(
            "softmax",
            "softmax_unstable",
            edit(
                reference_cell("softmax"),
                (
                    "    shifted = x - np.max(x, axis=axis, keepdims=True)  # every exponent <= 0: exp cannot "
                    "overflow\n"
                    "    e = np.exp(shifted)",
                    "    e = np.exp(x)",
                ),
            ),
            demo=True,
        ),
        Wrong(
            "attention",
            "attention_unstable",
            edit(ATTENTION, ("np.exp(scores - scores.max(axis=-1, keepdims=True))", "np.exp(scores)")),
        ),
        Wrong(
            "softmax",
            "softmax_global_max",
            edit(reference_cell("softmax"), ("np.max(x, axis=axis, keepdims=True)", "np.max(x)")),
        ),
        Wrong(
            "attention",
            "attention_global_max",
            edit(ATTENTION, ("scores.max(axis=-1, keepdims=True)", "scores.max()")),
        ),
    ),
    # Mistakes that no misconception of the catalogue names.
    Wrong(
        "softmax",
        "softmax_with_scipy",
        '''\
import types

import numpy as np


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# SciPy is not installed in the kit: a stand-in module that the code probe sees as scipy.special.
special = types.ModuleType("scipy.special")
special.softmax = _softmax


def softmax(x, axis=-1):
    """Right numbers, but the exercise is to write it (as the source did: scipy.special.softmax)."""
    return special.softmax(x, axis=axis)
''',
    ),
    Wrong(
        "softmax",
        "softmax_torch_closure",
        '''\
def _closure():
    import torch
    function = torch.softmax

    def inner(x, axis=-1):
        return function(torch.from_numpy(x), dim=axis).numpy()
    return inner


_torch_softmax = _closure()


def softmax(x, axis=-1):
    """Right numbers, through torch.softmax captured in a closure: the rule's point is lost all the same."""
    return _torch_softmax(x, axis)
''',
    ),
    Wrong(
        "softmax",
        "softmax_hard_coded",
        """\
def softmax(x, axis=-1):
    return np.array([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                     [6.0337e-06, 9.8201e-01, 1.7986e-02],
                     [2.9539e-04, 8.8054e-01, 1.1917e-01]], dtype=np.float32)
""",
    ),
    Wrong(
        "softmax",
        "softmax_ignores_axis",
        edit(
            reference_cell("softmax"),
            ("np.max(x, axis=axis", "np.max(x, axis=-1"),
            ("np.sum(e, axis=axis", "np.sum(e, axis=-1"),
        ),
    ),
    Wrong(
        "softmax",
        "softmax_in_place",
        edit(reference_cell("softmax"), ("shifted = x - np.max", "x -= np.max"), ("np.exp(shifted)", "np.exp(x)")),
    ),
    Wrong(
        "qkv",
        "qkv_wrong_order",
        edit(reference_cell("qkv"), ("return queries, keys, values", "return keys, queries, values")),
    ),
    Wrong(
        "qkv",
        "qkv_hard_coded",
        '''\
def qkv(x, w_query, w_key, w_value):
    """Queries, keys, values."""
    queries = np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]])
    keys = np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]])
    values = np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]])
    return queries, keys, values
''',
        demo=True,
    ),
    Wrong(
        "qkv",
        "qkv_hard_coded_float32",
        """\
def qkv(x, w_query, w_key, w_value):
    return (np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]], dtype=np.float32),
            np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]], dtype=np.float32),
            np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]], dtype=np.float32))
""",
    ),
    Wrong("scaled_scores", "scores_dot_T", edit(reference_cell("scaled_scores"), ("np.swapaxes(K, -2, -1)", "K.T"))),
    Wrong(
        "scaled_scores",
        "scores_hard_coded",
        """\
def scaled_scores(Q, K, d_k=None):
    scores = np.array([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]], dtype=np.float32)
    return scores / np.sqrt(3.0 if d_k is None else d_k)
""",
    ),
    Wrong("attention", "attention_dot_T", edit(ATTENTION, ("np.swapaxes(K, -2, -1)", "K.T"))),
    Wrong(
        "attention",
        "attention_hard_coded",
        """\
def attention(Q, K, V, d_k=None):
    if d_k == 1:
        return np.array([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]],
                        dtype=np.float32)
    return np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]],
                    dtype=np.float32)
""",
    ),
)


PARTS = {
    "softmax": [
        Part(
            "an array of the input's shape that sums to 1 along axis, the input unchanged; batches, large inputs",
            1,
            _softmax_shape,
            requires={"shape", "argument", "batch", "large", "inputs"},
        ),
        Part("written with NumPy only, without SciPy", 1, _softmax_code, requires={"policy"}),
        Part("the notebook's example softmax", 1, _softmax_known, requires={"inputs"}, hidden=True),
        Part(
            "large inputs: no overflow, and softmax(x + c) = softmax(x)",
            1,
            _softmax_large,
            requires={"large"},
            hidden=True,
        ),
        Part(
            "random vectors and matrices, over the last axis",
            1,
            _softmax_random,
            gate=True,
            requires={"shape"},
            hidden=True,
        ),
        Part(
            "the axis argument, and batches of matrices", 1, _softmax_axis, requires={"argument", "batch"}, hidden=True
        ),
    ],
    "qkv": [
        Part(
            "a tuple of three arrays of shape (..., n, d_out), the inputs unchanged",
            1,
            _qkv_shape,
            requires={"shape", "batch", "inputs"},
        ),
        Part("the notebook's example, as it prints it: the queries, keys and values, in that order", 1, _qkv_example),
        Part("the notebook's example queries, keys and values", 1, _qkv_known, requires={"inputs"}, hidden=True),
        Part("random shapes and batches", 1, _qkv_random, gate=True, requires={"batch", "shape"}, hidden=True),
    ],
    "scaled_scores": [
        Part(
            "an array of shape (..., n_queries, n_keys), with and without d_k",
            1,
            lambda: _product_cases("scaled_scores(Q, K)", False),
            requires={"shape", "batch", "argument"},
        ),
        Part(
            "the notebook's example, as it prints it: the scores with d_k=1, and divided by sqrt(3) by default",
            1,
            _scores_example,
            requires={"argument"},
        ),
        *known_random_batches(
            (
                "the notebook's example: d_k=1 gives the scores, the default divides by sqrt(3)",
                "random matrices, default and given d_k",
                "batches of matrices (transpose the last two axes)",
            ),
            _scores_known,
            _scores_cases,
            random=([((), 4, 4, 5, None), ((), 3, 6, 8, None), ((), 5, 4, 4, 2.0), ((), 2, 3, 16, 64)], 50),
            batches=([((2,), 3, 5, 4, None), ((2, 3), 4, 6, 8, None), ((3,), 4, 4, 4, 9.0)], 60),
            requires={"argument"},
            hidden=True,
        ),
    ],
    "attention": [
        Part(
            "an array of shape (..., n_queries, d_v), with and without d_k; finite on large scores",
            1,
            lambda: _product_cases("attention(Q, K, V)", True),
            requires={"shape", "batch", "argument", "large"},
        ),
        Part(
            "the notebook's example, as it prints it: the output with d_k=1 and with the default d_k",
            1,
            _attention_example,
            requires={"argument"},
        ),
        *known_random_batches(
            (
                "the notebook's example: d_k=1 gives the exact output, the default the scaled output",
                "random matrices, default and given d_k",
                "batches of matrices",
            ),
            _attention_known,
            _attention_cases,
            random=(
                [((), 4, 4, 5, 3, None), ((), 3, 6, 8, 2, None), ((), 5, 2, 4, 7, 2.0), ((), 3, 3, 3, 3, None)],
                70,
            ),
            batches=([((2,), 3, 5, 4, 6, None), ((2, 3), 4, 4, 8, 3, None), ((3,), 2, 6, 4, 4, 1.0)], 80),
            requires={"argument"},
            hidden=True,
        ),
    ],
}
