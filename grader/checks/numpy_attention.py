"""Visible checks for 03_attention_in_numpy (NumPy arrays in, NumPy arrays out)."""
import itertools
import re

import numpy as np

from . import fixture
from .cases import Case, Mismatch, Part
from .judges import array_of, close, finite, read_source
from .plain import numpy_call

NOTEBOOK = "03_attention_in_numpy.ipynb"

# What softmax may use: NumPy and the standard library's plain helpers, nothing that computes it for you.
ALLOWED_MODULES = frozenset({"numpy", "math", "builtins", "functools", "operator", "typing", "numbers", "warnings"})
LIBRARIES = re.compile(r"\b(scipy|torch|jax|tensorflow|sklearn)\b")


def not_mutated(outcome, what):
    if outcome.get("mutated"):
        raise Mismatch(f"{what} changed its input array in place; work on new arrays instead "
                       "(x = x - m, not x -= m).")


def arrays_in_tuple(outcome, shapes, what, names=("queries", "keys", "values")):
    """The arrays of a returned tuple, once its form and every array's type and shape are right."""
    if outcome.get("type") not in ("tuple", "list") or outcome.get("length") != len(shapes):
        got = f"a value of type {outcome.get('type')}"
        if "length" in outcome:
            got += f" of length {outcome['length']}"
        raise Mismatch(f"{what} should return a tuple of {len(shapes)} NumPy arrays ({', '.join(names)}).",
                       expected=f"a tuple of {len(shapes)} arrays", got=got)
    return [array_of(item, "ndarray", shape, "floating", f"{what}: the {name}")
            for item, shape, name in zip(outcome["items"], shapes, names)]


def same_arrays(got, expected, what, names=("queries", "keys", "values"), rtol=1e-5, atol=1e-6):
    """Compare each returned array with its expected value; say so when only the order is wrong."""
    def same(g, e):
        return g.shape == np.shape(e) and np.allclose(g, e, rtol=rtol, atol=atol)
    if not all(same(g, e) for g, e in zip(got, expected)):
        for order in itertools.permutations(range(len(expected))):
            if all(same(g, expected[i]) for g, i in zip(got, order)):
                raise Mismatch(f"{what} returns the right arrays in the wrong order.",
                               expected="(" + ", ".join(names) + ")",
                               got="(" + ", ".join(names[i] for i in order) + ")")
    for g, e, name in zip(got, expected, names):
        close(g, e, f"{what}: the {name}", rtol, atol)


def numpy_only(outcome):
    """softmax's code, read from the notebook, uses NumPy only: softmax is the exercise, not a library call."""
    found = read_source(outcome, "softmax")
    used = sorted({use for use in found["uses"] if use.split(".")[0].lstrip(".") not in ALLOWED_MODULES}
                  | {match for text in found["strings"] for match in LIBRARIES.findall(text)})
    traced = [f"{name} (defined by no cell)" for name in found["unresolved"]] + \
        [f"{way} (a run-time lookup)" for way in found["dynamic"]]
    if used or traced:
        raise Mismatch("softmax must be written with NumPy only (np.exp, np.max, np.sum), without SciPy, torch "
                       "or another library, and without run-time lookups that hide what it calls.",
                       expected="only NumPy", got="uses " + ", ".join(used + traced))


RNG = np.random.default_rng(31)


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
            raise Mismatch(f"{what}: the values along axis {axis} should be non-negative and sum to 1.",
                           expected="sums of 1",
                           got=f"sums {np.round(got.astype(np.float64).sum(axis=axis), 4).tolist()}",
                           misconception="softmax_dim0" if dim0 else None)
        return judge
    batch = (RNG.standard_normal((2, 3, 4)) * 3).astype(np.float32)
    columns = (RNG.standard_normal((4, 5)) * 3).astype(np.float32)
    return [Case("the notebook's example scores", rows((3, 3)), numpy_call(fixture.SCORES)),
            Case("one vector of 5 scores", rows((5,)), numpy_call(columns[0].copy())),
            Case("axis=0 on a (4, 5) array", rows((4, 5), axis=0), numpy_call(columns, axis=0)),
            Case("a batch of shape (2, 3, 4)", rows((2, 3, 4)), numpy_call(batch), batch=(2, 3, 4)),
            Case("large inputs [1000., 1000.]", rows((2,), large=True),
                 numpy_call(np.array([1000.0, 1000.0], dtype=np.float32)))]


