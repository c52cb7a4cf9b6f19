"""The misconception catalogue's wrong answers: for each mistake (its words are in
``grader/checks/misconceptions.py``), answers that make it. Instructor only, as all of ``grader/hidden/`` is.

A wrong answer is the code of its answer cell, most often the instructor's own cell with the lines that make the
mistake changed (``grader/hidden/edits.py``). It calls no other exercise and runs on its own, so that the same
text is a demo student's answer (``grader/demo/mistakes.py``), a test's and the hidden checks' way to recognise
the mistake (``grader/hidden/catalogue.py``).
"""
import functools
from dataclasses import dataclass

from .edits import edit, reference_cell, with_imports


@dataclass(frozen=True)
class Wrong:
    """A wrong answer to ``exercise``, as its answer cell's code (imports left to :attr:`source`); ``name`` tells it
    from the exercise's other wrong answers, ``demo`` hands it out in the demo class (in the catalogue's order)."""
    exercise: str
    name: str
    code: str
    demo: bool = False

    @property
    def source(self):
        """The answer cell as it runs on its own: the imports its code uses, then the code."""
        return with_imports(self.code)

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


# The bases of families of wrong answers. Reference cells that call another exercise, with the call written out
# (a wrong answer runs on its own); MASK is causal_mask(scores) written out.
SELF_ATTENTION = edit(reference_cell("self_attention"), ("attention_weights(scores)", "torch.softmax(scores, dim=-1)"))
ATTENTION = edit(reference_cell("attention"), (
    "weights = softmax(scaled_scores(Q, K, d_k), axis=-1)",
    "d_k = K.shape[-1] if d_k is None else d_k\n"
    "    scores = Q @ np.swapaxes(K, -2, -1) / np.sqrt(d_k)\n"
    "    e = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
    "    weights = e / e.sum(axis=-1, keepdims=True)"))
MASK = ('keep = torch.ones(*scores.shape[-2:]).tril().bool()  # True = may look\n'
        '        scores = scores.masked_fill(~keep, float("-inf"))')
SDPA = edit(reference_cell("scaled_dot_product_attention"), ("scores = causal_mask(scores)", MASK))
HEAD = edit(reference_cell("Head"), ("F.softmax(causal_mask(scores), dim=-1)", "F.softmax(scores, dim=-1)"),
            ("        weights = self.dropout", f"        {MASK}\n        weights = self.dropout"))
# A base of its own, not the reference cell: both masks are one boolean tensor, as the hidden checks' variants
# apply them (grader/hidden/multi_head.py), so that each wrong way to mask is one changed line; and its weights are
# drawn with torch.randn: xavier_uniform_ would change the random numbers that DropoutInEvalMode's dropout draws.
MULTI_HEAD = '''\
class MultiHeadAttention(nn.Module):
    """Multi-head self-attention, with parameters named as torch.nn.MultiheadAttention's."""

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
        return self.out_proj((att @ v).transpose(1, 2).reshape(B, T, E))
'''

