"""Reference solutions for 02_self_attention_step_by_step."""
import matplotlib.pyplot as plt
import numpy as np
import torch


def attention_weights(scores):
    """Softmax of each row: (..., n, m) -> (..., n, m), every row sums to 1."""
    return torch.softmax(scores, dim=-1)


def weighted_values(weights, values):
    """Every value scaled by its weight: (..., n, m) and (..., m, d) -> (..., n, m, d)."""
    return weights.unsqueeze(-1) * values.unsqueeze(-3)  # (..., n, m, 1) * (..., 1, m, d)


def sum_weighted_values(weighted):
    """One output per query, the sum over the keys: (..., n, m, d) -> (..., n, d)."""
    return weighted.sum(dim=-2)


def self_attention(x, w_query, w_key, w_value):
    """Unscaled self-attention, steps 1-7: (..., n, d_in) -> (..., n, d_v)."""
    queries = x @ w_query  # (..., n, d_k)
    keys = x @ w_key  # (..., n, d_k)
    values = x @ w_value  # (..., n, d_v)
    scores = queries @ keys.transpose(-2, -1)  # (..., n, n)
    weights = attention_weights(scores)  # (..., n, n)
    return sum_weighted_values(weighted_values(weights, values))  # (..., n, d_v)


def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """A grid of heatmaps from (display rows, display columns, queries, keys); returns the figure."""
    if isinstance(matrices, torch.Tensor):
        matrices = matrices.detach().cpu().numpy()
    matrices = np.asarray(matrices)
    num_rows, num_cols = matrices.shape[:2]
    vmin, vmax = matrices.min(), matrices.max()  # one colour scale, so that one colour bar fits every plot
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, sharex=True, sharey=True, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            ax = axes[i, j]
            image = ax.imshow(matrices[i, j], cmap=cmap, vmin=vmin, vmax=vmax)
            if i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
    fig.colorbar(image, ax=axes, shrink=0.6)
    return fig