def _softmax_code():
    return [Case("the code of softmax, read from the notebook", numpy_only, {"name": "softmax"}, probe="source")]


def _qkv_shape():
    batch = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    other = (RNG.standard_normal((2, 5)).astype(np.float32), RNG.standard_normal((5, 3)).astype(np.float32),
             RNG.standard_normal((5, 3)).astype(np.float32), RNG.standard_normal((5, 4)).astype(np.float32))

    def shapes(shapes, what):
        def judge(outcome):
            arrays_in_tuple(outcome, shapes, what)
            not_mutated(outcome, what)
        return judge
    return [Case("the notebook's example", shapes([(3, 3)] * 3, "qkv(x, w_query, w_key, w_value)"),
                 numpy_call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)),
            Case("x (2, 5), w_query and w_key (5, 3), w_value (5, 4)",
                 shapes([(2, 3), (2, 3), (2, 4)], "qkv on x (2, 5)"),
                 numpy_call(*other)),
            Case("a batch: x (2, 3, 4)", shapes([(2, 3, 3)] * 3, "qkv on a batch"),
                 numpy_call(batch, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE), batch=(2, 3, 4))]


def _product_cases(name, with_values):
    q, k, v = fixture.QUERIES, fixture.KEYS, fixture.VALUES
    wide = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 5), (4, 5), (4, 3))]
    batch = [RNG.standard_normal(s).astype(np.float32) for s in ((2, 3, 4), (2, 5, 4), (2, 5, 2))]
    found = []
    for label, args, kwargs, shape, is_batch, large in [
            ("the notebook's example queries, keys" + (" and values" if with_values else ""), (q, k, v), {}, (3, 3),
             False, False),
            ("the notebook's example, d_k=1", (q, k, v), {"d_k": 1}, (3, 3), False, False),
            ("2 queries and 4 keys of dimension 5", wide, {}, (2, 3 if with_values else 4), False, False),
            ("a batch: Q (2, 3, 4), K (2, 5, 4)", batch, {}, (2, 3, 2 if with_values else 5), True, False),
            ("large scores: the notebook's example Q and K times 10", (q * 10, k * 10, v), {}, (3, 3), False, True)]:
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


PARTS = {
    "softmax": [Part("an array of the input's shape that sums to 1 along axis, the input unchanged; batches, "
                     "large inputs", 1, _softmax_shape, requires={"shape", "argument", "batch", "large", "inputs"}),
                Part("written with NumPy only, without SciPy", 1, _softmax_code, requires={"policy"})],
    "qkv": [Part("a tuple of three arrays of shape (..., n, d_out), the inputs unchanged", 1, _qkv_shape,
                 requires={"shape", "batch", "inputs"})],
    "scaled_scores": [Part("an array of shape (..., n_queries, n_keys), with and without d_k", 1,
                           lambda: _product_cases("scaled_scores(Q, K)", False),
                           requires={"shape", "batch", "argument"})],
    "attention": [Part("an array of shape (..., n_queries, d_v), with and without d_k; finite on large scores", 1,
                       lambda: _product_cases("attention(Q, K, V)", True),
                       requires={"shape", "batch", "argument", "large"})],
}

# What each exercise is worth: its test cell's points, for the visible and hidden parts together.
POINTS = {"softmax": 6, "qkv": 3, "scaled_scores": 4, "attention": 4}
