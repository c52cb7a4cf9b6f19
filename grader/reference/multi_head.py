"""Reference solution for 05_multi_head_attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Self-attention with all heads in one batched product; parameters named as nn.MultiheadAttention's."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        assert embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads"
        self.embed_dim, self.num_heads, self.causal = embed_dim, num_heads, causal
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))  # query, key, value rows
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)
        nn.init.xavier_uniform_(self.in_proj_weight)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        nh, hs = self.num_heads, E // self.num_heads
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)  # (B, T, E) each
        q = q.view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        v = v.view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        att = q @ k.transpose(-2, -1) * hs ** -0.5  # (B, nh, T, T)
        if self.causal:
            future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)  # (T, T)
            att = att.masked_fill(future, float("-inf"))
        if key_padding_mask is not None:
            att = att.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))  # (B, 1, 1, T)
        att = self.dropout(att.softmax(dim=-1))
        y = att @ v  # (B, nh, T, hs)
        y = y.transpose(1, 2).reshape(B, T, E)  # heads side by side again
        return self.out_proj(y)  # (B, T, E)
