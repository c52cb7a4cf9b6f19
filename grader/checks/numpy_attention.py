"""Visible checks for 03_attention_in_numpy (NumPy arrays in, NumPy arrays out)."""
import itertools

import numpy as np

from . import fixture
from .framework import Case, Mismatch, Part
from .judges import array_of, close

NOTEBOOK = "03_attention_in_numpy.ipynb"

FORBIDDEN_MODULES = ("scipy", "torch")


def call(*args, **kwargs):
    return {"args": args, "kwargs": kwargs}


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


def no_scipy(outcome):
    """The function's code may use NumPy only: softmax is the exercise, not a library call."""
    names, modules = outcome.get("names", []), outcome.get("modules", [])
    if outcome.get("type") != "code":
        raise Mismatch("softmax should be a function defined with def.", got=f"a value of type {outcome.get('type')}")
    if "NotImplementedError" in names:
        raise Mismatch("not implemented yet: replace `raise NotImplementedError()` with your code.")
    used = sorted({m for m in modules if m.split(".")[0] in FORBIDDEN_MODULES}
                  | {n for n in names if n in FORBIDDEN_MODULES})
    if used:
        raise Mismatch("softmax must be written with NumPy only (np.exp, np.max, np.sum), without SciPy or torch.",
                       expected="only NumPy", got="uses " + ", ".join(used))


def _softmax_shape():
    def judge(outcome):
        got = array_of(outcome, "ndarray", fixture.SCORES.shape, "floating", "softmax(scores)")
        if np.allclose(got.sum(axis=-1), 1, atol=1e-5):
            return
        dim0 = np.allclose(got.sum(axis=0), 1, atol=1e-5)
        raise Mismatch("softmax(scores): each row should sum to 1.", expected="row sums [1, 1, 1]",
                       got=f"row sums {np.round(got.astype(np.float64).sum(axis=-1), 4).tolist()}",
                       misconception="softmax_dim0" if dim0 else None)
    return [Case("the fixture's scores", judge, call(fixture.SCORES))]


def _softmax_code():
    return [Case("the code of softmax", no_scipy, {}, probe="code")]


def _qkv_shape():
    def judge(outcome):
        arrays_in_tuple(outcome, [(3, 3)] * 3, "qkv(x, w_query, w_key, w_value)")
    return [Case("the fixture", judge, call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE))]


def _scores_shape():
    def judge(outcome):
        array_of(outcome, "ndarray", (3, 3), "floating", "scaled_scores(Q, K)")
    return [Case("the fixture's queries and keys", judge, call(fixture.QUERIES, fixture.KEYS))]


def _attention_shape():
    def judge(outcome):
        array_of(outcome, "ndarray", (3, 3), "floating", "attention(Q, K, V)")
    return [Case("the fixture's queries, keys and values", judge,
                 call(fixture.QUERIES, fixture.KEYS, fixture.VALUES))]


PARTS = {
    "softmax": [Part("returns an array of the input's shape whose rows sum to 1", 1, _softmax_shape),
                Part("written with NumPy only, without SciPy", 1, _softmax_code)],
    "qkv": [Part("returns a tuple of three arrays of shape (n, d_out)", 1, _qkv_shape)],
    "scaled_scores": [Part("returns an array of shape (n_queries, n_keys)", 1, _scores_shape)],
    "attention": [Part("returns an array of shape (n_queries, d_v)", 1, _attention_shape)],
}
