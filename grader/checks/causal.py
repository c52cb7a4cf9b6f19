"""Visible checks for 04_causal_self_attention."""
import functools

import numpy as np

from . import fixture
from .cases import Case, Mismatch, Part
from .judges import array_of, close, finite, parameters_as_wanted, show
from .plain import TensorArg, call

NOTEBOOK = "04_causal_self_attention.ipynb"


@functools.cache
def seed_x():
    """The notebook's input, torch.manual_seed(42); torch.randn(4, 8, 2), drawn without touching the global RNG."""
    import torch
    return torch.randn(4, 8, 2, generator=torch.Generator().manual_seed(42)).numpy()


def rows_sum_to_one(weights, what):
    sums = weights.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-5):
        columns = weights.sum(axis=-2)
        hint = "softmax_dim0" if np.allclose(columns, 1.0, atol=1e-5) else None
        raise Mismatch(f"the rows of {what} should each sum to 1 (every step averages over its past).",
                       expected="row sums [1, 1, ...]", got=f"row sums {show(sums)}", misconception=hint)


def running_means(outcome, x, name, given="x"):
    """What ``name(given)`` returned for ``x``, once a float tensor shaped like ``x``."""
    return array_of(outcome, "Tensor", x.shape, "floating", f"{name}({given})")


def _running_mean_visible(name):
    def cases():
        rng = np.random.default_rng(7)
        found = []
        for label, x in [("the notebook's x, shape (4, 8, 2)", seed_x()),
                         ("x of shape (2, 5, 3)", rng.standard_normal((2, 5, 3)).astype(np.float32)),
                         ("one step: x of shape (1, 1, 4)", rng.standard_normal((1, 1, 4)).astype(np.float32))]:
            def judge(outcome, x=x):
                close(running_means(outcome, x, name)[:, 0], x[:, 0],
                      f"step 0 of {name}(x) (the mean of the first token alone is that token)")
            found.append(Case(label, judge, call(x)))
        return found
    return cases


def _weights_visible():
    cases = []
    for T in (8, 1):
        def judge(outcome, T=T):
            got = array_of(outcome, "Tensor", (T, T), "floating", f"causal_average_weights({T})")
            rows_sum_to_one(got, f"causal_average_weights({T})")
            future = np.triu(got, 1)
            if np.any(future != 0):
                raise Mismatch(f"causal_average_weights({T}) gives weight to the future: everything above the "
                               "diagonal must be 0.", expected="0 above the diagonal", got=show(got))
        cases.append(Case(f"T = {T}", judge, call(T)))
    return cases


def masked(shape):
    """What causal_mask gives on zeros of ``shape``: 0 on and below the top-left diagonal, -inf above."""
    keep = np.tril(np.ones(shape[-2:], dtype=bool))
    return np.broadcast_to(np.where(keep, 0.0, -np.inf), shape)


def scores_kept(outcome, what):
    """Refuse a causal mask that changed the scores it was given."""
    if outcome.get("mutated"):
        raise Mismatch(f"{what} changed its input in place. Return a new tensor and leave the scores "
                       "alone: use scores.masked_fill(...), not masked_fill_ or item assignment on scores.",
                       expected="the input unchanged", got="the input overwritten")


def _mask_visible():
    cases = []
    for label, shape, batch in [("torch.zeros(8, 8)", (8, 8), None),
                                ("torch.zeros(3, 5): more keys than queries", (3, 5), None),
                                ("torch.zeros(5, 3): more queries than keys", (5, 3), None),
                                ("a batch: torch.zeros(2, 4, 4)", (2, 4, 4), (2,))]:
        def judge(outcome, shape=shape):
            what = f"causal_mask(torch.zeros{shape})"
            scores_kept(outcome, what)
            got = array_of(outcome, "Tensor", shape, "floating", what)
            close(got, masked(shape), what, diagnoses=[("masking_wrong", np.zeros(shape))])
        cases.append(Case(label, judge, call(np.zeros(shape, dtype=np.float32)), batch=batch and shape))
    return cases


def _sdpa_visible():
    what = "scaled_dot_product_attention(queries, keys, values)"
    q, k, v = fixture.QUERIES, fixture.KEYS, fixture.VALUES
    rng = np.random.default_rng(3)

    def first_row_is_value(outcome, shape, label, values, large=False):
        got = array_of(outcome, "Tensor", shape, "floating", f"{what} on {label}")
        if large:
            finite(got, f"{what} on {label}")
        close(got[..., 0, :], values[..., 0, :], f"row 0 of {what} on {label} (query 0 may only look at key 0, "
              "so all its weight is on key 0 and its output is values[0])")

    def unmasked(outcome):
        got = array_of(outcome, "Tensor", (3, 3), "floating", f"{what} with causal=False")
        if np.allclose(got[0], v[0], atol=1e-3):
            raise Mismatch(f"{what} with causal=False should let query 0 see every key, but it looks masked.",
                           got=show(got))
    wide = [a.astype(np.float32) for a in (rng.standard_normal((2, 3)), rng.standard_normal((4, 3)),
                                           rng.standard_normal((4, 2)))]
    batch = [rng.standard_normal((2, 3, 4)).astype(np.float32) for _ in range(3)]
    big = [a * 10 for a in (q, k)]
    return [Case("the notebook's example queries, keys and values, causal",
                 lambda o: first_row_is_value(o, (3, 3), "the notebook's example", v), call(q, k, v)),
            Case("the notebook's example, causal=False", unmasked, call(q, k, v, causal=False)),
            Case("2 queries and 4 keys", lambda o: first_row_is_value(o, (2, 2), "q (2, 3), k (4, 3)", wide[2]),
                 call(*wide)),
            Case("a batch of shape (2, 3, 4)", lambda o: first_row_is_value(o, (2, 3, 4), "a batch", batch[2]),
                 call(*batch), batch=(2, 3, 4)),
            Case("large scores: the notebook's example queries and keys times 10",
                 lambda o: first_row_is_value(o, (3, 3), "large scores", v, large=True), call(*big, v))]


