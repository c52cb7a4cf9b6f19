"""Wrong answers a student might write, as answer-cell source: the known misconceptions and fixed outputs.

Each answer is self-contained (its own imports) and calls no other exercise, so that a broken
exercise elsewhere in the notebook never reaches it.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Mistake:
    exercise: str
    misconception: str | None  # a key of grader.checks.misconceptions.MISCONCEPTIONS; None for a fixed output
    source: str

    @property
    def label(self):
        return f"mistake:{self.misconception}" if self.misconception else "hardcoded"


MISTAKES = (
    Mistake("attention_scores", "scores_no_transpose", '''\
import torch


def attention_scores(queries, keys):
    """Every query against every key."""
    return queries @ keys
'''),
    Mistake("scaled_scores", "scores_no_transpose", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    """Q K^T / sqrt(d_k)."""
    if d_k is None:
        d_k = K.shape[-1]
    return Q @ K / np.sqrt(d_k)
'''),
    Mistake("softmax_scores", "softmax_dim0", '''\
import torch
import torch.nn.functional as F


def softmax_scores(scores):
    """Softmax of the scores."""
    return F.softmax(scores, dim=0)
'''),
    Mistake("attention_weights", "softmax_dim0", '''\
import torch


def attention_weights(scores):
    """Softmax of each row."""
    return torch.softmax(scores, dim=0)
'''),
    Mistake("attention_weights", "softmax_implicit_dim", '''\
import torch
import torch.nn.functional as F


def attention_weights(scores):
    """Softmax of each row, as in the source notebook."""
    return F.softmax(scores)
'''),
    Mistake("softmax_scores", "softmax_implicit_dim", '''\
import torch.nn.functional as F


def softmax_scores(scores):
    """Softmax of the scores."""
    return F.softmax(scores)
'''),
    Mistake("context_vector", "context_scaled_columns", '''\
import torch
import torch.nn.functional as F


def context_vector(scores, hidden_states):
    """Weight the hidden states by the softmax of the scores and add them up."""
    weights = F.softmax(scores, dim=-1)
    return (weights * hidden_states).sum(dim=-1)
'''),
    Mistake("sum_weighted_values", "sum_over_features", '''\
import torch


def sum_weighted_values(weighted):
    """One output per query."""
    return weighted.sum(dim=-1)
'''),
    Mistake("scaled_scores", "scaling_wrong", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    """Q K^T scaled by d_k."""
    if d_k is None:
        d_k = K.shape[-1]
    return Q @ np.swapaxes(K, -2, -1) / d_k
'''),
    Mistake("scaled_dot_product_attention", "scaling_wrong", '''\
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
'''),
    Mistake("Head", "scaling_wrong", '''\
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
'''),
    Mistake("causal_mask", "masking_wrong", '''\
import torch


def causal_mask(scores):
    """Hide the future positions."""
    L, S = scores.shape[-2:]
    future = torch.ones(L, S, dtype=torch.bool).triu(1)
    return scores.masked_fill(future, 0.0)
'''),
    Mistake("scaled_dot_product_attention", "masking_wrong", '''\
import math

import torch


def scaled_dot_product_attention(q, k, v, causal=True):
    """softmax(q k^T / sqrt(d)) v, with the future removed."""
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    if causal:
        L, S = weights.shape[-2:]
        weights = weights.masked_fill(torch.ones(L, S, dtype=torch.bool).triu(1), 0.0)
    return weights @ v
'''),
    Mistake("softmax", "softmax_unstable", '''\
import numpy as np


def softmax(x, axis=-1):
    """Softmax along axis."""
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''),
    Mistake("attention_scores", None, '''\
import torch


def attention_scores(queries, keys):
    """Every query against every key."""
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]])
'''),
    Mistake("self_attention", None, '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    """Self-attention, steps 1-7."""
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
'''),
    Mistake("qkv", None, '''\
import numpy as np


def qkv(x, w_query, w_key, w_value):
    """Queries, keys, values."""
    queries = np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]])
    keys = np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]])
    values = np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]])
    return queries, keys, values
'''),
)
