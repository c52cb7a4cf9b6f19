"""Plausible wrong answers for 03_attention_in_numpy, each with the misconception it shows."""
import types

import numpy as np

from grader.checks import fixture

FIXTURE_SOFTMAX = np.array([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                            [6.0337e-06, 9.8201e-01, 1.7986e-02],
                            [2.9539e-04, 8.8054e-01, 1.1917e-01]], dtype=np.float32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# ---------------------------------------------------------------- softmax

def softmax_unstable(x, axis=-1):
    """exp without subtracting the maximum: overflows to inf / inf = nan near 1000."""
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def softmax_over_columns(x, axis=-1):
    """Normalises down the columns (axis 0)."""
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)


# SciPy is not installed in the kit: a stand-in module that the code probe sees as scipy.special.
special = types.ModuleType("scipy.special")
special.softmax = _softmax


def softmax_with_scipy(x, axis=-1):
    """Right numbers, but the exercise is to write it (as the source did: scipy.special.softmax)."""
    return special.softmax(x, axis=axis)


def softmax_hard_coded(x, axis=-1):
    return FIXTURE_SOFTMAX.copy()


def softmax_ignores_axis(x, axis=-1):
    """Always over the last axis: right on matrices, wrong when another axis is asked for."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_in_place(x, axis=-1):
    """Subtracts the maximum from the caller's array."""
    x -= x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


# ---------------------------------------------------------------- qkv

def qkv_wrong_order(x, w_query, w_key, w_value):
    return x @ w_key, x @ w_query, x @ w_value


def qkv_hard_coded(x, w_query, w_key, w_value):
    return fixture.QUERIES.copy(), fixture.KEYS.copy(), fixture.VALUES.copy()


# ---------------------------------------------------------------- scaled_scores

def scores_divided_by_d_k(Q, K, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    return Q @ np.swapaxes(K, -2, -1) / d_k


def scores_not_scaled(Q, K, d_k=None):
    return Q @ np.swapaxes(K, -2, -1)


def scores_no_transpose(Q, K, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    return Q @ K / np.sqrt(d_k)


def scores_dot_T(Q, K, d_k=None):
    """K.T reverses every axis: right on one matrix, wrong (or an error) on a batch."""
    d_k = K.shape[-1] if d_k is None else d_k
    return Q @ K.T / np.sqrt(d_k)


def scores_hard_coded(Q, K, d_k=None):
    return fixture.SCORES / np.sqrt(3.0 if d_k is None else d_k)


# ---------------------------------------------------------------- attention

def attention_divided_by_d_k(Q, K, V, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    return _softmax(Q @ np.swapaxes(K, -2, -1) / d_k) @ V


def attention_not_scaled(Q, K, V, d_k=None):
    return _softmax(Q @ np.swapaxes(K, -2, -1)) @ V


def attention_sum_over_features(Q, K, V, d_k=None):
    """The source's final step: each weighted value summed over its features."""
    d_k = K.shape[-1] if d_k is None else d_k
    weights = _softmax(Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k))  # (..., n, m)
    weighted = weights[..., :, :, None] * V[..., None, :, :]  # (..., n, m, d_v)
    return weighted.sum(axis=-1)


def attention_softmax_over_columns(Q, K, V, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    return _softmax(Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k), axis=0) @ V


def attention_dot_T(Q, K, V, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    return _softmax(Q @ K.T / np.sqrt(d_k)) @ V


def attention_unstable(Q, K, V, d_k=None):
    """Scaled dot-product attention on a softmax that does not subtract the maximum."""
    d_k = K.shape[-1] if d_k is None else d_k
    return softmax_unstable(Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k)) @ V


def _closure():
    import torch
    function = torch.softmax

    def inner(x, axis=-1):
        return function(torch.from_numpy(x), dim=axis).numpy()
    return inner


_torch_softmax = _closure()


def softmax_torch_closure(x, axis=-1):
    """Right numbers, through torch.softmax captured in a closure: the rule's point is lost all the same."""
    return _torch_softmax(x, axis)


def attention_hard_coded(Q, K, V, d_k=None):
    from grader.hidden import known
    return (known.OUTPUT if d_k == 1 else known.SCALED_OUTPUT).astype(np.float32)


WRONG = [
    ("softmax", "softmax_unstable", softmax_unstable),
    ("softmax", "softmax_dim0", softmax_over_columns),
    ("softmax", None, softmax_with_scipy),
    ("softmax", None, softmax_torch_closure),
    ("softmax", None, softmax_hard_coded),
    ("softmax", None, softmax_ignores_axis),
    ("softmax", None, softmax_in_place),
    ("qkv", None, qkv_wrong_order),
    ("qkv", None, qkv_hard_coded),
    ("scaled_scores", "scaling_wrong", scores_divided_by_d_k),
    ("scaled_scores", "scaling_wrong", scores_not_scaled),
    ("scaled_scores", "scores_no_transpose", scores_no_transpose),
    ("scaled_scores", None, scores_dot_T),
    ("scaled_scores", None, scores_hard_coded),
    ("attention", "scaling_wrong", attention_divided_by_d_k),
    ("attention", "scaling_wrong", attention_not_scaled),
    ("attention", "sum_over_features", attention_sum_over_features),
    ("attention", "softmax_dim0", attention_softmax_over_columns),
    ("attention", None, attention_dot_T),
    ("attention", "softmax_unstable", attention_unstable),
    ("attention", None, attention_hard_coded),
]
