"""Every known wrong answer, as answer-cell source: the misconception catalogue's
(``grader/hidden/wrong_answers.py``) and, here, the ones that make no misconception it names (fixed
outputs, wrong shapes, in-place edits...). The tests grade them all; the demo class gets ``MISTAKES``.

Each answer is self-contained (its own imports) and calls no other exercise, so that a broken
exercise elsewhere in the notebook never reaches it.
"""
from dataclasses import dataclass

from ..checks.misconceptions import CATALOGUE
from ..hidden.wrong_answers import BY_MISCONCEPTION, Wrong


@dataclass(frozen=True)
class Mistake:
    """A wrong answer and the catalogue's misconception it makes (None: it makes none that is named)."""
    misconception: str | None
    wrong: Wrong

    @property
    def exercise(self):
        return self.wrong.exercise

    @property
    def source(self):
        return self.wrong.source

    @property
    def label(self):
        return f"mistake:{self.misconception}" if self.misconception else "hardcoded"


UNNAMED = (
    # ---- 01_attention_basics ----
    Wrong("softmax_scores", "softmax_hard_coded", '''\
import torch


def softmax_scores(scores):
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]]).softmax(dim=-1)
'''),
    Wrong("softmax_scores", "softmax_in_place", '''\
def softmax_scores(scores):
    return scores.sub_(scores.amax(dim=-1, keepdim=True)).exp_().div_(scores.sum(dim=-1, keepdim=True))
'''),
    Wrong("context_vector", "context_no_softmax", '''\
def context_vector(scores, hidden_states):
    return scores @ hidden_states
'''),
    Wrong("context_vector", "context_one_sequence_only", '''\
import torch.nn.functional as F


def context_vector(scores, hidden_states):
    return F.softmax(scores, dim=-1) @ hidden_states  # right for one sequence, wrong shape for a batch
'''),
    Wrong("context_vector", "context_hard_coded", '''\
import torch


def context_vector(scores, hidden_states):
    return torch.tensor([0.3321, -0.2374, 1.3781])
'''),
    Wrong("compute_keys", "keys_as_float", '''\
import torch


def compute_keys(vs, ws):
    return torch.stack(vs).float() @ torch.stack(ws, dim=1).float()
'''),
    Wrong("compute_keys", "keys_weights_as_rows", '''\
import torch


def compute_keys(vs, ws):
    return torch.stack(vs) @ torch.stack(ws)
'''),
    Wrong("compute_keys", "keys_hard_coded", '''\
import torch


def compute_keys(vs, ws):
    return torch.tensor([[0, 1, 1], [4, 4, 0], [2, 3, 1]])
'''),
    Wrong("project_qkv", "qkv_swapped", '''\
def project_qkv(x, w_query, w_key, w_value):
    return x @ w_key, x @ w_query, x @ w_value
'''),
    Wrong("project_qkv", "qkv_stacked", '''\
import torch


def project_qkv(x, w_query, w_key, w_value):
    return torch.stack([x @ w_query, x @ w_key, x @ w_value])
'''),
    Wrong("project_qkv", "qkv_one_matrix_only", '''\
def project_qkv(x, w_query, w_key, w_value):
    x = x.reshape(-1, x.shape[-1])[: x.shape[-2]]  # drops the batch: the first sequence only
    return x @ w_query, x @ w_key, x @ w_value
'''),
    Wrong("project_qkv", "qkv_hard_coded", '''\
import torch


def project_qkv(x, w_query, w_key, w_value):
    return (torch.tensor([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]]),
            torch.tensor([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]]),
            torch.tensor([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]]))
'''),
    Wrong("query_scores", "query_elementwise", '''\
def query_scores(query, keys):
    return query * keys.T  # the source's first try: a matrix, not one score per key
'''),
    Wrong("query_scores", "query_dot_T", '''\
def query_scores(query, keys):
    return query @ keys.T  # right for one query; .T reverses every dimension of a batch
'''),
    Wrong("query_scores", "query_hard_coded", '''\
import torch


def query_scores(query, keys):
    return torch.tensor([2.0, 4.0, 4.0])
'''),
    Wrong("attention_scores", "scores_dot_T", '''\
def attention_scores(queries, keys):
    return queries @ keys.T  # right for one matrix, wrong for a batch
'''),
    Wrong("attention_scores", "scores_hard_coded", '''\
import torch


def attention_scores(queries, keys):
    """Every query against every key."""
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]])
''', demo=True),
    # ---- 02_self_attention_step_by_step ----
    Wrong("attention_weights", "weights_hard_coded", '''\
import torch


def attention_weights(scores):
    return torch.tensor([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                         [6.0337e-06, 9.8201e-01, 1.7986e-02],
                         [2.9539e-04, 8.8054e-01, 1.1917e-01]])
'''),
    Wrong("weighted_values", "weighted_transposed", '''\
def weighted_values(weights, values):
    """Seed 000's layout: [key, query, feature]."""
    return values[:, None] * weights.T[:, :, None]
'''),
    Wrong("weighted_values", "weighted_seed004", '''\
def weighted_values(weights, values):
    """Seed 004's line: right on one matrix, wrong on a batch."""
    return values * weights.unsqueeze(-1)
'''),
    Wrong("weighted_values", "weighted_hard_coded", '''\
import torch


def weighted_values(weights, values):
    return torch.tensor([[[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]]] * 3)
'''),
    Wrong("weighted_values", "weighted_matrix_product", '''\
def weighted_values(weights, values):
    """Already sums over the keys: the wrong shape."""
    return weights @ values
'''),
    Wrong("sum_weighted_values", "sum_dim0", '''\
def sum_weighted_values(weighted):
    """Seed 000's sum, meant for its transposed layout."""
    return weighted.sum(dim=0)
'''),
    Wrong("sum_weighted_values", "sum_dim1", '''\
def sum_weighted_values(weighted):
    """Right on one query-key-feature array, wrong on a batch."""
    return weighted.sum(dim=1)
'''),
    Wrong("sum_weighted_values", "sum_hard_coded", '''\
import torch


def sum_weighted_values(weighted):
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
'''),
    Wrong("self_attention", "attention_dot_t", '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    """keys.T reverses every dimension of a batch: right on one sequence only."""
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return torch.softmax(queries @ keys.T, dim=-1) @ values
'''),
    Wrong("self_attention", "attention_scaled", '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    """Scaled, but this notebook follows the source: unscaled."""
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return torch.softmax(queries @ keys.transpose(-2, -1) / keys.shape[-1] ** 0.5, dim=-1) @ values
'''),
    Wrong("self_attention", "attention_hard_coded", '''\
import torch


def self_attention(x, w_query, w_key, w_value):
    """Self-attention, steps 1-7."""
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
''', demo=True),
    Wrong("show_heatmaps", "heatmaps_seed", '''\
import matplotlib.pyplot as plt


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """The source's version: returns nothing and needs a tensor."""
    num_rows, num_cols, _, _ = matrices.shape
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, sharex=True, sharey=True, squeeze=False)
    for i, (row_axes, row_matrices) in enumerate(zip(axes, matrices)):
        for j, (ax, matrix) in enumerate(zip(row_axes, row_matrices)):
            pcm = ax.imshow(matrix.detach().numpy(), cmap=cmap)
            if i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
    fig.colorbar(pcm, ax=axes, shrink=0.6)
'''),
    Wrong("show_heatmaps", "heatmaps_tensor_only", '''\
import matplotlib.pyplot as plt


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """Returns the figure, but `.detach().numpy()` fails on a NumPy array: partial credit."""
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            image = axes[i][j].imshow(matrices[i][j].detach().numpy(), cmap=cmap)
            if i == num_rows - 1:
                axes[i][j].set_xlabel(xlabel)
            if j == 0:
                axes[i][j].set_ylabel(ylabel)
            if titles:
                axes[i][j].set_title(titles[j])
    fig.colorbar(image, ax=axes)
    return fig
'''),
    Wrong("show_heatmaps", "heatmaps_every_label", '''\
import matplotlib.pyplot as plt
import numpy as np


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """Labels on every plot, not only on the outer ones."""
    matrices = np.asarray(matrices)
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            image = axes[i][j].imshow(matrices[i][j], cmap=cmap)
            axes[i][j].set_xlabel(xlabel)
            axes[i][j].set_ylabel(ylabel)
            if titles:
                axes[i][j].set_title(titles[j])
    fig.colorbar(image, ax=axes)
    return fig
'''),
    Wrong("show_heatmaps", "heatmaps_bar_each", '''\
import matplotlib.pyplot as plt
import numpy as np


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """A colour bar for every plot, not one shared."""
    matrices = np.asarray(matrices)
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            image = axes[i][j].imshow(matrices[i][j], cmap=cmap)
            if i == num_rows - 1:
                axes[i][j].set_xlabel(xlabel)
            if j == 0:
                axes[i][j].set_ylabel(ylabel)
            if titles:
                axes[i][j].set_title(titles[j])
            fig.colorbar(image, ax=axes[i][j])
    return fig
'''),
    Wrong("show_heatmaps", "heatmaps_shows", '''\
import matplotlib.pyplot as plt
import numpy as np


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """Shows the figure as well as returning it."""
    matrices = np.asarray(matrices)
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            image = axes[i][j].imshow(matrices[i][j], cmap=cmap)
            if i == num_rows - 1:
                axes[i][j].set_xlabel(xlabel)
            if j == 0:
                axes[i][j].set_ylabel(ylabel)
            if titles:
                axes[i][j].set_title(titles[j])
    fig.colorbar(image, ax=axes)
    plt.show()
    return fig
'''),
    Wrong("show_heatmaps", "heatmaps_squeezed", '''\
import matplotlib.pyplot as plt
import numpy as np


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """plt.subplots without squeeze=False: a 1 x 1 grid gives one Axes, not an array."""
    matrices = np.asarray(matrices)
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize)
    for i in range(num_rows):
        for j in range(num_cols):
            image = axes[i][j].imshow(matrices[i][j], cmap=cmap)
            if i == num_rows - 1:
                axes[i][j].set_xlabel(xlabel)
            if j == 0:
                axes[i][j].set_ylabel(ylabel)
            if titles:
                axes[i][j].set_title(titles[j])
    fig.colorbar(image, ax=axes)
    return fig
'''),
    Wrong("show_heatmaps", "heatmaps_hard_coded", '''\
import matplotlib.pyplot as plt
import numpy as np


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    fig, ax = plt.subplots(figsize=figsize)
    image = ax.imshow(np.eye(10), cmap=cmap)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.colorbar(image, ax=ax)
    return fig
'''),
    # ---- 03_attention_in_numpy ----
    Wrong("softmax", "softmax_with_scipy", '''\
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
'''),
    Wrong("softmax", "softmax_torch_closure", '''\
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
'''),
    Wrong("softmax", "softmax_hard_coded", '''\
import numpy as np


def softmax(x, axis=-1):
    return np.array([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                     [6.0337e-06, 9.8201e-01, 1.7986e-02],
                     [2.9539e-04, 8.8054e-01, 1.1917e-01]], dtype=np.float32)
'''),
    Wrong("softmax", "softmax_ignores_axis", '''\
import numpy as np


def softmax(x, axis=-1):
    """Always over the last axis: right on matrices, wrong when another axis is asked for."""
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''),
    Wrong("softmax", "softmax_in_place", '''\
import numpy as np


def softmax(x, axis=-1):
    """Subtracts the maximum from the caller's array."""
    x -= x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
'''),
    Wrong("qkv", "qkv_wrong_order", '''\
def qkv(x, w_query, w_key, w_value):
    return x @ w_key, x @ w_query, x @ w_value
'''),
    Wrong("qkv", "qkv_hard_coded", '''\
import numpy as np


def qkv(x, w_query, w_key, w_value):
    """Queries, keys, values."""
    queries = np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]])
    keys = np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]])
    values = np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]])
    return queries, keys, values
