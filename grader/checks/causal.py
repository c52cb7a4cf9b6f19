"""Visible checks for 04_causal_self_attention."""
import functools

import numpy as np

from . import fixture
from .framework import Case, Mismatch, Part
from .judges import array_of, close, show
from .plain import TensorArg

NOTEBOOK = "04_causal_self_attention.ipynb"


@functools.cache
def seed_x():
    """The notebook's input, torch.manual_seed(42); torch.randn(4, 8, 2), drawn without touching the global RNG."""
    import torch
    return torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42)).numpy()


def _call(*args, **kwargs):
    return {"args": tuple(TensorArg(a) if isinstance(a, np.ndarray) else a for a in args), "kwargs": kwargs}


def rows_sum_to_one(weights, what):
    sums = weights.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-5):
        columns = weights.sum(axis=-2)
        hint = "softmax_dim0" if np.allclose(columns, 1.0, atol=1e-5) else None
        raise Mismatch(f"the rows of {what} should each sum to 1 (every step averages over its past).",
                       expected="row sums [1, 1, ...]", got=f"row sums {show(sums)}", misconception=hint)


def _running_mean_visible(name):
    def cases():
        x = seed_x()

        def judge(outcome):
            got = array_of(outcome, "Tensor", x.shape, "floating", f"{name}(x)")
            close(got[:, 0], x[:, 0], f"step 0 of {name}(x) (the mean of the first token alone is that token)")
        return [Case("the notebook's x, shape (4, 8, 2)", judge, _call(x))]
    return cases


def _weights_visible():
    def judge(outcome):
        got = array_of(outcome, "Tensor", (8, 8), "floating", "causal_average_weights(8)")
        rows_sum_to_one(got, "causal_average_weights(8)")
        future = np.triu(got, 1)
        if np.any(future != 0):
            raise Mismatch("causal_average_weights(8) gives weight to the future: everything above the "
                           "diagonal must be 0.", expected="0 above the diagonal", got=show(got))
    return [Case("T = 8", judge, _call(8))]


def _mask_visible():
    expected = np.where(np.tril(np.ones((8, 8), dtype=bool)), 0.0, -np.inf)

    def judge(outcome):
        got = array_of(outcome, "Tensor", (8, 8), "floating", "causal_mask(torch.zeros(8, 8))")
        close(got, expected, "causal_mask(torch.zeros(8, 8))",
              diagnoses=[("masking_wrong", np.zeros((8, 8)))])
    return [Case("torch.zeros(8, 8)", judge, _call(np.zeros((8, 8), dtype=np.float32)))]


def _sdpa_visible():
    def judge(outcome):
        what = "scaled_dot_product_attention(queries, keys, values)"
        got = array_of(outcome, "Tensor", (3, 3), "floating", what)
        close(got[0], fixture.VALUES[0], f"row 0 of {what} (query 0 may only look at key 0, so all its "
              "weight is on key 0 and its output is values[0])")
    return [Case("the fixture's queries, keys and values, causal", judge,
                 _call(fixture.QUERIES, fixture.KEYS, fixture.VALUES))]


def check_head_layout(outcome, embed_dim, head_size):
    """The Head's children and parameters: bias-free nn.Linear key, query, value, nothing else stored."""
    children = outcome.get("children", {})
    for name in ("key", "query", "value"):
        child = children.get(name)
        if child is None or not child["linear"]:
            raise Mismatch(f"Head should have an attribute `{name}` that is an nn.Linear.",
                           expected=f"self.{name} = nn.Linear(embed_dim, head_size, bias=False)",
                           got=f"children {sorted(children)}")
        if child["bias"]:
            raise Mismatch(f"self.{name} should have no bias.", expected="nn.Linear(..., bias=False)",
                           got="a bias")
    wanted = {f"{name}.weight": [head_size, embed_dim] for name in ("key", "query", "value")}
    params = {k: list(v) for k, v in outcome.get("params", {}).items()}
    if params != wanted:
        raise Mismatch("Head should store exactly the three projection weights (build the causal mask "
                       "in forward, where T is known).", expected=str(wanted), got=str(params))


def _head_visible():
    x = seed_x()

    def judge(outcome):
        check_head_layout(outcome, 2, 3)
        array_of(outcome, "Tensor", (4, 8, 3), "floating", "Head(2, 3)(x, x, x)")
    params = {"init": {"embed_dim": 2, "head_size": 3}, "state": None,
              "inputs": (TensorArg(x), TensorArg(x), TensorArg(x)), "forward_kwargs": {}, "train": False}
    return [Case("Head(2, 3) on the notebook's x", judge, params, probe="module")]


PARTS = {
    "causal_average_loop": [
        Part("returns a float tensor shaped like x; step 0 is x[:, 0]", 1, _running_mean_visible("causal_average_loop"))],
    "causal_average_weights": [
        Part("returns a float (T, T) tensor, lower triangular, rows summing to 1", 1, _weights_visible)],
    "causal_average_matmul": [
        Part("returns a float tensor shaped like x; step 0 is x[:, 0]", 1,
             _running_mean_visible("causal_average_matmul"))],
    "causal_mask": [Part("zeros(8, 8): 0 on and below the diagonal, -inf above", 1, _mask_visible)],
    "causal_average_softmax": [
        Part("returns a float tensor shaped like x; step 0 is x[:, 0]", 1,
             _running_mean_visible("causal_average_softmax"))],
    "scaled_dot_product_attention": [
        Part("the fixture: a float (3, 3) tensor, query 0 sees only key 0", 1, _sdpa_visible)],
    "Head": [Part("bias-free nn.Linear key, query, value; output (B, T, head_size)", 1, _head_visible)],
}
