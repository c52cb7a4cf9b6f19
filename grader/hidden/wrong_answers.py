"""The misconception catalogue's wrong answers: for each mistake (its words are in
``grader/checks/misconceptions.py``), answers that make it. Instructor only, as all of ``grader/hidden/`` is.

A wrong answer is the source of its answer cell: self-contained (its own imports, no other exercise), so that the
same text is a demo student's answer (``grader/demo/mistakes.py``), a test's and the hidden checks' way to
recognise the mistake (``grader/hidden/catalogue.py``).
"""
import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class Wrong:
    """A wrong answer to ``exercise``, as its answer cell's source; ``name`` tells it from the exercise's other
    wrong answers, ``demo`` hands it out in the demo class (in the catalogue's order)."""
    exercise: str
    name: str
    source: str
    demo: bool = False

    def answer(self):
        """The function or class that the cell defines."""
        return _defined(self.source, self.exercise)


@functools.cache
def _defined(source, name):
    """What running ``source`` binds to ``name``."""
    namespace = {}
    exec(source, namespace)
    return namespace[name]


def answer(key, exercise, name):
    """The function or class of the wrong answer ``name`` to ``exercise``, which makes the misconception ``key``."""
    return {(w.exercise, w.name): w for w in BY_MISCONCEPTION[key]}[exercise, name].answer()


