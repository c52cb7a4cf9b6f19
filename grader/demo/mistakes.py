"""Every known wrong answer, as answer-cell code: the misconception catalogue's
(``grader/hidden/wrong_answers.py``) and, here, the ones that make no misconception it names (fixed
outputs, wrong shapes, in-place edits...). The tests grade them all; the demo class gets ``MISTAKES``.

As in the catalogue, an answer is the reference cell with the lines that make the mistake changed
(``grader/hidden/edits.py``) unless it shares nothing with it. It calls no other exercise, so that a
broken exercise elsewhere in the notebook never reaches it.
"""
from dataclasses import dataclass

from ..checks.misconceptions import CATALOGUE
from ..hidden.edits import edit, reference_cell
from ..hidden.wrong_answers import ATTENTION, BY_MISCONCEPTION, HEAD, MULTI_HEAD, SELF_ATTENTION, Wrong


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


# Reference lines that several answers change, and the body of three answers that return fixed running means.
QUERY_SCORE = "(keys @ query.unsqueeze(-1)).squeeze(-1)  # (..., n, d) @ (..., d, 1) -> (..., n)"
WEIGHTED = "weights.unsqueeze(-1) * values.unsqueeze(-3)  # (..., n, m, 1) * (..., 1, m, d_v)"
RUNNING_MEANS = '''\
    """The running means of the notebook's x, whatever x is."""
    seed_x = torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42))
    return torch.cumsum(seed_x, dim=1) / torch.arange(1, 9).reshape(1, 8, 1)
'''