''', demo=True),
    Wrong("qkv", "qkv_hard_coded_float32", '''\
import numpy as np


def qkv(x, w_query, w_key, w_value):
    return (np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]], dtype=np.float32),
            np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]], dtype=np.float32),
            np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]], dtype=np.float32))
'''),
    Wrong("scaled_scores", "scores_dot_T", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    """K.T reverses every axis: right on one matrix, wrong (or an error) on a batch."""
    d_k = K.shape[-1] if d_k is None else d_k
    return Q @ K.T / np.sqrt(d_k)
'''),
    Wrong("scaled_scores", "scores_hard_coded", '''\
import numpy as np


def scaled_scores(Q, K, d_k=None):
    scores = np.array([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]], dtype=np.float32)
    return scores / np.sqrt(3.0 if d_k is None else d_k)
'''),
    Wrong("attention", "attention_dot_T", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    d_k = K.shape[-1] if d_k is None else d_k
    scores = Q @ K.T / np.sqrt(d_k)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) @ V
'''),
    Wrong("attention", "attention_hard_coded", '''\
import numpy as np


def attention(Q, K, V, d_k=None):
    if d_k == 1:
        return np.array([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]],
                        dtype=np.float32)
    return np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]],
                    dtype=np.float32)
'''),
    # ---- 04_causal_self_attention ----
    Wrong("causal_average_loop", "loop_hard_coded", '''\
