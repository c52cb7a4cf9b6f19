"""05 · Multi-head attention (05_multi_head_attention.ipynb): its exercises' checks, written once.

Visible parts first, then what only grading uses: the known outputs, the hidden parts (``hidden=True``, where
each stands in ``PARTS``) and the wrong answers. The student's copy holds the visible parts only
(grader/release/compile.py).
"""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from ..checks.cases import Case, Part
from ..checks.judges import array_of, close, finite, parameters_as_wanted
from ..checks.plain import TensorArg
from ..hidden.edits import edit
from ..hidden.randomised import random_array
from ..hidden.wrong_answers import Wrong, making

NOTEBOOK = "05_multi_head_attention.ipynb"


def torch_names(embed_dim):
    """The state-dict entries of nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)."""
    E = embed_dim
    return {"in_proj_weight": [3 * E, E], "in_proj_bias": [3 * E], "out_proj.weight": [E, E], "out_proj.bias": [E]}


def same_parameters(outcome, embed_dim):
    """The parameters match PyTorch's entry for entry, so that its state dict loads; any buffers are fine."""
    parameters_as_wanted(
        outcome,
        torch_names(embed_dim),
        "MultiHeadAttention: named and shaped as "
        "nn.MultiheadAttention's, so that its state dict loads into your module",
    )


def module_case(label, judge, init, x, state=None, key_padding_mask=None, train=False):
    kwargs = {} if key_padding_mask is None else {"key_padding_mask": TensorArg(key_padding_mask)}
    return Case(
        label,
        judge,
        {"init": init, "state": state, "inputs": (TensorArg(x),), "forward_kwargs": kwargs, "train": train},
        probe="module",
    )


def _shapes():
    x = np.random.default_rng(0).standard_normal((2, 5, 8)).astype(np.float32)

    def judge(outcome):
        same_parameters(outcome, 8)
        array_of(outcome, "Tensor", (2, 5, 8), "floating", "MultiHeadAttention(8, 2)(x) for x of shape (2, 5, 8)")

    return [module_case("embed_dim=8, num_heads=2, x of shape (2, 5, 8)", judge, {"embed_dim": 8, "num_heads": 2}, x)]


def visible_state(E):
    """Weights anyone can check by hand: the projections are scaled identities, the biases small counts."""
    eye = np.eye(E, dtype=np.float32)
    return {
        "in_proj_weight": np.concatenate([eye, 0.5 * eye, 2 * eye]),
        "in_proj_bias": np.arange(3 * E, dtype=np.float32) / (3 * E),
        "out_proj.weight": 0.5 * eye,
        "out_proj.bias": np.ones(E, dtype=np.float32),
    }


def first_output(state, x):
    """Position 0 when it may attend to key 0 only: the output projection of its value."""
    E = x.shape[-1]
    value = x[:, 0] @ state["in_proj_weight"][2 * E :].T + state["in_proj_bias"][2 * E :]
    return value @ state["out_proj.weight"].T + state["out_proj.bias"]


def _attends_to_first_key():
    E, H = 4, 2
    state = visible_state(E)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, E)).astype(np.float32)
    only_first = np.ones((2, 3), dtype=bool)
    only_first[:, 0] = False
    cases = []
    for label, init, inputs, mask, train, large in [
        ("causal=True: position 0 sees only key 0", {"causal": True}, x, None, False, False),
        ("key_padding_mask hiding every key but key 0", {}, x, only_first, False, False),
        ("one token, causal=True", {"causal": True}, x[:, :1], None, False, False),
        ("dropout=0.5 in eval mode, causal=True", {"causal": True, "dropout": 0.5}, x, None, False, False),
        ("dropout=0.0 in training mode, causal=True", {"causal": True, "dropout": 0.0}, x, None, True, False),
        ("large scores: x times 100, causal=True", {"causal": True}, x * 100, None, False, True),
    ]:
        every_row = mask is not None

        def judge(outcome, inputs=inputs, every_row=every_row, large=large, label=label):
            same_parameters(outcome, E)
            what = f"MultiHeadAttention({E}, {H}) with {label}"
            got = array_of(outcome, "Tensor", inputs.shape, "floating", what)
            if large:
                finite(got, what)
            expected = first_output(state, inputs)
            rows = got if every_row else got[:, :1]
            close(
                rows,
                np.broadcast_to(expected[:, None], rows.shape),
                f"{what}: "
                + ("every position sees only key 0" if every_row else "position 0 sees only key 0")
                + ", so its output is out_proj of the value of token 0",
                rtol=1e-4,
                atol=1e-4,
            )

        cases.append(
            module_case(
                label,
                judge,
                {"embed_dim": E, "num_heads": H, **init},
                inputs,
                {k: TensorArg(v) for k, v in state.items()},
                mask,
                train,
            )
        )
    return cases