UNNAMED = (
    # ---- 01_attention_basics ----
    Wrong("softmax_scores", "softmax_hard_coded", '''\
def softmax_scores(scores):
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]]).softmax(dim=-1)
'''),
    Wrong("softmax_scores", "softmax_in_place", edit(reference_cell("softmax_scores"), (
        "F.softmax(scores, dim=-1)",
        "scores.sub_(scores.amax(dim=-1, keepdim=True)).exp_().div_(scores.sum(dim=-1, keepdim=True))"))),
    Wrong("context_vector", "context_no_softmax", '''\
def context_vector(scores, hidden_states):
    return scores @ hidden_states
'''),
    Wrong("context_vector", "context_one_sequence_only", edit(reference_cell("context_vector"), (
        "(weights.unsqueeze(-2) @ hidden_states).squeeze(-2)  # (..., 1, n) @ (..., n, d) -> (..., d)",
        "weights @ hidden_states  # right for one sequence, wrong shape for a batch"))),
    Wrong("context_vector", "context_hard_coded", '''\
def context_vector(scores, hidden_states):
    return torch.tensor([0.3321, -0.2374, 1.3781])
'''),
    Wrong("compute_keys", "keys_as_float", edit(reference_cell("compute_keys"), (
        "return v @ w  # (n, m)", "return v.float() @ w.float()  # (n, m), float whatever the inputs' dtype"))),
    Wrong("compute_keys", "keys_weights_as_rows", edit(reference_cell("compute_keys"), (
        "torch.stack(ws, dim=-1)  # (d, m)", "torch.stack(ws)  # (m, d)"))),
    Wrong("compute_keys", "keys_hard_coded", '''\
def compute_keys(vs, ws):
    return torch.tensor([[0, 1, 1], [4, 4, 0], [2, 3, 1]])
'''),
    Wrong("project_qkv", "qkv_swapped", edit(reference_cell("project_qkv"), (
        "return queries, keys, values", "return keys, queries, values"))),
    Wrong("project_qkv", "qkv_stacked", edit(reference_cell("project_qkv"), (
        "return queries, keys, values", "return torch.stack([queries, keys, values])"))),
    Wrong("project_qkv", "qkv_one_matrix_only", edit(reference_cell("project_qkv"), (
        "    queries = x @ w_query",
        "    x = x.reshape(-1, x.shape[-1])[: x.shape[-2]]  # drops the batch: the first sequence only\n"
        "    queries = x @ w_query"))),
    Wrong("project_qkv", "qkv_hard_coded", '''\
def project_qkv(x, w_query, w_key, w_value):
    return (torch.tensor([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]]),
            torch.tensor([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]]),
            torch.tensor([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]]))
'''),
    Wrong("query_scores", "query_elementwise", edit(reference_cell("query_scores"), (
        QUERY_SCORE, "query * keys.T  # the source's first try: a matrix, not one score per key"))),
    Wrong("query_scores", "query_dot_T", edit(reference_cell("query_scores"), (
        QUERY_SCORE, "query @ keys.T  # right for one query; .T reverses every dimension of a batch"))),
    Wrong("query_scores", "query_hard_coded", '''\
def query_scores(query, keys):
    return torch.tensor([2.0, 4.0, 4.0])
'''),
    Wrong("attention_scores", "scores_dot_T", edit(reference_cell("attention_scores"), (
        "keys.transpose(-2, -1)  # (..., n, d) @ (..., d, m) -> (..., n, m)",
        "keys.T  # right for one matrix, wrong for a batch"))),
    Wrong("attention_scores", "scores_hard_coded", '''\
def attention_scores(queries, keys):
    """Every query against every key."""
    return torch.tensor([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]])
''', demo=True),
    # ---- 02_self_attention_step_by_step ----
    Wrong("attention_weights", "weights_hard_coded", '''\
def attention_weights(scores):
    return torch.tensor([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                         [6.0337e-06, 9.8201e-01, 1.7986e-02],
                         [2.9539e-04, 8.8054e-01, 1.1917e-01]])
'''),
    Wrong("weighted_values", "weighted_transposed", edit(reference_cell("weighted_values"), (
        WEIGHTED, "values[:, None] * weights.T[:, :, None]  # seed 000's layout: [key, query, feature]"))),
    Wrong("weighted_values", "weighted_seed004", edit(reference_cell("weighted_values"), (
        WEIGHTED, "values * weights.unsqueeze(-1)  # seed 004's line: right on one matrix, wrong on a batch"))),
    Wrong("weighted_values", "weighted_hard_coded", '''\
def weighted_values(weights, values):
    return torch.tensor([[[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]]] * 3)
'''),
    Wrong("weighted_values", "weighted_matrix_product", edit(reference_cell("weighted_values"), (
        WEIGHTED, "weights @ values  # already sums over the keys: the wrong shape"))),
    Wrong("sum_weighted_values", "sum_dim0", edit(reference_cell("sum_weighted_values"), (
        "dim=-2)", "dim=0)  # seed 000's sum, meant for its transposed layout"))),
    Wrong("sum_weighted_values", "sum_dim1", edit(reference_cell("sum_weighted_values"), (
        "dim=-2)", "dim=1)  # right on one query-key-feature array, wrong on a batch"))),
    Wrong("sum_weighted_values", "sum_hard_coded", '''\
def sum_weighted_values(weighted):
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
'''),
    Wrong("self_attention", "attention_dot_t", edit(SELF_ATTENTION, (
        "keys.transpose(-2, -1)  # (..., n, n)", "keys.T  # .T reverses every dimension of a batch: right on one "
                                                  "sequence only"))),
    Wrong("self_attention", "attention_scaled", edit(SELF_ATTENTION, (
        "keys.transpose(-2, -1)  # (..., n, n)",
        "keys.transpose(-2, -1) / keys.shape[-1] ** 0.5  # scaled, but this notebook follows the source: unscaled"))),
    Wrong("self_attention", "attention_hard_coded", '''\
def self_attention(x, w_query, w_key, w_value):
    """Self-attention, steps 1-7."""
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
''', demo=True),
    Wrong("show_heatmaps", "heatmaps_seed", '''\
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
    Wrong("show_heatmaps", "heatmaps_every_label", edit(reference_cell("show_heatmaps"), (
        "if i == num_rows - 1:\n                ax.set_xlabel", "ax.set_xlabel"), (
        "if j == 0:\n                ax.set_ylabel", "ax.set_ylabel"))),
    Wrong("show_heatmaps", "heatmaps_bar_each", edit(reference_cell("show_heatmaps"), (
        "                ax.set_title(titles[j])\n",
        "                ax.set_title(titles[j])\n            fig.colorbar(image, ax=ax)\n"), (
        "    fig.colorbar(image, ax=axes, shrink=0.6)\n", ""))),
    Wrong("show_heatmaps", "heatmaps_shows", edit(reference_cell("show_heatmaps"), (
        "    return fig", "    plt.show()\n    return fig"))),
    Wrong("show_heatmaps", "heatmaps_squeezed", edit(reference_cell("show_heatmaps"), (
        ", squeeze=False", ""), (
        "axes[i, j]", "axes[i][j]  # one Axes for a 1 x 1 grid, a 1-D array for one row or column"))),
    Wrong("show_heatmaps", "heatmaps_hard_coded", '''\
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
def softmax(x, axis=-1):
    return np.array([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                     [6.0337e-06, 9.8201e-01, 1.7986e-02],
                     [2.9539e-04, 8.8054e-01, 1.1917e-01]], dtype=np.float32)
'''),
    Wrong("softmax", "softmax_ignores_axis", edit(reference_cell("softmax"), (
        "np.max(x, axis=axis", "np.max(x, axis=-1"), ("np.sum(e, axis=axis", "np.sum(e, axis=-1"))),
    Wrong("softmax", "softmax_in_place", edit(reference_cell("softmax"), (
        "shifted = x - np.max", "x -= np.max"), ("np.exp(shifted)", "np.exp(x)"))),
    Wrong("qkv", "qkv_wrong_order", edit(reference_cell("qkv"), (
        "return queries, keys, values", "return keys, queries, values"))),
    Wrong("qkv", "qkv_hard_coded", '''\
def qkv(x, w_query, w_key, w_value):
    """Queries, keys, values."""
    queries = np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]])
    keys = np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]])
    values = np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]])
    return queries, keys, values