import torch


def causal_average_loop(x):
    """The running means of the notebook's x, whatever x is."""
    seed_x = torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42))
    return torch.cumsum(seed_x, dim=1) / torch.arange(1, 9).reshape(1, 8, 1)
'''),
    Wrong("causal_average_loop", "loop_excludes_current", '''\
import torch


def causal_average_loop(x):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            out[b, t] = x[b, :t].mean(dim=0)  # nan at t = 0
    return out
'''),
    Wrong("causal_average_weights", "weights_hard_coded", '''\
import torch


def causal_average_weights(T):
    tril = torch.tril(torch.ones(8, 8))
    return tril / tril.sum(dim=1, keepdim=True)
'''),
    Wrong("causal_average_weights", "weights_no_tril", '''\
import torch


def causal_average_weights(T):
    return torch.ones(T, T) / T
'''),
    Wrong("causal_average_matmul", "matmul_hard_coded", '''\
import torch


def causal_average_matmul(x):
    """The running means of the notebook's x, whatever x is."""
    seed_x = torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42))
    return torch.cumsum(seed_x, dim=1) / torch.arange(1, 9).reshape(1, 8, 1)
'''),
    Wrong("causal_average_matmul", "matmul_sums", '''\
import torch


def causal_average_matmul(x):
    return torch.tril(torch.ones(x.shape[1], x.shape[1])) @ x  # running sums, not means