# Each misconception's key, in the catalogue's order: the wrong answers that make it, at least one.
BY_MISCONCEPTION = {
    "scores_no_transpose": (
        Wrong("attention_scores", "scores_no_transpose", edit(reference_cell("attention_scores"), (
            "keys.transpose(-2, -1)  # (..., n, d) @ (..., d, m) -> (..., n, m)", "keys")), demo=True),
        Wrong("scaled_scores", "scores_no_transpose", edit(reference_cell("scaled_scores"), (
            "np.swapaxes(K, -2, -1)", "K")), demo=True),
        Wrong("scaled_scores", "scores_no_transpose_not_scaled", edit(reference_cell("scaled_scores"), (
            "np.swapaxes(K, -2, -1) / np.sqrt(d_k)", "K"))),
        Wrong("query_scores", "query_no_transpose", edit(reference_cell("query_scores"), (
            "(keys @ query.unsqueeze(-1)).squeeze(-1)  # (..., n, d) @ (..., d, 1) -> (..., n)", "query @ keys"))),
        Wrong("self_attention", "attention_no_transpose", edit(SELF_ATTENTION, ("keys.transpose(-2, -1)", "keys")))),
    "softmax_dim0": (
        Wrong("softmax_scores", "softmax_dim0", edit(reference_cell("softmax_scores"), ("dim=-1", "dim=0")),
              demo=True),
        Wrong("attention_weights", "weights_dim0", edit(reference_cell("attention_weights"), ("dim=-1", "dim=0")),
              demo=True),
        Wrong("attention_weights", "weights_dim1", edit(reference_cell("attention_weights"), (
            "dim=-1)", "dim=1)  # right on one matrix; on a batch, dimension 1 is the queries"))),
        Wrong("causal_average_weights", "weights_columns", edit(reference_cell("causal_average_weights"), (
            "dim=1", "dim=0"))),
        Wrong("causal_average_matmul", "matmul_columns", '''\
def causal_average_matmul(x):
    T = x.shape[1]
    tril = torch.tril(torch.ones(T, T))
    return tril / tril.sum(dim=0, keepdim=True) @ x
'''),
        Wrong("causal_average_softmax", "softmax_dim0", '''\
def causal_average_softmax(x):
    T = x.shape[1]
    keep = torch.ones(T, T).tril().bool()
    return F.softmax(torch.zeros(T, T).masked_fill(~keep, float("-inf")), dim=0) @ x
'''),
        Wrong("scaled_dot_product_attention", "sdpa_softmax_dim0", edit(SDPA, ("dim=-1", "dim=-2"))),
        Wrong("Head", "head_softmax_dim1", edit(HEAD, ("dim=-1", "dim=1"))),
        Wrong("softmax", "softmax_over_columns", edit(reference_cell("softmax"), (
            "np.max(x, axis=axis", "np.max(x, axis=0"), ("np.sum(e, axis=axis", "np.sum(e, axis=0"))),
        Wrong("attention", "attention_softmax_over_columns", edit(ATTENTION, (
            "scores.max(axis=-1", "scores.max(axis=0"), ("e.sum(axis=-1", "e.sum(axis=0")))),
    "softmax_implicit_dim": (
        Wrong("attention_weights", "weights_no_dim", edit(reference_cell("attention_weights"), (
            "torch.softmax(scores, dim=-1)", "F.softmax(scores)")), demo=True),
        Wrong("softmax_scores", "softmax_implicit_dim", edit(reference_cell("softmax_scores"), (", dim=-1", "")),
              demo=True),
        Wrong("context_vector", "context_implicit_dim", edit(reference_cell("context_vector"), (
            "F.softmax(scores, dim=-1)  # (..., n)", "F.softmax(scores)  # dim 0 for 3-D scores"))),
        Wrong("self_attention", "attention_no_dim", edit(SELF_ATTENTION, ("torch.softmax(scores, dim=-1)",
                                                                           "F.softmax(scores)"))),
        Wrong("scaled_dot_product_attention", "sdpa_softmax_no_dim", edit(SDPA, (
            ", dim=-1) @ v  # (..., L, d_v)", ") @ v  # right on one matrix, wrong on a batch")))),
    "context_scaled_columns": (
        Wrong("context_vector", "context_scaled_columns", edit(reference_cell("context_vector"), (
            "(weights.unsqueeze(-2) @ hidden_states).squeeze(-2)  # (..., 1, n) @ (..., n, d) -> (..., d)",
            "(weights * hidden_states).sum(dim=-1)")), demo=True),),
    "sum_over_features": (
        Wrong("sum_weighted_values", "sum_features", edit(reference_cell("sum_weighted_values"), (
            "dim=-2", "dim=-1")), demo=True),
        Wrong("self_attention", "attention_sum_features", edit(SELF_ATTENTION, (
            "return torch.softmax(scores, dim=-1) @ values  # (..., n, d_v)",
            "weights = torch.softmax(scores, dim=-1)  # (..., n, n)\n"
            "    return (weights.unsqueeze(-1) * values.unsqueeze(-3)).sum(dim=-1)  # (..., n, n)"))),
        Wrong("attention", "attention_sum_over_features", edit(ATTENTION, (
            "return weights @ V",
            "weighted = weights[..., :, :, None] * V[..., None, :, :]  # (..., n, m, d_v)\n"
            "    return weighted.sum(axis=-1)  # the source's final step: each summed over its features")))),
    "scaling_wrong": (
        Wrong("scaled_scores", "scores_divided_by_d_k", edit(reference_cell("scaled_scores"), (
            "np.sqrt(d_k)", "d_k")), demo=True),
        Wrong("scaled_scores", "scores_not_scaled", edit(reference_cell("scaled_scores"), (" / np.sqrt(d_k)", ""))),
        Wrong("attention", "attention_divided_by_d_k", edit(ATTENTION, ("np.sqrt(d_k)", "d_k"))),
        Wrong("attention", "attention_not_scaled", edit(ATTENTION, (" / np.sqrt(d_k)", ""))),
        Wrong("scaled_dot_product_attention", "sdpa_unscaled", edit(SDPA, (" * q.size(-1) ** -0.5", "")),
              demo=True),
        Wrong("scaled_dot_product_attention", "sdpa_divide_by_d", edit(SDPA, (
            "q.size(-1) ** -0.5", "(1.0 / q.size(-1))"))),
        Wrong("Head", "head_divided_by_head_size", edit(HEAD, ("* k.size(-1) ** -0.5", "/ k.size(-1)")), demo=True),
        Wrong("Head", "head_unscaled", edit(HEAD, (" * k.size(-1) ** -0.5", ""))),
        Wrong("Head", "head_scaled_by_embed_dim", edit(HEAD, ("k.size(-1) ** -0.5", "query.size(-1) ** -0.5"))),
        Wrong("MultiHeadAttention", "DividesByHeadSize", edit(MULTI_HEAD, ("/ hs ** 0.5", "/ hs"))),
        Wrong("MultiHeadAttention", "NotScaled", edit(MULTI_HEAD, (" / hs ** 0.5", ""))),
        Wrong("MultiHeadAttention", "ScaledByEmbedDim", edit(MULTI_HEAD, ("/ hs ** 0.5", "/ E ** 0.5")))),
    "masking_wrong": (
        Wrong("causal_mask", "mask_with_zero", edit(reference_cell("causal_mask"), ('float("-inf")', "0.0")),
              demo=True),
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
def scaled_dot_product_attention(q, k, v, causal=True):
    weights = F.softmax(q @ k.transpose(-2, -1) * q.shape[-1] ** -0.5, dim=-1)
    if causal:
        weights = weights * torch.ones(*weights.shape[-2:]).tril().bool()
    return weights @ v
'''),
        Wrong("scaled_dot_product_attention", "sdpa_zero_mask", edit(SDPA, ('float("-inf")', "0.0"))),
        Wrong("scaled_dot_product_attention", "sdpa_never_masks", edit(SDPA, (
            f"    if causal:\n        {MASK}\n", ""))),
        Wrong("causal_average_softmax", "softmax_zero_mask", '''\
def causal_average_softmax(x):
    T = x.shape[1]
    keep = torch.ones(T, T).tril().bool()
    return F.softmax(torch.zeros(T, T).masked_fill(~keep, 0.0), dim=-1) @ x
'''),
        Wrong("causal_average_softmax", "softmax_mask_after", '''\
def causal_average_softmax(x):
    T = x.shape[1]
    return (F.softmax(torch.zeros(T, T), dim=-1) * torch.tril(torch.ones(T, T))) @ x
'''),
        Wrong("Head", "head_zero_mask", edit(HEAD, ('float("-inf")', "0.0"))),
        Wrong("Head", "head_never_masks", edit(HEAD, (f"        {MASK}\n", ""))),
        Wrong("MultiHeadAttention", "MasksWithZero", edit(MULTI_HEAD, ('masked, float("-inf")', "masked, 0.0"))),
        Wrong("MultiHeadAttention", "MasksAfterSoftmax", edit(MULTI_HEAD, (
            'att.masked_fill(masked, float("-inf")).softmax(-1)', "att.softmax(-1).masked_fill(masked, 0.0)")))),
    "softmax_unstable": (
        Wrong("softmax", "softmax_unstable", edit(reference_cell("softmax"), (
            "    shifted = x - np.max(x, axis=axis, keepdims=True)  # every exponent <= 0: exp cannot overflow\n"
            "    e = np.exp(shifted)", "    e = np.exp(x)")), demo=True),
        Wrong("softmax_scores", "softmax_unstable", edit(reference_cell("softmax_scores"), (
            "F.softmax(scores, dim=-1)", "scores.exp() / scores.exp().sum(dim=-1, keepdim=True)"))),
        Wrong("context_vector", "context_unstable", edit(reference_cell("context_vector"), (
            "F.softmax(scores, dim=-1)", "scores.exp() / scores.exp().sum(dim=-1, keepdim=True)"))),
        Wrong("attention_weights", "weights_unstable", edit(reference_cell("attention_weights"), (
            "return torch.softmax(scores, dim=-1)",
            "e = torch.exp(scores)  # inf / inf = nan for scores in the hundreds\n"
            "    return e / e.sum(-1, keepdim=True)"))),
        Wrong("self_attention", "attention_unstable", edit(SELF_ATTENTION, (
            "return torch.softmax(scores, dim=-1) @ values",
            "e = torch.exp(scores)  # overflows once the unscaled scores reach the hundreds\n"
            "    return e / e.sum(-1, keepdim=True) @ values"))),
        Wrong("attention", "attention_unstable", edit(ATTENTION, (
            "np.exp(scores - scores.max(axis=-1, keepdims=True))", "np.exp(scores)"))),
        Wrong("scaled_dot_product_attention", "sdpa_unstable", edit(SDPA, (
            "return F.softmax(scores, dim=-1) @ v", "e = scores.exp()\n    return e / e.sum(-1, keepdim=True) @ v"))),
        Wrong("Head", "head_unstable", edit(HEAD, (
            "weights = self.dropout(F.softmax(scores, dim=-1))",
            "e = scores.exp()\n        weights = self.dropout(e / e.sum(-1, keepdim=True))"))),
        Wrong("MultiHeadAttention", "UnstableSoftmax", edit(MULTI_HEAD, (
            'att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p',
            'e = att.masked_fill(masked, float("-inf")).exp()\n'
            "        att = F.dropout(e / e.sum(-1, keepdim=True), self.p")))),
}