# Weights that make every head's attention weights readable in the output, worked out by hand. Embedding 8, two
# heads of size 4, three tokens: token t is 1 at place t of each head (x[t, t] = x[t, 4 + t] = 1), and the keys
# and the values are the tokens themselves (identity projections), so each head's output, and with an identity
# out_proj the module's output, lists that head's weights over the keys. Every query is its bias alone: a score
# of ln 4 for key 0 in head 0 and for key 2 in head 1, 0 for the other keys. Divided by sqrt(head size) = 2,
# ln 4 becomes ln 2, so that key gets twice the weight of any other key the query may see.
BY_HAND_E, BY_HAND_H, BY_HAND_T = 8, 2, 3
FAVOURED = ((0, 0), (1, 2))  # (head, key): the key each head's query favours


def by_hand_state():
    """The state dict above: zero query weights and a query bias of ln 4 at each head's favoured key; identity
    key, value and output projections; every other bias 0."""
    E = BY_HAND_E
    eye = np.eye(E, dtype=np.float32)
    query = np.zeros(E, dtype=np.float32)
    for head, key in FAVOURED:
        query[head * (E // BY_HAND_H) + key] = np.log(4.0)
    return {
        "in_proj_weight": np.concatenate([np.zeros_like(eye), eye, eye]),
        "in_proj_bias": np.concatenate([query, np.zeros(2 * E, dtype=np.float32)]),
        "out_proj.weight": eye,
        "out_proj.bias": np.zeros(E, dtype=np.float32),
    }


def by_hand_output(seen, ratio=2.0, masking="-inf"):
    """The output on the tokens above: each head's weights over the keys, side by side, when the favoured key
    gets ``ratio`` times the weight of another. ``seen[b, t, j]`` is True when query t may see key j. ``masking``
    "zero" gives a masked key a score of 0 instead of -inf; "after" sets its weight to 0 after the softmax."""
    B, T, _ = seen.shape
    hs = BY_HAND_E // BY_HAND_H
    share = np.ones((BY_HAND_H, T))  # (H, T): a key's share before the softmax's division, e**(scaled score)
    for head, key in FAVOURED:
        share[head, key] = ratio
    seen = seen[:, :, None, :]  # (B, T, 1, T)
    if masking == "zero":  # a masked score of 0 still counts: a share of 1
        kept = np.where(seen, share, 1.0)
        weights = kept / kept.sum(axis=-1, keepdims=True)
    elif masking == "after":  # the division runs over every key, then the masked weights become 0
        weights = np.where(seen, share / share.sum(axis=-1, keepdims=True), 0.0)
    else:
        kept = np.where(seen, share, 0.0)
        weights = kept / kept.sum(axis=-1, keepdims=True)  # (B, T, H, T)
    padded = np.zeros((B, T, BY_HAND_H, hs))
    padded[..., :T] = weights
    return padded.reshape(B, T, BY_HAND_E)


def _weights_by_hand():
    E, H, T, B = BY_HAND_E, BY_HAND_H, BY_HAND_T, 2
    x = np.zeros((B, T, E), dtype=np.float32)
    steps = np.arange(T)
    x[:, steps, steps] = x[:, steps, E // H + steps] = 1.0  # token t: 1 at place t of each head
    state = {k: TensorArg(v) for k, v in by_hand_state().items()}
    every = np.ones((B, T, T), dtype=bool)
    earlier = np.broadcast_to(np.tril(np.ones((T, T), dtype=bool)), (B, T, T))
    padding = np.zeros((B, T), dtype=bool)
    padding[1, 2] = True  # the second sequence's last token is padding
    cases = []
    for label, init, seen, mask in [
        ("no mask", {}, every, None),
        ("causal=True", {"causal": True}, earlier, None),
        ("key_padding_mask hiding key 2 of the second sequence", {}, every & ~padding[:, None, :], padding),
    ]:
        # Dividing by the head size (4), by nothing, or by sqrt(embed_dim): ln 4 / divisor instead of ln 2.
        mistakes = [
            ("scaling_wrong", by_hand_output(seen, 4.0 ** (1 / divisor))) for divisor in (E // H, 1.0, np.sqrt(E))
        ]
        if init.get("causal") or mask is not None:
            mistakes += [("masking_wrong", by_hand_output(seen, masking=masking)) for masking in ("zero", "after")]

        def judge(outcome, seen=seen, label=label, mistakes=mistakes):
            same_parameters(outcome, E)
            what = (
                f"MultiHeadAttention({E}, {H}) on weights worked out by hand, {label} (each head's output "
                "lists its weights over the keys: the favoured key twice the weight of any other it may see, "
                "a masked key none)"
            )
            got = array_of(outcome, "Tensor", (B, T, E), "floating", what)
            close(got, by_hand_output(seen), what, rtol=1e-4, atol=1e-5, diagnoses=mistakes)

        cases.append(
            module_case(
                f"weights worked out by hand, {label}", judge, {"embed_dim": E, "num_heads": H, **init}, x, state, mask
            )
        )
    return cases


# ---- hidden checks ----
def random_state(rng, E):
    """A random state dict for nn.MultiheadAttention(E, H), with non-zero biases."""
    state = {
        "in_proj_weight": random_array(rng, 3 * E, E, scale=E**-0.5),
        "in_proj_bias": random_array(rng, 3 * E, scale=0.5),
        "out_proj.weight": random_array(rng, E, E, scale=E**-0.5),
        "out_proj.bias": random_array(rng, E, scale=0.5),
    }
    return state


def torch_output(state, x, H, causal=False, key_padding_mask=None):
    """What nn.MultiheadAttention(E, H, batch_first=True) computes with this state dict. A key padding mask goes in
    as part of the attention mask, one for each batch entry and head, as PyTorch merges the two itself (the same
    numbers, to the bit): given as ``key_padding_mask``, PyTorch's check of it imports SymPy, a second of CPU."""
    B, T, E = x.shape
    mha = nn.MultiheadAttention(E, H, batch_first=True)
    mha.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    mha.eval()
    x = torch.from_numpy(x)
    mask = torch.ones(T, T).triu(1).bool() if causal else None
    if key_padding_mask is not None:
        ignored = torch.from_numpy(key_padding_mask)[:, None, None, :]  # (B, 1, 1, T): keys ignored by every query
        mask = (ignored if mask is None else ignored | mask).expand(B, H, T, T).reshape(B * H, T, T)
    with torch.no_grad():
        out, _ = mha(x, x, x, need_weights=False, attn_mask=mask, is_causal=causal and key_padding_mask is None)
    return out.numpy()


def variant(state, x, H, causal=False, key_padding_mask=None, scale="sqrt", masking="-inf"):
    """Multi-head attention with one known mistake: how the scores are scaled, or how masks are applied."""
    s = {k: torch.from_numpy(v).double() for k, v in state.items()}
    x = torch.from_numpy(x).double()
    B, T, E = x.shape
    hs = E // H
    q, k, v = F.linear(x, s["in_proj_weight"], s["in_proj_bias"]).split(E, dim=-1)
    q, k, v = (t.view(B, T, H, hs).transpose(1, 2) for t in (q, k, v))  # (B, H, T, hs)
    divisor = {"sqrt": hs**0.5, "d_k": hs, "none": 1.0, "sqrt_embed": E**0.5}[scale]
    att = q @ k.transpose(-2, -1) / divisor  # (B, H, T, T)
    masked = torch.zeros(B, 1, T, T, dtype=torch.bool)
    if causal:
        masked |= torch.ones(T, T, dtype=torch.bool).triu(1)
    if key_padding_mask is not None:
        masked |= torch.from_numpy(key_padding_mask)[:, None, None, :]
    if masking == "-inf":
        att = att.masked_fill(masked, float("-inf")).softmax(-1)
    elif masking == "zero":
        att = att.masked_fill(masked, 0.0).softmax(-1)
    elif masking == "after":
        att = att.softmax(-1).masked_fill(masked, 0.0)
    y = (att @ v).transpose(1, 2).reshape(B, T, E)
    return F.linear(y, s["out_proj.weight"], s["out_proj.bias"]).float().numpy()


def _mistakes(state, x, H, causal, key_padding_mask):
    wrong = [
        ("scaling_wrong", variant(state, x, H, causal, key_padding_mask, scale=scale))
        for scale in ("d_k", "none", "sqrt_embed")
    ]
    if causal or key_padding_mask is not None:
        wrong += [
            ("masking_wrong", variant(state, x, H, causal, key_padding_mask, masking=masking))
            for masking in ("zero", "after")
        ]
    return [(key, candidate) for key, candidate in wrong if np.all(np.isfinite(candidate))]


def padding_mask(rng, B, T):
    """True = ignore that key; the first key is always kept, so no row is fully masked."""
    mask = rng.random((B, T)) < 0.4
    mask[:, 0] = False
    return mask


def _case(seed, E, H, B, T, causal=False, pad=False, dropout=0.0, train=False):
    rng = np.random.default_rng(seed)
    state = random_state(rng, E)
    x = random_array(rng, B, T, E)
    kpm = padding_mask(rng, B, T) if pad else None
    expected = torch_output(state, x, H, causal, kpm)
    wrong = _mistakes(state, x, H, causal, kpm)
    init = {"embed_dim": E, "num_heads": H, "causal": causal}
    if dropout:
        init["dropout"] = dropout
    label = (
        f"embed_dim={E}, num_heads={H}, x of shape {x.shape}"
        + (", causal" if causal else "")
        + (", key_padding_mask" if pad else "")
        + (f", dropout={dropout}" if dropout else "")
        + (", in training mode" if train else ", in eval mode" if dropout else "")
    )
    what = f"MultiHeadAttention ({label})"

    def judge(outcome):
        same_parameters(outcome, E)
        got = array_of(outcome, "Tensor", x.shape, "floating", what)
        close(got, expected, f"{what} compared with nn.MultiheadAttention on the same weights", diagnoses=wrong)

    return module_case(label, judge, init, x, {k: TensorArg(v) for k, v in state.items()}, kpm, train)


def _plain():
    return [_case(100, 8, 2, 2, 5), _case(101, 12, 3, 1, 4), _case(102, 16, 4, 3, 7), _case(103, 6, 1, 2, 3)]


def _causal():
    return [
        _case(110, 8, 2, 2, 5, causal=True),
        _case(111, 16, 4, 3, 7, causal=True),
        _case(112, 6, 3, 1, 1, causal=True),
    ]


def _padding():
    return [
        _case(120, 8, 2, 3, 5, pad=True),
        _case(121, 12, 3, 2, 6, pad=True),
        _case(122, 8, 4, 3, 6, causal=True, pad=True),
    ]


def _dropout():
    return [_case(130, 8, 2, 2, 5, dropout=0.5), _case(131, 8, 2, 2, 5, causal=True, dropout=0.0, train=True)]


# ---- hidden: wrong answers, as edits of the reference cells (grader/hidden/edits.py) ----
# A base of its own, not the reference cell: both masks are one boolean tensor, as the hidden checks' variants
# apply them (the hidden parts above), so that each wrong way to mask is one changed line; and its weights are
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

WRONG_ANSWERS = (
    *making(
        "scaling_wrong",
        Wrong("MultiHeadAttention", "DividesByHeadSize", edit(MULTI_HEAD, ("/ hs ** 0.5", "/ hs"))),
        Wrong("MultiHeadAttention", "NotScaled", edit(MULTI_HEAD, (" / hs ** 0.5", ""))),
        Wrong("MultiHeadAttention", "ScaledByEmbedDim", edit(MULTI_HEAD, ("/ hs ** 0.5", "/ E ** 0.5"))),
    ),
    *making(
        "masking_wrong",
        Wrong("MultiHeadAttention", "MasksWithZero", edit(MULTI_HEAD, ('masked, float("-inf")', "masked, 0.0"))),
        Wrong(
            "MultiHeadAttention",
            "MasksAfterSoftmax",
            edit(
                MULTI_HEAD,
                ('att.masked_fill(masked, float("-inf")).softmax(-1)', "att.softmax(-1).masked_fill(masked, 0.0)"),
            ),
        ),
    ),
    *making(
        "softmax_unstable",
        Wrong(
            "MultiHeadAttention",
            "UnstableSoftmax",
            edit(
                MULTI_HEAD,
                (
                    'att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p',
                    'e = att.masked_fill(masked, float("-inf")).exp()\n'
                    "        att = F.dropout(e / e.sum(-1, keepdim=True), self.p",
                ),
            ),
        ),
        Wrong(
            "MultiHeadAttention",
            "GlobalMaxSoftmax",
            edit(
                MULTI_HEAD,
                (
                    'att = F.dropout(att.masked_fill(masked, float("-inf")).softmax(-1), self.p',
                    'att = att.masked_fill(masked, float("-inf"))\n'
                    "        e = (att - att.max()).exp()  # one maximum for every batch entry and head\n"
                    "        att = F.dropout(e / e.sum(-1, keepdim=True), self.p",
                ),
            ),
        ),
    ),
    # Mistakes that no misconception of the catalogue names.
    Wrong(
        "MultiHeadAttention",
        "PaddingMaskInverted",
        edit(
            MULTI_HEAD,
            (
                "masked |= key_padding_mask[:, None, None, :]",
                "masked |= ~key_padding_mask[:, None, None, :]  # read as True = keep",
            ),
        ),
    ),
    Wrong(
        "MultiHeadAttention",
        "IgnoresPaddingMask",
        edit(
            MULTI_HEAD,
            (
                "        if key_padding_mask is not None:\n            masked |= key_padding_mask[:, None, None, :]\n",
                "",
            ),
        ),
    ),
    Wrong("MultiHeadAttention", "SplitsKeysFirst", edit(MULTI_HEAD, ("q, k, v = F.linear", "k, q, v = F.linear"))),
    Wrong("MultiHeadAttention", "DropoutInEvalMode", edit(MULTI_HEAD, ("training=self.training", "training=True"))),
    Wrong(
        "MultiHeadAttention",
        "OneBigHead",
        edit(
            MULTI_HEAD,
            ("= num_heads, causal, dropout", "= 1, causal, dropout  # never splits: right only when num_heads is 1"),
        ),
    ),
    Wrong(
        "MultiHeadAttention",
        "SeparateProjections",
        '''\
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
''',
    ),
    Wrong(
        "MultiHeadAttention",
        "ReturnsTupleLikePyTorch",
        edit(
            MULTI_HEAD,
            ("reshape(B, T, E))", "reshape(B, T, E)), None  # as nn.MultiheadAttention returns (output, weights)"),
        ),
    ),
)


PARTS = {
    "MultiHeadAttention": [
        Part(
            "parameters named as nn.MultiheadAttention's; output of shape (B, T, embed_dim); "
            "given weights load; each head's weights on weights worked out by hand, scaled by "
            "1/sqrt(head size); causal and padding masks, dropout modes, large scores",
            1,
            lambda: _shapes() + _weights_by_hand() + _attends_to_first_key(),
            requires={"weights", "shape", "argument", "causal", "mode", "edge", "large"},
        ),
        Part(
            "equals nn.MultiheadAttention on the same weights, several sizes",
            1,
            _plain,
            gate=True,
            requires={"shape", "weights"},
            hidden=True,
        ),
        Part(
            "causal=True: equals nn.MultiheadAttention with the causal mask",
            1,
            _causal,
            requires={"argument", "causal", "edge", "weights"},
            hidden=True,
        ),
        Part(
            "key_padding_mask (True = ignore that key), with and without the causal mask",
            1,
            _padding,
            requires={"argument", "causal", "weights"},
            hidden=True,
        ),
        Part(
            "dropout: none in eval mode; training mode with dropout=0.0 changes nothing",
            1,
            _dropout,
            requires={"causal", "mode", "weights"},
            hidden=True,
        ),
    ],
}