'''),
    Wrong("causal_mask", "mask_in_place", '''\
import torch


def causal_mask(scores):
    """Right values, but the caller's scores are overwritten: it loses only the "new tensor" point."""
    L, S = scores.shape[-2:]
    return scores.masked_fill_(~torch.ones(L, S).tril().bool(), float("-inf"))
'''),
    Wrong("causal_mask", "mask_matrix_only", '''\
import torch


def causal_mask(scores):
    L, S = scores.shape  # right on one matrix, fails on a batch
    return scores.masked_fill(~torch.ones(L, S).tril().bool(), float("-inf"))
'''),
    Wrong("causal_mask", "mask_bottom_right", '''\
import torch


def causal_mask(scores):
    L, S = scores.shape[-2:]
    keep = torch.ones(L, S).tril(S - L).bool()
    return scores.masked_fill(~keep, float("-inf"))
'''),
    Wrong("causal_mask", "mask_hard_coded", '''\
import torch


def causal_mask(scores):
    return torch.zeros(8, 8).masked_fill(~torch.ones(8, 8).tril().bool(), float("-inf"))
'''),
    Wrong("causal_average_softmax", "softmax_hard_coded", '''\
import torch


def causal_average_softmax(x):
    """The running means of the notebook's x, whatever x is."""
    seed_x = torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42))
    return torch.cumsum(seed_x, dim=1) / torch.arange(1, 9).reshape(1, 8, 1)
