"""Plausible wrong MultiHeadAttention classes, each with the misconception it shows."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class _Attention(nn.Module):
    """Multi-head self-attention with switches for the usual mistakes (all off: a right answer)."""
    divide_by = "sqrt_head"    # or "head", "none", "sqrt_embed"
    mask_with = "-inf"         # or "zero", "after"
    padding_keeps = False      # True: reads key_padding_mask as True = keep
    ignore_padding = False
    always_dropout = False
    split_heads = True
    unstable = False           # True: exp(scores) / sum, without subtracting the max

    def __init__(self, embed_dim, num_heads, dropout=0.0, causal=False):
        super().__init__()
        self.embed_dim, self.num_heads, self.causal, self.p = embed_dim, num_heads, causal, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * embed_dim, embed_dim) * embed_dim ** -0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, E = x.shape
        nh = self.num_heads if self.split_heads else 1
        hs = E // nh
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).split(E, dim=-1)
        q, k, v = (t.view(B, T, nh, hs).transpose(1, 2) for t in (q, k, v))
        divisor = {"sqrt_head": hs ** 0.5, "head": hs, "none": 1.0, "sqrt_embed": E ** 0.5}[self.divide_by]
        att = q @ k.transpose(-2, -1) / divisor
        masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
        if self.causal:
            masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
        if key_padding_mask is not None and not self.ignore_padding:
            kpm = ~key_padding_mask if self.padding_keeps else key_padding_mask
            masked |= kpm[:, None, None, :]
        if self.unstable:
            e = att.masked_fill(masked, float("-inf")).exp()
            att = e / e.sum(-1, keepdim=True)
        elif self.mask_with == "after":
            att = att.softmax(-1).masked_fill(masked, 0.0)
        else:
            att = att.masked_fill(masked, float("-inf") if self.mask_with == "-inf" else 0.0).softmax(-1)
        att = F.dropout(att, self.p, training=self.training or self.always_dropout)
        y = (att @ v).transpose(1, 2).reshape(B, T, E)
        return self.out_proj(y)


class DividesByHeadSize(_Attention):
    divide_by = "head"


class NotScaled(_Attention):
    divide_by = "none"


class ScaledByEmbedDim(_Attention):
    divide_by = "sqrt_embed"


class MasksWithZero(_Attention):
    mask_with = "zero"


class MasksAfterSoftmax(_Attention):
    mask_with = "after"


class PaddingMaskInverted(_Attention):
    padding_keeps = True


class IgnoresPaddingMask(_Attention):
    ignore_padding = True


class DropoutInEvalMode(_Attention):
    always_dropout = True


class OneBigHead(_Attention):
    """Never splits into heads: right only when num_heads is 1."""
    split_heads = False


class SeparateProjections(nn.Module):
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


class ReturnsTupleLikePyTorch(_Attention):
    def forward(self, x, key_padding_mask=None):
        return super().forward(x, key_padding_mask), None


class UnstableSoftmax(_Attention):
    unstable = True


WRONG = [
    ("MultiHeadAttention", "softmax_unstable", UnstableSoftmax),
    ("MultiHeadAttention", "scaling_wrong", DividesByHeadSize),
    ("MultiHeadAttention", "scaling_wrong", NotScaled),
    ("MultiHeadAttention", "scaling_wrong", ScaledByEmbedDim),
    ("MultiHeadAttention", "masking_wrong", MasksWithZero),
    ("MultiHeadAttention", "masking_wrong", MasksAfterSoftmax),
    ("MultiHeadAttention", None, PaddingMaskInverted),
    ("MultiHeadAttention", None, IgnoresPaddingMask),
    ("MultiHeadAttention", None, DropoutInEvalMode),
    ("MultiHeadAttention", None, OneBigHead),
    ("MultiHeadAttention", None, SeparateProjections),
    ("MultiHeadAttention", None, ReturnsTupleLikePyTorch),
]