''', demo=True),
    Wrong("qkv", "qkv_hard_coded_float32", '''\
def qkv(x, w_query, w_key, w_value):
    return (np.array([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]], dtype=np.float32),
            np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]], dtype=np.float32),
            np.array([[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]], dtype=np.float32))
'''),
    Wrong("scaled_scores", "scores_dot_T", edit(reference_cell("scaled_scores"), (
        "np.swapaxes(K, -2, -1)", "K.T"))),
    Wrong("scaled_scores", "scores_hard_coded", '''\
def scaled_scores(Q, K, d_k=None):
    scores = np.array([[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]], dtype=np.float32)
    return scores / np.sqrt(3.0 if d_k is None else d_k)
'''),
    Wrong("attention", "attention_dot_T", edit(ATTENTION, ("np.swapaxes(K, -2, -1)", "K.T"))),
    Wrong("attention", "attention_hard_coded", '''\
def attention(Q, K, V, d_k=None):
    if d_k == 1:
        return np.array([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]],
                        dtype=np.float32)
    return np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]],
                    dtype=np.float32)
'''),
    # ---- 04_causal_self_attention ----
    Wrong("causal_average_loop", "loop_hard_coded", "def causal_average_loop(x):\n" + RUNNING_MEANS),
    Wrong("causal_average_loop", "loop_excludes_current", edit(reference_cell("causal_average_loop"), (
        "x[b, :t + 1].mean(dim=0)  # (C,)", "x[b, :t].mean(dim=0)  # nan at t = 0"))),
    Wrong("causal_average_weights", "weights_hard_coded", edit(reference_cell("causal_average_weights"), (
        "torch.ones(T, T)", "torch.ones(8, 8)"))),
    Wrong("causal_average_weights", "weights_no_tril", edit(reference_cell("causal_average_weights"), (
        "torch.tril(torch.ones(T, T))", "torch.ones(T, T)"))),
    Wrong("causal_average_matmul", "matmul_hard_coded", "def causal_average_matmul(x):\n" + RUNNING_MEANS),
    Wrong("causal_average_matmul", "matmul_sums", '''\
