"""Plausible wrong answers for 04_causal_self_attention, with the misconception each should be told."""
import torch
import torch.nn as nn
from torch.nn import functional as F

# What a student who hard-codes the notebook's numbers would return.
_SEED_X = torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42))
_SEED_MEANS = torch.cumsum(_SEED_X, dim=1) / torch.arange(1, 9).reshape(1, 8, 1)
_FIXTURE_CAUSAL = torch.tensor([[1.0, 2.0, 3.0], [1.9990, 7.9941, 0.0029], [1.9926, 7.4796, 0.7359]])


def _tril(L, S):
    return torch.ones(L, S).tril().bool()


# ---- causal_average_loop ----

def loop_hard_coded(x):
    return _SEED_MEANS.clone()


def loop_excludes_current(x):
    out = torch.zeros_like(x)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            out[b, t] = x[b, :t].mean(dim=0)  # nan at t = 0
    return out


# ---- causal_average_weights ----

def weights_columns(T):
    tril = torch.tril(torch.ones(T, T))
    return tril / tril.sum(dim=0, keepdim=True)


def weights_hard_coded(T):
    tril = torch.tril(torch.ones(8, 8))
    return tril / tril.sum(dim=1, keepdim=True)


def weights_no_tril(T):
    return torch.ones(T, T) / T


# ---- causal_average_matmul ----

def matmul_columns(x):
    return weights_columns(x.shape[1]) @ x


def matmul_hard_coded(x):
    return _SEED_MEANS.clone()


def matmul_sums(x):
    return torch.tril(torch.ones(x.shape[1], x.shape[1])) @ x  # running sums, not means


# ---- causal_mask ----

def mask_with_zero(scores):
    L, S = scores.shape[-2:]
    return scores.masked_fill(~_tril(L, S), 0.0)


def mask_in_place(scores):
    L, S = scores.shape[-2:]
    return scores.masked_fill_(~_tril(L, S), float("-inf"))


def mask_matrix_only(scores):
    L, S = scores.shape  # fails on a batch
    return scores.masked_fill(~_tril(L, S), float("-inf"))


def mask_bottom_right(scores):
    L, S = scores.shape[-2:]
    keep = torch.ones(L, S).tril(S - L).bool()
    return scores.masked_fill(~keep, float("-inf"))


def mask_hard_coded(scores):
    return torch.zeros(8, 8).masked_fill(~_tril(8, 8), float("-inf"))


# ---- causal_average_softmax ----

def softmax_zero_mask(x):
    T = x.shape[1]
    return F.softmax(torch.zeros(T, T).masked_fill(~_tril(T, T), 0.0), dim=-1) @ x


def softmax_mask_after(x):
    T = x.shape[1]
    return (F.softmax(torch.zeros(T, T), dim=-1) * torch.tril(torch.ones(T, T))) @ x


def softmax_dim0(x):
    T = x.shape[1]
    return F.softmax(torch.zeros(T, T).masked_fill(~_tril(T, T), float("-inf")), dim=0) @ x


def softmax_hard_coded(x):
    return _SEED_MEANS.clone()


# ---- scaled_dot_product_attention ----

def _sdpa(q, k, v, causal=True, scale=None, fill=float("-inf"), after=False, dim=-1):
    scores = q @ k.transpose(-2, -1) * (q.shape[-1] ** -0.5 if scale is None else scale)
    keep = _tril(*scores.shape[-2:])
    if causal and not after:
        scores = scores.masked_fill(~keep, fill)
    weights = F.softmax(scores, dim=dim) if dim is not None else F.softmax(scores)
    if causal and after:
        weights = weights * keep
    return weights @ v


def sdpa_divide_by_d(q, k, v, causal=True):
    return _sdpa(q, k, v, causal, scale=1.0 / q.shape[-1])


def sdpa_unscaled(q, k, v, causal=True):
    return _sdpa(q, k, v, causal, scale=1.0)


def sdpa_zero_mask(q, k, v, causal=True):
    return _sdpa(q, k, v, causal, fill=0.0)


def sdpa_mask_after(q, k, v, causal=True):
    return _sdpa(q, k, v, causal, after=True)


def sdpa_never_masks(q, k, v, causal=True):
    return _sdpa(q, k, v, False)


def sdpa_softmax_dim0(q, k, v, causal=True):
    return _sdpa(q, k, v, causal, dim=-2)


def sdpa_softmax_no_dim(q, k, v, causal=True):
    return _sdpa(q, k, v, causal, dim=None)  # right on one matrix, wrong on a batch


def sdpa_hard_coded(q, k, v, causal=True):
    return _FIXTURE_CAUSAL.clone()


