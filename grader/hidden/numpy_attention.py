"""Hidden checks for 03_attention_in_numpy."""
import numpy as np

from ..checks import fixture
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import array_of, close, expect
from ..checks.numpy_attention import NOTEBOOK, arrays_in_tuple, not_mutated, same_arrays
from ..checks.plain import numpy_call
from .. import reference

from . import known
from .catalogue import diagnosis
from .randomised import batched, random_array

ref = reference.of(NOTEBOOK)


def _nonfinite(got):
    return not np.isfinite(got).all()


def _softmax_judge(expected, what, atol=1e-6, rtol=1e-5, diagnoses=(), check_input=False):
    inner = expect("ndarray", expected, what, rtol=rtol, atol=atol,
                   diagnoses=[("softmax_unstable", _nonfinite), *diagnoses])

    def judge(outcome):
        inner(outcome)
        if check_input:
            not_mutated(outcome, what)
    return judge


# ---------------------------------------------------------------- softmax

def _over_columns(x):
    return diagnosis("softmax_dim0", "softmax", "softmax_over_columns", x)


def _softmax_known():
    judge = _softmax_judge(known.SOFTMAX, "softmax on the notebook's example scores", atol=known.SOURCE_ATOL,
                           diagnoses=_over_columns(fixture.SCORES), check_input=True)
    return [Case("the notebook's example scores", judge, numpy_call(fixture.SCORES))]


def _quantised(rng, *shape):
    """Multiples of 1/64: adding 1000 to them is exact in float32, so a shift changes nothing."""
    return (rng.integers(-256, 256, shape) / 64).astype(np.float32)


def _softmax_large():
    big = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1003.0]], dtype=np.float32)
    cases = [Case("[1000., 1000.]", _softmax_judge(known.LARGE_SOFTMAX, "softmax([1000., 1000.])",
                                                   atol=known.LARGE_ATOL), numpy_call(known.LARGE_INPUTS)),
             Case(f"large scores {big.tolist()}", _softmax_judge(ref.softmax(big.astype(np.float64)),
                                                                 "softmax of large scores", atol=known.LARGE_ATOL),
                  numpy_call(big))]
    x = _quantised(np.random.default_rng(30), 4, 6)
    shifts = [1000.0, -1000.0, 50.0]

    def shift_invariant(outcome):
        items = outcome["items"]
        base = array_of(items[0], "ndarray", x.shape, "floating", "softmax(x)")
        for shift, item in zip(shifts, items[1:]):
            got = array_of(item, "ndarray", x.shape, "floating", f"softmax(x + {shift:g})")
            if _nonfinite(got):
                raise Mismatch(f"softmax(x + {shift:g}) should equal softmax(x), but it is not finite.",
                               expected=None, got=None, misconception="softmax_unstable")
            close(got, base, f"softmax(x + {shift:g}) compared with softmax(x) (a softmax ignores a shift)",
                  atol=known.LARGE_ATOL, rtol=1e-4)
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
    for seed, (shape, axis) in enumerate([((2, 3, 4), None), ((4, 5), 0), ((2, 3, 4), 1), ((2, 3, 4, 5), -2)],
                                         start=20):
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
    for seed, (batch, n, d_in, d_k, d_v) in enumerate([((), 5, 4, 3, 3), ((), 3, 6, 4, 2), ((2,), 4, 5, 3, 6),
                                                         ((2, 3), 2, 4, 8, 4)], start=40):
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
    wrong = [*diagnosis("scaling_wrong", "scaled_scores", "scores_divided_by_d_k", q, k, **kwargs),
             *diagnosis("scaling_wrong", "scaled_scores", "scores_not_scaled", q, k, **kwargs)] if d != 1 else []
    return [*wrong, *diagnosis("scores_no_transpose", "scaled_scores", "scores_no_transpose", q, k, **kwargs),
            *diagnosis("scores_no_transpose", "scaled_scores", "scores_no_transpose_not_scaled", q, k, **kwargs)]


def _scores_case(q, k, d_k, label, atol=1e-6):
    kwargs = {} if d_k is None else {"d_k": d_k}
    shown = "" if d_k is None else f", d_k={d_k:g}"
    judge = expect("ndarray", ref.scaled_scores(q, k, d_k), f"scaled_scores({label}{shown})", atol=atol,
                   diagnoses=_scores_wrong(q, k, d_k))
    return Case(f"{label}{shown}", judge, numpy_call(q, k, **kwargs))