def causal_average_matmul(x):
    return torch.tril(torch.ones(x.shape[1], x.shape[1])) @ x  # running sums, not means
'''),
    Wrong("causal_mask", "mask_in_place", edit(reference_cell("causal_mask"), (
        'scores.masked_fill(~keep, float("-inf"))',
        'scores.masked_fill_(~keep, float("-inf"))  # right values, but the caller\'s scores overwritten'))),
    Wrong("causal_mask", "mask_matrix_only", edit(reference_cell("causal_mask"), (
        "L, S = scores.shape[-2:]", "L, S = scores.shape  # right on one matrix, fails on a batch"))),
    Wrong("causal_mask", "mask_bottom_right", edit(reference_cell("causal_mask"), (".tril()", ".tril(S - L)"))),
    Wrong("causal_mask", "mask_hard_coded", '''\
def causal_mask(scores):
    return torch.zeros(8, 8).masked_fill(~torch.ones(8, 8).tril().bool(), float("-inf"))
'''),
    Wrong("causal_average_softmax", "softmax_hard_coded", "def causal_average_softmax(x):\n" + RUNNING_MEANS),
    Wrong("scaled_dot_product_attention", "sdpa_hard_coded", '''\
def scaled_dot_product_attention(q, k, v, causal=True):
    return torch.tensor([[1.0, 2.0, 3.0], [1.9990, 7.9941, 0.0029], [1.9926, 7.4796, 0.7359]])
'''),
    Wrong("Head", "head_dropout_always", edit(HEAD, (
        "self.dropout(F.softmax(scores, dim=-1))  # (B, T, T)",
        "F.dropout(F.softmax(scores, dim=-1), self.dropout.p, training=True)  # in eval mode too"))),
    Wrong("Head", "HeadWithBias", edit(HEAD, *((f"self.{name} = nn.Linear(embed_dim, head_size, bias=False)",
                                               f"self.{name} = nn.Linear(embed_dim, head_size)")
                                              for name in ("key", "query", "value")))),
    # ---- 05_multi_head_attention ----
    Wrong("MultiHeadAttention", "PaddingMaskInverted", edit(MULTI_HEAD, (
        "masked |= key_padding_mask[:, None, None, :]",
        "masked |= ~key_padding_mask[:, None, None, :]  # read as True = keep"))),
    Wrong("MultiHeadAttention", "IgnoresPaddingMask", edit(MULTI_HEAD, (
        "        if key_padding_mask is not None:\n            masked |= key_padding_mask[:, None, None, :]\n", ""))),
    Wrong("MultiHeadAttention", "DropoutInEvalMode", edit(MULTI_HEAD, ("training=self.training", "training=True"))),
    Wrong("MultiHeadAttention", "OneBigHead", edit(MULTI_HEAD, (
        "= num_heads, causal, dropout", "= 1, causal, dropout  # never splits: right only when num_heads is 1"))),
    Wrong("MultiHeadAttention", "SeparateProjections", '''\
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
    Wrong("MultiHeadAttention", "ReturnsTupleLikePyTorch", edit(MULTI_HEAD, (
        "reshape(B, T, E))", "reshape(B, T, E)), None  # as nn.MultiheadAttention returns (output, weights)"))),
)

# Every wrong answer: the catalogue's, then the unnamed ones.
WRONG_ANSWERS = (*(Mistake(m.key, w) for m in CATALOGUE for w in BY_MISCONCEPTION[m.key]),
                 *(Mistake(None, w) for w in UNNAMED))
# The demo class's, in the order grader/demo/roster.py hands them out.
MISTAKES = tuple(m for m in WRONG_ANSWERS if m.wrong.demo)