# Each misconception's key, in the catalogue's order: the wrong answers that make it, at least one.
BY_MISCONCEPTION = {
    "scores_no_transpose": (
        Wrong("attention_scores", "scores_no_transpose", '''\
import torch


def attention_scores(queries, keys):
    """Every query against every key."""
    return queries @ keys
''', demo=True),
        Wrong("scaled_scores", "scores_no_transpose", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    """Q K^T / sqrt(d_k)."""
    if d_k is None:
        d_k = K.shape[-1]
    return Q @ K / np.sqrt(d_k)
''', demo=True),
        Wrong("scaled_scores", "scores_no_transpose_not_scaled", '''\
def scaled_scores(Q, K, d_k=None):
    return Q @ K
'''),
        Wrong("query_scores", "query_no_transpose", '''\
def query_scores(query, keys):
    return query @ keys
'''),
        Wrong("self_attention", "attention_no_transpose", '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return torch.softmax(queries @ keys, dim=-1) @ values
''')),
    "softmax_dim0": (
        Wrong("softmax_scores", "softmax_dim0", '''\
import torch
import torch.nn.functional as F


def softmax_scores(scores):
    """Softmax of the scores."""
    return F.softmax(scores, dim=0)
''', demo=True),
        Wrong("attention_weights", "weights_dim0", '''\
import torch


def attention_weights(scores):
    """Softmax of each row."""
    return torch.softmax(scores, dim=0)
''', demo=True),
        Wrong("attention_weights", "weights_dim1", '''\
import torch


def attention_weights(scores):
    """Right on one matrix; on a batch, dimension 1 is the queries."""
    return torch.softmax(scores, dim=1)
'''),
        Wrong("causal_average_weights", "weights_columns", '''\
import torch


def causal_average_weights(T):
    tril = torch.tril(torch.ones(T, T))
    return tril / tril.sum(dim=0, keepdim=True)
'''),
        Wrong("causal_average_matmul", "matmul_columns", '''\
import torch


def causal_average_matmul(x):
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T))
    return tril / tril.sum(dim=0, keepdim=True) @ x
'''),
        Wrong("causal_average_softmax", "softmax_dim0", '''\
import torch
from torch.nn import functional as F


def causal_average_softmax(x):
    T = x.shape[1]
    keep = torch.ones(T, T).tril().bool()
    return F.softmax(torch.zeros(T, T).masked_fill(~keep, float("-inf")), dim=0) @ x
'''),
        Wrong("scaled_dot_product_attention", "sdpa_softmax_dim0", '''\
import torch
from torch.nn import functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    if causal:
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
    return F.softmax(scores, dim=-2) @ v
'''),
        Wrong("Head", "head_softmax_dim1", '''\
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One head of causal self-attention, its softmax over dimension 1 (the queries)."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.head_size = head_size

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) * self.head_size ** -0.5
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
        return self.dropout(F.softmax(scores, dim=1)) @ v
'''),
        Wrong("softmax", "softmax_over_columns", '''\
import numpy as np


def softmax(x, axis=-1):
    """Normalises down the columns (axis 0)."""
    e = np.exp(x - x.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''),
        Wrong("attention", "attention_softmax_over_columns", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    scores = Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k)
    e = np.exp(scores - scores.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True) @ V
''')),
    "softmax_implicit_dim": (
        Wrong("attention_weights", "weights_no_dim", '''\
import torch
import torch.nn.functional as F


def attention_weights(scores):
    """Softmax of each row, as in the source notebook."""
    return F.softmax(scores)
''', demo=True),
        Wrong("softmax_scores", "softmax_implicit_dim", '''\
import torch.nn.functional as F


def softmax_scores(scores):
    """Softmax of the scores."""
    return F.softmax(scores)
''', demo=True),
        Wrong("context_vector", "context_implicit_dim", '''\
import torch.nn.functional as F


def context_vector(scores, hidden_states):
    weights = F.softmax(scores)  # dim 0 for 3-D scores
    return (weights.unsqueeze(-1) * hidden_states).sum(dim=-2)
'''),
        Wrong("self_attention", "attention_no_dim", '''\
from torch.nn.functional import softmax


def self_attention(x, w_query, w_key, w_value):
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return softmax(queries @ keys.transpose(-2, -1)) @ values
'''),
        Wrong("scaled_dot_product_attention", "sdpa_softmax_no_dim", '''\
import torch
from torch.nn import functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    """Right on one matrix, wrong on a batch."""
    scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    if causal:
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
    return F.softmax(scores) @ v
''')),
    "context_scaled_columns": (
        Wrong("context_vector", "context_scaled_columns", '''\
import torch
import torch.nn.functional as F


def context_vector(scores, hidden_states):
    """Weight the hidden states by the softmax of the scores and add them up."""
    weights = F.softmax(scores, dim=-1)
    return (weights * hidden_states).sum(dim=-1)
''', demo=True),),
    "sum_over_features": (
        Wrong("sum_weighted_values", "sum_features", '''\
import torch


def sum_weighted_values(weighted):
    """One output per query."""
    return weighted.sum(dim=-1)
''', demo=True),
        Wrong("self_attention", "attention_sum_features", '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    weights = torch.softmax(queries @ keys.transpose(-2, -1), dim=-1)
    return (weights.unsqueeze(-1) * values.unsqueeze(-3)).sum(dim=-1)
'''),
        Wrong("attention", "attention_sum_over_features", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    """The source's final step: each weighted value summed over its features."""
    d_k = K.shape[-1] if d_k is None else d_k
    scores = Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)  # (..., n, m)
    weighted = weights[..., :, :, None] * V[..., None, :, :]  # (..., n, m, d_v)
    return weighted.sum(axis=-1)
''')),
    "scaling_wrong": (
        Wrong("scaled_scores", "scores_divided_by_d_k", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    """Q K^T scaled by d_k."""
    if d_k is None:
        d_k = K.shape[-1]
    return Q @ np.swapaxes(K, -2, -1) / d_k
''', demo=True),
        Wrong("scaled_scores", "scores_not_scaled", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    return Q @ np.swapaxes(K, -2, -1)
'''),
        Wrong("attention", "attention_divided_by_d_k", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    scores = Q @ np.swapaxes(K, -2, -1) / d_k
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ V
'''),
        Wrong("attention", "attention_not_scaled", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    scores = Q @ np.swapaxes(K, -2, -1)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ V
'''),
        Wrong("scaled_dot_product_attention", "sdpa_unscaled", '''\
import torch
import torch.nn.functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    """softmax(q k^T [masked]) v."""
    scores = q @ k.transpose(-2, -1)
    if causal:
        L, S = scores.shape[-2:]
        future = torch.ones(L, S, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(future, float("-inf"))
    return F.softmax(scores, dim=-1) @ v
''', demo=True),
        Wrong("scaled_dot_product_attention", "sdpa_divide_by_d", '''\
import torch
from torch.nn import functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    scores = q @ k.transpose(-2, -1) * (1.0 / q.shape[-1])
    if causal:
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
    return F.softmax(scores, dim=-1) @ v
'''),
        Wrong("Head", "head_divided_by_head_size", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    """One head of causal self-attention."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.head_size = head_size

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) / self.head_size
        T, S = scores.shape[-2:]
        scores = scores.masked_fill(torch.ones(T, S, dtype=torch.bool).triu(1), float("-inf"))
        return self.dropout(F.softmax(scores, dim=-1)) @ v
''', demo=True),
        Wrong("Head", "head_unscaled", '''\
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One head of causal self-attention, its scores not scaled."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1)
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
        return self.dropout(F.softmax(scores, dim=-1)) @ v
'''),
        Wrong("Head", "head_scaled_by_embed_dim", '''\
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One head of causal self-attention, its scores scaled by the embedding's size, not the head's."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.embed_dim = embed_dim

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) * self.embed_dim ** -0.5
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
        return self.dropout(F.softmax(scores, dim=-1)) @ v
'''),
        Wrong("MultiHeadAttention", "DividesByHeadSize", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, its scores divided by the head size, not its square root."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal, self.p = num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        hs = E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, hs).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / hs
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
        Wrong("MultiHeadAttention", "NotScaled", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, its scores not scaled."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal, self.p = num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        hs = E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, hs).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1)
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
        Wrong("MultiHeadAttention", "ScaledByEmbedDim", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, its scores scaled by the embedding's size, not one head's."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal, self.p = num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        hs = E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, hs).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / E ** 0.5
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
''')),
    "masking_wrong": (
        Wrong("causal_mask", "mask_with_zero", '''\
import torch


def causal_mask(scores):
    """Hide the future positions."""
    L, S = scores.shape[-2:]
    future = torch.ones(L, S, dtype=torch.bool).triu(1)
    return scores.masked_fill(future, 0.0)
''', demo=True),
        Wrong("scaled_dot_product_attention", "sdpa_mask_after", '''\
import math

import torch


def scaled_dot_product_attention(q, k, v, causal=True):
    """softmax(q k^T / sqrt(d)) v, with the future removed."""
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    if causal:
        L, S = weights.shape[-2:]
        weights = weights.masked_fill(torch.ones(L, S, dtype=torch.bool).triu(1), 0.0)
    return weights @ v
''', demo=True),
        Wrong("scaled_dot_product_attention", "sdpa_weights_times_tril", '''\
import torch
from torch.nn import functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    weights = F.softmax(q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5, dim=-1)
    if causal:
        weights = weights * torch.ones(*weights.shape[-2:]).tril().bool()
    return weights @ v
'''),
        Wrong("scaled_dot_product_attention", "sdpa_zero_mask", '''\
import torch
from torch.nn import functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    if causal:
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, 0.0)
    return F.softmax(scores, dim=-1) @ v
'''),
        Wrong("scaled_dot_product_attention", "sdpa_never_masks", '''\
from torch.nn import functional as F


def scaled_dot_product_attention(q, k, v, causal=True):
    scores = q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    return F.softmax(scores, dim=-1) @ v
'''),
        Wrong("causal_average_softmax", "softmax_zero_mask", '''\
import torch
from torch.nn import functional as F


def causal_average_softmax(x):
    T = x.shape[1]
    keep = torch.ones(T, T).tril().bool()
    return F.softmax(torch.zeros(T, T).masked_fill(~keep, 0.0), dim=-1) @ x
'''),
        Wrong("causal_average_softmax", "softmax_mask_after", '''\
import torch
from torch.nn import functional as F


def causal_average_softmax(x):
    T = x.shape[1]
    return (F.softmax(torch.zeros(T, T), dim=-1) * torch.tril(torch.ones(T, T))) @ x
'''),
        Wrong("Head", "head_zero_mask", '''\
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One head of causal self-attention, the future masked with 0 instead of -inf."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.head_size = head_size

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) * self.head_size ** -0.5
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, 0.0)
        return self.dropout(F.softmax(scores, dim=-1)) @ v
'''),
        Wrong("Head", "head_never_masks", '''\
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One head of self-attention that never masks the future."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.head_size = head_size

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) * self.head_size ** -0.5
        return self.dropout(F.softmax(scores, dim=-1)) @ v
'''),
        Wrong("MultiHeadAttention", "MasksWithZero", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, masked with 0 instead of -inf."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal, self.p = num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        hs = E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, hs).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / hs ** 0.5
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        att = F.dropout(att.masked_fill(masked, 0.0).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
        Wrong("MultiHeadAttention", "MasksAfterSoftmax", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, masked after the softmax."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal, self.p = num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        hs = E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, hs).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / hs ** 0.5
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        att = F.dropout(att.softmax(-1).masked_fill(masked, 0.0), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
''')),
    "softmax_unstable": (
        Wrong("softmax", "softmax_unstable", '''\
import numpy as np


def softmax(x, axis=-1):
    """Softmax along axis."""
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
''', demo=True),
        Wrong("softmax_scores", "softmax_unstable", '''\
def softmax_scores(scores):
    return scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
'''),
        Wrong("context_vector", "context_unstable", '''\
def context_vector(scores, hidden_states):
    weights = scores.exp() / scores.exp().sum(dim=-1, keepdim=True)
    return (weights.unsqueeze(-2) @ hidden_states).squeeze(-2)
'''),
        Wrong("attention_weights", "weights_unstable", '''\
import torch


def attention_weights(scores):
    """exp without subtracting the maximum: inf / inf = nan for scores in the hundreds."""
    e = torch.exp(scores)
    return e / e.sum(-1, keepdim=True)
'''),
        Wrong("self_attention", "attention_unstable", '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    """Right steps, but a softmax that overflows once the unscaled scores reach the hundreds."""
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    e = torch.exp(queries @ keys.transpose(-2, -1))
    return e / e.sum(-1, keepdim=True) @ values
'''),
        Wrong("attention", "attention_unstable", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    """Scaled dot-product attention on a softmax that does not subtract the maximum."""
    d_k = K.shape[-1] if d_k is None else d_k
    e = np.exp(Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k))
    return e / e.sum(axis=-1, keepdims=True) @ V
'''),
        Wrong("scaled_dot_product_attention", "sdpa_unstable", '''\
import torch


def scaled_dot_product_attention(q, k, v, causal=True):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if causal:
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
    e = scores.exp()
    return e / e.sum(-1, keepdim=True) @ v
'''),
        Wrong("Head", "head_unstable", '''\
import torch
import torch.nn as nn


class Head(nn.Module):
    """One head of causal self-attention, its softmax without the maximum subtracted."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.head_size = head_size

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) * self.head_size ** -0.5
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        e = scores.masked_fill(~keep, float("-inf")).exp()
        return self.dropout(e / e.sum(-1, keepdim=True)) @ v
'''),
        Wrong("MultiHeadAttention", "UnstableSoftmax", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, its softmax without the maximum subtracted."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal, self.p = num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        hs = E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, hs).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / hs ** 0.5
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        e = att.masked_fill(masked, float("-inf")).exp()
        att = F.dropout(e / e.sum(-1, keepdim=True), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
''')),
}
