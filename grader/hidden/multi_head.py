"""Hidden checks for 05_multi_head_attention: the same outputs as nn.MultiheadAttention on the same weights."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from ..checks.cases import Part
from ..checks.judges import array_of, close
from ..checks.multi_head import NOTEBOOK  # noqa: F401 (this module's notebook, for grader/checks/registry.py)
from ..checks.multi_head import module_case, same_parameters
from ..checks.plain import TensorArg
from .randomised import random_array


def random_state(rng, E):
    """A random state dict for nn.MultiheadAttention(E, H), with non-zero biases."""
    state = {"in_proj_weight": random_array(rng, 3 * E, E, scale=E ** -0.5),
             "in_proj_bias": random_array(rng, 3 * E, scale=0.5),
             "out_proj.weight": random_array(rng, E, E, scale=E ** -0.5),
             "out_proj.bias": random_array(rng, E, scale=0.5)}
    return state


def torch_output(state, x, H, causal=False, key_padding_mask=None):
    """What nn.MultiheadAttention(E, H, batch_first=True) computes with this state dict."""
    E, T = x.shape[-1], x.shape[-2]
    mha = nn.MultiheadAttention(E, H, batch_first=True)
    mha.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    mha.eval()
    x = torch.from_numpy(x)
    mask = torch.ones(T, T).triu(1).bool() if causal else None
    kpm = None if key_padding_mask is None else torch.from_numpy(key_padding_mask)
    with torch.no_grad():
        out, _ = mha(x, x, x, key_padding_mask=kpm, need_weights=False, attn_mask=mask, is_causal=causal)
    return out.numpy()


def variant(state, x, H, causal=False, key_padding_mask=None, scale="sqrt", masking="-inf"):
    """Multi-head attention with one known mistake: how the scores are scaled, or how masks are applied."""
    s = {k: torch.from_numpy(v).double() for k, v in state.items()}
    x = torch.from_numpy(x).double()
    B, T, E = x.shape
    hs = E // H
    q, k, v = F.linear(x, s["in_proj_weight"], s["in_proj_bias"]).split(E, dim=-1)
    q, k, v = (t.view(B, T, H, hs).transpose(1, 2) for t in (q, k, v))  # (B, H, T, hs)
    divisor = {"sqrt": hs ** 0.5, "d_k": hs, "none": 1.0, "sqrt_embed": E ** 0.5}[scale]
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
    wrong = [("scaling_wrong", variant(state, x, H, causal, key_padding_mask, scale=scale))
             for scale in ("d_k", "none", "sqrt_embed")]
    if causal or key_padding_mask is not None:
        wrong += [("masking_wrong", variant(state, x, H, causal, key_padding_mask, masking=masking))
                  for masking in ("zero", "after")]
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
    label = f"embed_dim={E}, num_heads={H}, x of shape {x.shape}" + (", causal" if causal else "") + \
        (", key_padding_mask" if pad else "") + (f", dropout={dropout}" if dropout else "") + \
        (", in training mode" if train else ", in eval mode" if dropout else "")
    what = f"MultiHeadAttention ({label})"

    def judge(outcome):
        same_parameters(outcome, E)
        got = array_of(outcome, "Tensor", x.shape, "floating", what)
        close(got, expected, f"{what} compared with nn.MultiheadAttention on the same weights", diagnoses=wrong)
    return module_case(label, judge, init, x, {k: TensorArg(v) for k, v in state.items()}, kpm, train)


def _plain():
    return [_case(100, 8, 2, 2, 5), _case(101, 12, 3, 1, 4), _case(102, 16, 4, 3, 7), _case(103, 6, 1, 2, 3)]


def _causal():
    return [_case(110, 8, 2, 2, 5, causal=True), _case(111, 16, 4, 3, 7, causal=True),
            _case(112, 6, 3, 1, 1, causal=True)]


def _padding():
    return [_case(120, 8, 2, 3, 5, pad=True), _case(121, 12, 3, 2, 6, pad=True),
            _case(122, 8, 4, 3, 6, causal=True, pad=True)]


def _dropout():
    return [_case(130, 8, 2, 2, 5, dropout=0.5), _case(131, 8, 2, 2, 5, causal=True, dropout=0.0, train=True)]


PARTS = {
    "MultiHeadAttention": [
        Part("equals nn.MultiheadAttention on the same weights, several sizes", 1, _plain, gate=True,
             requires={"shape", "weights"}),
        Part("causal=True: equals nn.MultiheadAttention with the causal mask", 1, _causal,
             requires={"argument", "causal", "edge", "weights"}),
        Part("key_padding_mask (True = ignore that key), with and without the causal mask", 1, _padding, requires={"argument", "causal", "weights"}),
        Part("dropout: none in eval mode; training mode with dropout=0.0 changes nothing", 1, _dropout,
             requires={"causal", "mode", "weights"}),
    ],
}
