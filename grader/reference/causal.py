"""Reference solutions for 04_causal_self_attention."""
import torch
import torch.nn as nn
from torch.nn import functional as F


def causal_average_loop(x):
    """Running mean over the time steps, with loops: (B, T, C) -> (B, T, C)."""
    B, T, C = x.shape
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            out[b, t] = x[b, :t + 1].mean(dim=0)  # (C,)
    return out


def causal_average_weights(T):
    """Lower-triangular (T, T) weights whose rows average over the past."""
    tril = torch.tril(torch.ones(T, T))  # (T, T)
    return tril / tril.sum(dim=1, keepdim=True)


def causal_average_matmul(x):
    """Running mean as one product: (T, T) @ (B, T, C) -> (B, T, C)."""
    return causal_average_weights(x.size(-2)).to(x.dtype) @ x


def causal_mask(scores):
    """Future positions (above the top-left-aligned diagonal) set to -inf: (..., L, S)."""
    L, S = scores.shape[-2:]
    keep = torch.ones(L, S, dtype=torch.bool, device=scores.device).tril()  # (L, S)
    return scores.masked_fill(~keep, float("-inf"))


def causal_average_softmax(x):
    """Running mean as softmax of masked zero scores times x: (B, T, C) -> (B, T, C)."""
    T = x.size(-2)
    weights = F.softmax(causal_mask(torch.zeros(T, T, dtype=x.dtype)), dim=-1)  # (T, T)
    return weights @ x


def scaled_dot_product_attention(q, k, v, causal=True):
    """softmax(q k^T / sqrt(d) [masked]) v: (..., L, d), (..., S, d), (..., S, dv) -> (..., L, dv)."""
    scores = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5  # (..., L, S)
    if causal:
        scores = causal_mask(scores)
    return F.softmax(scores, dim=-1) @ v  # (..., L, dv)


class Head(nn.Module):
    """One head of causal self-attention."""

    def __init__(self, embed_dim, head_size, dropout=0.0):
        super().__init__()
        self.key = nn.Linear(embed_dim, head_size, bias=False)
        self.query = nn.Linear(embed_dim, head_size, bias=False)
        self.value = nn.Linear(embed_dim, head_size, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value):
        q, k, v = self.query(query), self.key(key), self.value(value)  # (B, T, hs)
        scores = q @ k.transpose(-2, -1) * k.size(-1) ** -0.5  # (B, T, T)
        weights = self.dropout(F.softmax(causal_mask(scores), dim=-1))  # (B, T, T)
        return weights @ v  # (B, T, hs)
