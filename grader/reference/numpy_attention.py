"""Reference solutions for 03_attention_in_numpy."""
import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax along ``axis``: subtract the maximum before exp."""
    e = np.exp(x - x.max(axis=axis, keepdims=True))  # every exponent <= 0, so no overflow
    return e / e.sum(axis=axis, keepdims=True)


def qkv(x, w_query, w_key, w_value):
    """Queries, keys, values: (..., n, d_in) @ (d_in, d_out) -> (..., n, d_out) each."""
    return x @ w_query, x @ w_key, x @ w_value


def scaled_scores(Q, K, d_k=None):
    """Q K^T / sqrt(d_k): (..., n, d) @ (..., d, m) -> (..., n, m)."""
    d_k = K.shape[-1] if d_k is None else d_k
    return Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k)


def attention(Q, K, V, d_k=None):
    """Scaled dot-product attention: (..., n, m) weights @ (..., m, d_v) -> (..., n, d_v)."""
    return softmax(scaled_scores(Q, K, d_k)) @ V
