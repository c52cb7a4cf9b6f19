"""Plausible wrong answers for 02_self_attention_step_by_step, with the misconception each should get."""
import matplotlib.pyplot as plt
import numpy as np
import torch
from torch.nn.functional import softmax

_FIXTURE_SOFTMAX = [[6.3379e-02, 4.6831e-01, 4.6831e-01],
                    [6.0337e-06, 9.8201e-01, 1.7986e-02],
                    [2.9539e-04, 8.8054e-01, 1.1917e-01]]
_FIXTURE_OUTPUT = [[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]]


# attention_weights

def weights_dim0(scores):
    return torch.softmax(scores, dim=0)


def weights_dim1(scores):
    """Right on one matrix; on a batch, dimension 1 is the queries."""
    return torch.softmax(scores, dim=1)


def weights_no_dim(scores):
    """The source's call: PyTorch picks the dimension (with a warning), wrong on a 3-D batch."""
    return softmax(scores)


def weights_unstable(scores):
    """exp without subtracting the maximum: inf / inf = nan for scores in the hundreds."""
    e = torch.exp(scores)
    return e / e.sum(-1, keepdim=True)


def weights_hard_coded(scores):
    return torch.tensor(_FIXTURE_SOFTMAX)


# weighted_values

def weighted_transposed(weights, values):
    """Seed 000's layout: [key, query, feature]."""
    return values[:, None] * weights.T[:, :, None]


def weighted_seed004(weights, values):
    """Seed 004's line: right on one matrix, wrong on a batch."""
    return values * weights.unsqueeze(-1)


def weighted_hard_coded(weights, values):
    return torch.tensor([[[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]]] * 3)


def weighted_matrix_product(weights, values):
    """Already sums over the keys: the wrong shape."""
    return weights @ values


# sum_weighted_values

def sum_features(weighted):
    return weighted.sum(dim=-1)


def sum_dim0(weighted):
    """Seed 000's sum, meant for its transposed layout."""
    return weighted.sum(dim=0)


def sum_dim1(weighted):
    """Right on one query-key-feature array, wrong on a batch."""
    return weighted.sum(dim=1)


def sum_hard_coded(weighted):
    return torch.tensor(_FIXTURE_OUTPUT)


# self_attention

def attention_no_transpose(x, w_query, w_key, w_value):
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return torch.softmax(queries @ keys, dim=-1) @ values


def attention_sum_features(x, w_query, w_key, w_value):
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    weights = torch.softmax(queries @ keys.transpose(-2, -1), dim=-1)
    return (weights.unsqueeze(-1) * values.unsqueeze(-3)).sum(dim=-1)


def attention_no_dim(x, w_query, w_key, w_value):
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return softmax(queries @ keys.transpose(-2, -1)) @ values


def attention_dot_t(x, w_query, w_key, w_value):
    """keys.T reverses every dimension of a batch: right on one sequence only."""
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return torch.softmax(queries @ keys.T, dim=-1) @ values


def attention_scaled(x, w_query, w_key, w_value):
    """Scaled, but this notebook follows the source: unscaled."""
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    return torch.softmax(queries @ keys.transpose(-2, -1) / keys.shape[-1] ** 0.5, dim=-1) @ values


def attention_unstable(x, w_query, w_key, w_value):
    """Right steps, but a softmax that overflows once the unscaled scores reach the hundreds."""
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    e = torch.exp(queries @ keys.transpose(-2, -1))
    return e / e.sum(-1, keepdim=True) @ values


def attention_hard_coded(x, w_query, w_key, w_value):
    return torch.tensor(_FIXTURE_OUTPUT)


# show_heatmaps

def heatmaps_seed(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
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


def _heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds', tensor_only=False,
              every_label=False, bar_each=False, squeeze=False):
    if not tensor_only:
        matrices = np.asarray(matrices)
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, squeeze=squeeze)
    axes = np.asarray(axes).reshape(num_rows, num_cols) if not squeeze else axes
    for i in range(num_rows):
        for j in range(num_cols):
            ax = axes[i][j]
            matrix = matrices[i][j]
            image = ax.imshow(matrix.detach().numpy() if tensor_only else matrix, cmap=cmap)
            if every_label or i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if every_label or j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
            if bar_each:
                fig.colorbar(image, ax=ax)
    if not bar_each:
        fig.colorbar(image, ax=axes)
    return fig


def heatmaps_tensor_only(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """Returns the figure, but `.detach().numpy()` fails on a NumPy array: partial credit."""
    return _heatmaps(matrices, xlabel, ylabel, titles, figsize, cmap, tensor_only=True)


def heatmaps_every_label(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    return _heatmaps(matrices, xlabel, ylabel, titles, figsize, cmap, every_label=True)


def heatmaps_bar_each(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    return _heatmaps(matrices, xlabel, ylabel, titles, figsize, cmap, bar_each=True)


def heatmaps_shows(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    fig = _heatmaps(matrices, xlabel, ylabel, titles, figsize, cmap)
    plt.show()
    return fig


def heatmaps_squeezed(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """plt.subplots without squeeze=False: a 1 x 1 grid gives one Axes, not an array."""
    return _heatmaps(matrices, xlabel, ylabel, titles, figsize, cmap, squeeze=True)


def heatmaps_hard_coded(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    fig, ax = plt.subplots(figsize=figsize)
    image = ax.imshow(np.eye(10), cmap=cmap)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.colorbar(image, ax=ax)
    return fig


WRONG = [
    ("attention_weights", "softmax_dim0", weights_dim0),
    ("attention_weights", "softmax_dim0", weights_dim1),
    ("attention_weights", "softmax_implicit_dim", weights_no_dim),
    ("attention_weights", "softmax_unstable", weights_unstable),
    ("attention_weights", None, weights_hard_coded),
    ("weighted_values", None, weighted_transposed),
    ("weighted_values", None, weighted_seed004),
    ("weighted_values", None, weighted_hard_coded),
    ("weighted_values", None, weighted_matrix_product),
    ("sum_weighted_values", "sum_over_features", sum_features),
    ("sum_weighted_values", None, sum_dim0),
    ("sum_weighted_values", None, sum_dim1),
    ("sum_weighted_values", None, sum_hard_coded),
    ("self_attention", "scores_no_transpose", attention_no_transpose),
    ("self_attention", "sum_over_features", attention_sum_features),
    ("self_attention", "softmax_implicit_dim", attention_no_dim),
    ("self_attention", None, attention_dot_t),
    ("self_attention", None, attention_scaled),
    ("self_attention", "softmax_unstable", attention_unstable),
    ("self_attention", None, attention_hard_coded),
    ("show_heatmaps", None, heatmaps_seed),
    ("show_heatmaps", None, heatmaps_tensor_only),
    ("show_heatmaps", None, heatmaps_every_label),
    ("show_heatmaps", None, heatmaps_bar_each),
    ("show_heatmaps", None, heatmaps_shows),
    ("show_heatmaps", None, heatmaps_squeezed),
    ("show_heatmaps", None, heatmaps_hard_coded),
]
