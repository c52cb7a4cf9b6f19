"""Visible checks for 05_multi_head_attention."""
import numpy as np

from .cases import Case, Part
from .judges import array_of, close, finite, parameters_as_wanted
from .plain import TensorArg

NOTEBOOK = "05_multi_head_attention.ipynb"


def torch_names(embed_dim):
    """The state-dict entries of nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)."""
    E = embed_dim
    return {"in_proj_weight": [3 * E, E], "in_proj_bias": [3 * E], "out_proj.weight": [E, E], "out_proj.bias": [E]}


def same_parameters(outcome, embed_dim):
    """The parameters match PyTorch's entry for entry, so that its state dict loads; any buffers are fine."""
    parameters_as_wanted(outcome, torch_names(embed_dim), "MultiHeadAttention: named and shaped as "
                         "nn.MultiheadAttention's, so that its state dict loads into your module")


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


def visible_state(E):
    """Weights anyone can check by hand: the projections are scaled identities, the biases small counts."""
    eye = np.eye(E, dtype=np.float32)
    return {"in_proj_weight": np.concatenate([eye, 0.5 * eye, 2 * eye]),
            "in_proj_bias": np.arange(3 * E, dtype=np.float32) / (3 * E),
            "out_proj.weight": 0.5 * eye, "out_proj.bias": np.ones(E, dtype=np.float32)}


def first_output(state, x):
    """Position 0 when it may attend to key 0 only: the output projection of its value."""
    E = x.shape[-1]
    value = x[:, 0] @ state["in_proj_weight"][2 * E:].T + state["in_proj_bias"][2 * E:]
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
            ("large scores: x times 100, causal=True", {"causal": True}, x * 100, None, False, True)]:
        every_row = mask is not None

        def judge(outcome, inputs=inputs, every_row=every_row, large=large, label=label):
            same_parameters(outcome, E)
            what = f"MultiHeadAttention({E}, {H}) with {label}"
            got = array_of(outcome, "Tensor", inputs.shape, "floating", what)
            if large:
                finite(got, what)
            expected = first_output(state, inputs)
            rows = got if every_row else got[:, :1]
            close(rows, np.broadcast_to(expected[:, None], rows.shape),
                  f"{what}: " + ("every position sees only key 0" if every_row else "position 0 sees only key 0") +
                  ", so its output is out_proj of the value of token 0", rtol=1e-4, atol=1e-4)
        cases.append(module_case(label, judge, {"embed_dim": E, "num_heads": H, **init}, inputs,
                                 {k: TensorArg(v) for k, v in state.items()}, mask, train))
    return cases


PARTS = {
    "MultiHeadAttention": [Part("parameters named as nn.MultiheadAttention's; output of shape (B, T, embed_dim); "
                                "given weights load; causal and padding masks, dropout modes, large scores", 1,
                                lambda: _shapes() + _attends_to_first_key(),
                                requires={"weights", "shape", "argument", "causal", "mode", "edge", "large"})],
}

# What each exercise is worth: its test cell's points, for the visible and hidden parts together.
POINTS = {"MultiHeadAttention": 5}