def sdpa_unstable(q, k, v, causal=True):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if causal:
        scores = scores.masked_fill(~_tril(*scores.shape[-2:]), float("-inf"))
    return _unstable_softmax(scores) @ v


# ---- Head ----

def _unstable_softmax(scores, dim=-1):
    e = scores.exp()
    return e / e.sum(dim, keepdim=True)


def _head(scale="head", fill=float("-inf"), mask=True, dim=-1, always_dropout=False, unstable=False):
    class WrongHead(nn.Module):
        def __init__(self, embed_dim, head_size, dropout=0.0):
            super().__init__()
            self.key = nn.Linear(embed_dim, head_size, bias=False)
            self.query = nn.Linear(embed_dim, head_size, bias=False)
            self.value = nn.Linear(embed_dim, head_size, bias=False)
            self.p, self.embed_dim, self.head_size = dropout, embed_dim, head_size

        def forward(self, query, key, value):
            q, k, v = self.query(query), self.key(key), self.value(value)
            factor = {"head": self.head_size ** -0.5, "none": 1.0, "divide": 1.0 / self.head_size,
                      "embed": self.embed_dim ** -0.5}[scale]
            scores = q @ k.transpose(-2, -1) * factor
            if mask:
                scores = scores.masked_fill(~_tril(*scores.shape[-2:]), fill)
            weights = (_unstable_softmax if unstable else F.softmax)(scores, dim=dim)
            weights = F.dropout(weights, self.p, training=always_dropout or self.training)
            return weights @ v
    WrongHead.__name__ = WrongHead.__qualname__ = (
        f"Head_scale_{scale}_fill_{fill}_mask_{mask}_dim_{dim}_dropout_{'always' if always_dropout else 'train'}"
        f"{'_unstable' if unstable else ''}")
    return WrongHead


class HeadWithBias(nn.Module):
    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size)
        self.query = nn.Linear(embed_dim, head_size)
        self.value = nn.Linear(embed_dim, head_size)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)
        scores = (q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5).masked_fill(
            ~_tril(query.shape[1], key.shape[1]), float("-inf"))
        return self.dropout(F.softmax(scores, dim=-1)) @ v


WRONG = [
    ("causal_average_loop", None, loop_hard_coded),
    ("causal_average_loop", None, loop_excludes_current),
    ("causal_average_weights", "softmax_dim0", weights_columns),
    ("causal_average_weights", None, weights_hard_coded),
    ("causal_average_weights", None, weights_no_tril),
    ("causal_average_matmul", "softmax_dim0", matmul_columns),
    ("causal_average_matmul", None, matmul_hard_coded),
    ("causal_average_matmul", None, matmul_sums),
    ("causal_mask", "masking_wrong", mask_with_zero),
    ("causal_mask", None, mask_in_place),  # loses only the "new tensor" point
    ("causal_mask", None, mask_matrix_only),  # right on one matrix, wrong on a batch
    ("causal_mask", None, mask_bottom_right),
    ("causal_mask", None, mask_hard_coded),
    ("causal_average_softmax", "masking_wrong", softmax_zero_mask),
    ("causal_average_softmax", "masking_wrong", softmax_mask_after),
    ("causal_average_softmax", "softmax_dim0", softmax_dim0),
    ("causal_average_softmax", None, softmax_hard_coded),
    ("scaled_dot_product_attention", "scaling_wrong", sdpa_divide_by_d),
    ("scaled_dot_product_attention", "scaling_wrong", sdpa_unscaled),
    ("scaled_dot_product_attention", "masking_wrong", sdpa_zero_mask),
    ("scaled_dot_product_attention", "masking_wrong", sdpa_mask_after),
    ("scaled_dot_product_attention", "masking_wrong", sdpa_never_masks),
    ("scaled_dot_product_attention", "softmax_dim0", sdpa_softmax_dim0),
    ("scaled_dot_product_attention", "softmax_implicit_dim", sdpa_softmax_no_dim),  # partial credit
    ("scaled_dot_product_attention", None, sdpa_hard_coded),
    ("Head", "scaling_wrong", _head(scale="none")),
    ("Head", "scaling_wrong", _head(scale="divide")),
    ("Head", "scaling_wrong", _head(scale="embed")),
    ("Head", "masking_wrong", _head(fill=0.0)),
    ("Head", "masking_wrong", _head(mask=False)),
    ("Head", "softmax_dim0", _head(dim=1)),
    ("Head", None, _head(always_dropout=True)),  # loses only the dropout point
    ("Head", None, HeadWithBias),
    ("Head", "softmax_unstable", _head(unstable=True)),
    ("scaled_dot_product_attention", "softmax_unstable", sdpa_unstable),
]