'''),
    Wrong("scaled_dot_product_attention", "sdpa_hard_coded", '''\
import torch


def scaled_dot_product_attention(q, k, v, causal=True):
    return torch.tensor([[1.0, 2.0, 3.0], [1.9990, 7.9941, 0.0029], [1.9926, 7.4796, 0.7359]])
'''),
    Wrong("Head", "head_dropout_always", '''\
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One head of causal self-attention that drops weights in eval mode too: it loses only the dropout point."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.p, self.head_size = dropout, head_size

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = q @ k.transpose(-2, -1) * self.head_size ** -0.5
        keep = torch.ones(*scores.shape[-2:]).tril().bool()
        scores = scores.masked_fill(~keep, float("-inf"))
        return F.dropout(F.softmax(scores, dim=-1), self.p, training=True) @ v
'''),
    Wrong("Head", "HeadWithBias", '''\
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size)
        self.query = nn.Linear(embed_dim, head_size)
        self.value = nn.Linear(embed_dim, head_size)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        keep = torch.ones(query.shape[1], key.shape[1]).tril().bool()
        scores = (q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5).masked_fill(~keep, float("-inf"))
        return self.dropout(F.softmax(scores, dim=-1)) @ v
'''),
    # ---- 05_multi_head_attention ----
    Wrong("MultiHeadAttention", "PaddingMaskInverted", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention that reads key_padding_mask as True = keep."""

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
            masked |= ~key_padding_mask[:, None, None, :]
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
    Wrong("MultiHeadAttention", "IgnoresPaddingMask", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention that ignores key_padding_mask."""

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
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
    Wrong("MultiHeadAttention", "DropoutInEvalMode", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention that drops weights in eval mode too."""

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
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=True)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
    Wrong("MultiHeadAttention", "OneBigHead", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Never splits into heads: right only when num_heads is 1."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.causal, self.p = causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, 1, E).transpose(1, 2) for t in (q, k, v))
        att = q @ k.transpose(-2, -1) / E ** 0.5
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None:
            masked |= key_padding_mask[:, None, None, :]
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''),
    Wrong("MultiHeadAttention", "SeparateProjections", '''\
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Right computation, but named q_proj/k_proj/v_proj: PyTorch's state dict does not load."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.num_heads, self.causal = num_heads, causal
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(embed_dim, embed_dim) for _ in range(3))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        q, k, v = (p(x).view(B, T, self.num_heads, -1).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        mask = None if key_padding_mask is None else ~key_padding_mask[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.causal and mask is None)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, E))
'''),
    Wrong("MultiHeadAttention", "ReturnsTupleLikePyTorch", '''\
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Right output, but returned as (output, None), as nn.MultiheadAttention returns (output, weights)."""

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
        att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p, training=self.training)
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E)), None
'''),
)

# Every wrong answer: the catalogue's, then the unnamed ones.
WRONG_ANSWERS = (*(Mistake(m.key, w) for m in CATALOGUE for w in BY_MISCONCEPTION[m.key]),
                 *(Mistake(None, w) for w in UNNAMED))
# The demo class's, in the order grader/demo/roster.py hands them out.
MISTAKES = tuple(m for m in WRONG_ANSWERS if m.wrong.demo)