def _scores_known():
    q, k = fixture.QUERIES, fixture.KEYS
    return [_scores_case(q, k, 1, "the notebook's example Q, K", atol=known.SOURCE_ATOL),
            _scores_case(q, k, None, "the notebook's example Q, K", atol=known.SOURCE_ATOL)]


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
    wrong = [*diagnosis("scaling_wrong", "attention", "attention_divided_by_d_k", q, k, v, **kwargs),
             *diagnosis("scaling_wrong", "attention", "attention_not_scaled", q, k, v, **kwargs)] if d != 1 else []
    return [*wrong, ("sum_over_features", weights * v.sum(axis=-1)[..., None, :]),
            *diagnosis("softmax_dim0", "attention", "attention_softmax_over_columns", q, k, v, **kwargs)]


def _attention_case(q, k, v, d_k, label, expected=None, atol=1e-6, diagnoses=()):
    kwargs = {} if d_k is None else {"d_k": d_k}
    shown = "" if d_k is None else f", d_k={d_k:g}"
    expected = ref.attention(q, k, v, d_k) if expected is None else expected
    judge = expect("ndarray", expected, f"attention({label}{shown})", atol=atol,
                   diagnoses=[*diagnoses, *_attention_wrong(q, k, v, d_k)])
    return Case(f"{label}{shown}", judge, numpy_call(q, k, v, **kwargs))


def _attention_known():
    qkv = (fixture.QUERIES, fixture.KEYS, fixture.VALUES)
    source_sum = [("sum_over_features",
                   lambda got: got.shape == (3, 3) and np.allclose(got[0], known.WRONG_SUM_QUERY0, atol=1e-4))]
    return [_attention_case(*qkv, 1, "the notebook's example Q, K, V", known.OUTPUT, known.SOURCE_ATOL, source_sum),
            _attention_case(*qkv, None, "the notebook's example Q, K, V", known.SCALED_OUTPUT, known.SOURCE_ATOL)]


def _attention_cases(shapes, start):
    out = []
    for seed, (batch, n, m, d, d_v, d_k) in enumerate(shapes, start=start):
        rng = np.random.default_rng(seed)
        q, k = random_array(rng, *batch, n, d, scale=1.5), random_array(rng, *batch, m, d, scale=1.5)
        v = random_array(rng, *batch, m, d_v)
        case = _attention_case(q, k, v, d_k, f"random Q {q.shape}, K {k.shape}, V {v.shape}")
        out.append(batched(case, q.shape, 2))
    return out


PARTS = {
    "softmax": [
        Part("the notebook's example softmax", 1, _softmax_known, requires={"inputs"}),
        Part("large inputs: no overflow, and softmax(x + c) = softmax(x)", 1, _softmax_large,
             requires={"large"}),
        Part("random vectors and matrices, over the last axis", 1, _softmax_random, gate=True,
             requires={"shape"}),
        Part("the axis argument, and batches of matrices", 1, _softmax_axis,
             requires={"argument", "batch"}),
    ],
    "qkv": [
        Part("the notebook's example queries, keys and values", 1, _qkv_known, requires={"inputs"}),
        Part("random shapes and batches", 1, _qkv_random, gate=True, requires={"batch", "shape"}),
    ],
    "scaled_scores": known_random_batches(
        ("the notebook's example: d_k=1 gives the scores, the default divides by sqrt(3)",
         "random matrices, default and given d_k", "batches of matrices (transpose the last two axes)"),
        _scores_known, _scores_cases,
        random=([((), 4, 4, 5, None), ((), 3, 6, 8, None), ((), 5, 4, 4, 2.0), ((), 2, 3, 16, 64)], 50),
        batches=([((2,), 3, 5, 4, None), ((2, 3), 4, 6, 8, None), ((3,), 4, 4, 4, 9.0)], 60), requires={"argument"}),
    "attention": known_random_batches(
        ("the notebook's example: d_k=1 gives the exact output, the default the scaled output",
         "random matrices, default and given d_k", "batches of matrices"),
        _attention_known, _attention_cases,
        random=([((), 4, 4, 5, 3, None), ((), 3, 6, 8, 2, None), ((), 5, 2, 4, 7, 2.0), ((), 3, 3, 3, 3, None)], 70),
        batches=([((2,), 3, 5, 4, 6, None), ((2, 3), 4, 4, 8, 3, None), ((3,), 2, 6, 4, 4, 1.0)], 80),
        requires={"argument"}),
}
