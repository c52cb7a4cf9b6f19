"""Visible checks for 05_multi_head_attention."""
import numpy as np

from .framework import Case, Mismatch, Part
from .judges import array_of
from .plain import TensorArg

NOTEBOOK = "05_multi_head_attention.ipynb"


def torch_names(embed_dim):
    """The state-dict entries of nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)."""
    E = embed_dim
    return {"in_proj_weight": [3 * E, E], "in_proj_bias": [3 * E], "out_proj.weight": [E, E], "out_proj.bias": [E]}


def same_parameters(outcome, embed_dim):
    """The module's state dict must match PyTorch's entry for entry, or load_state_dict fails."""
    wanted, params = torch_names(embed_dim), outcome.get("params", {})
    if params == wanted:
        return
    missing = [name for name in wanted if name not in params]
    extra = [name for name in params if name not in wanted]
    wrong = [f"{name} {tuple(params[name])}" for name in wanted if name in params and params[name] != wanted[name]]
    buffers = [name for name in extra if not name.endswith((".weight", ".bias"))]
    hint = " (keep a mask buffer out of the state dict: register_buffer(..., persistent=False))" if buffers else ""
    problems = ([f"missing {', '.join(missing)}"] if missing else []) + \
        ([f"unexpected {', '.join(extra)}{hint}"] if extra else []) + \
        ([f"wrong shape: {', '.join(wrong)}"] if wrong else [])
    raise Mismatch("the parameters should be named and shaped as nn.MultiheadAttention's, so that its "
                   "state dict loads into your module.",
                   expected=", ".join(f"{n} {tuple(s)}" for n, s in wanted.items()), got="; ".join(problems))


def module_case(label, judge, init, x, state=None, key_padding_mask=None, train=False):
    kwargs = {} if key_padding_mask is None else {"key_padding_mask": TensorArg(key_padding_mask)}
    return Case(label, judge, {"init": init, "state": state, "inputs": (TensorArg(x),),
                               "forward_kwargs": kwargs, "train": train}, probe="module")


def _shapes():
    x = np.random.default_rng(0).standard_normal((2, 5, 8)).astype(np.float32)

    def judge(outcome):
        same_parameters(outcome, 8)
        array_of(outcome, "Tensor", (2, 5, 8), "floating", "MultiHeadAttention(8, 2)(x) for x of shape (2, 5, 8)")
    return [module_case("embed_dim=8, num_heads=2, x of shape (2, 5, 8)", judge,
                        {"embed_dim": 8, "num_heads": 2}, x)]


PARTS = {
    "MultiHeadAttention": [Part("parameters named as nn.MultiheadAttention's; output of shape (B, T, embed_dim)", 1,
                                _shapes)],
}