HEAD_WEIGHTS = {"query.weight": fixture.W_QUERY.T.copy(), "key.weight": fixture.W_KEY.T.copy(),
                "value.weight": fixture.W_VALUE.T.copy()}  # the notebook's example weights, as nn.Linear stores them


def check_head_layout(outcome, embed_dim, head_size):
    """The Head's children and parameters: bias-free nn.Linear key, query, value; any buffers are fine."""
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
    parameters_as_wanted(outcome, wanted, f"Head({embed_dim}, {head_size})")


def head_params(state, inputs, embed_dim, head_size, dropout=None, train=False):
    """What a Head is made and called with: its arguments, the weights loaded into it, its inputs, its mode."""
    init = {"embed_dim": embed_dim, "head_size": head_size}
    if dropout is not None:
        init["dropout"] = dropout
    return {"init": init, "state": {name: TensorArg(w) for name, w in state.items()},
            "inputs": tuple(TensorArg(a) for a in inputs), "forward_kwargs": {}, "train": train}


def _head_visible():
    x = seed_x()

    def layout(outcome):
        check_head_layout(outcome, 2, 3)
        array_of(outcome, "Tensor", (4, 8, 3), "floating", "Head(2, 3)(x, x, x)")
    cases = [Case("Head(2, 3) on the notebook's x", layout,
                  {"init": {"embed_dim": 2, "head_size": 3}, "state": None,
                   "inputs": (TensorArg(x), TensorArg(x), TensorArg(x)), "forward_kwargs": {}, "train": False},
                  probe="module")]
    rng = np.random.default_rng(5)
    sequences = rng.standard_normal((3, 2, 5, 4)).astype(np.float32)
    for label, inputs, extra in [
            ("the notebook's example weights loaded, x = the notebook's example", (fixture.X[None],) * 3, {}),
            ("one token: x of shape (2, 1, 4)", (sequences[0, :, :1],) * 3, {}),
            ("different query, key and value inputs", tuple(sequences), {}),
            ("dropout=0.5, in eval mode", (sequences[0],) * 3, {"dropout": 0.5}),
            ("dropout=0.0, in training mode", (sequences[0],) * 3, {"dropout": 0.0, "train": True}),
            ("large scores: the notebook's example x times 10", (fixture.X[None] * 10,) * 3, {"large": True})]:
        large = extra.pop("large", False)
        value = inputs[2]

        def judge(outcome, value=value, large=large, label=label):
            check_head_layout(outcome, 4, 3)
            what = f"Head(4, 3) on {label}"
            got = array_of(outcome, "Tensor", (*value.shape[:-1], 3), "floating", what)
            if large:
                finite(got, what)
            close(got[:, 0], value[:, 0] @ HEAD_WEIGHTS["value.weight"].T,
                  f"position 0 of {what} (the first token sees only itself, so its output is its value)",
                  rtol=1e-4, atol=1e-4)
        cases.append(Case(label, judge, head_params(HEAD_WEIGHTS, inputs, 4, 3, **extra), probe="module"))
    return cases


PARTS = {
    "causal_average_loop": [
        Part("returns a float tensor shaped like x; step 0 is x[:, 0]", 1, _running_mean_visible("causal_average_loop"),
             requires={"shape", "edge"})],
    "causal_average_weights": [
        Part("returns a float (T, T) tensor, lower triangular, rows summing to 1", 1, _weights_visible,
             requires={"edge"})],
    "causal_average_matmul": [
        Part("returns a float tensor shaped like x; step 0 is x[:, 0]", 1,
             _running_mean_visible("causal_average_matmul"), requires={"shape", "edge"})],
    "causal_mask": [Part("0 on and below the diagonal, -inf above, for square, non-square and batched scores; "
                         "the input unchanged", 1, _mask_visible, requires={"shape", "batch", "inputs"})],
    "causal_average_softmax": [
        Part("returns a float tensor shaped like x; step 0 is x[:, 0]", 1,
             _running_mean_visible("causal_average_softmax"), requires={"shape", "edge"})],
    "scaled_dot_product_attention": [
        Part("query 0 sees only key 0, unless causal=False; non-square, batched and large scores", 1, _sdpa_visible,
             requires={"argument", "shape", "batch", "large"})],
    "Head": [Part("bias-free nn.Linear key, query, value; given weights load; the first token sees only itself", 1,
                  _head_visible, requires={"weights", "edge", "shape", "mode", "causal", "large"})],
}

# What each exercise is worth: its test cell's points, for the visible and hidden parts together.
POINTS = {"causal_average_loop": 3,
          "causal_average_weights": 3,
          "causal_average_matmul": 3,
          "causal_mask": 4,
          "causal_average_softmax": 3,
          "scaled_dot_product_attention": 4,
          "Head": 5}
