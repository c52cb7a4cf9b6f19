"""Visible checks for 02_self_attention_step_by_step."""
import numpy as np

from . import fixture
from .framework import Case, Mismatch, Part
from .judges import array_of, diagnose, show
from .plain import TensorArg

NOTEBOOK = "02_self_attention_step_by_step.ipynb"

# The source rounds the softmax of the fixture's scores to these weights, for readability.
APPROXIMATE_WEIGHTS = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]], dtype=np.float32)


def call(*args, **kwargs):
    """Probe parameters: every array is given to the student as a torch.Tensor."""
    return {"args": tuple(TensorArg(a) if isinstance(a, np.ndarray) else a for a in args), "kwargs": kwargs}


def array_diagnosed(outcome, kind, shape, what, diagnoses=()):
    """Like ``array_of``, but a wrong shape is also matched against the known mistakes."""
    try:
        return array_of(outcome, kind, shape, "floating", what)
    except Mismatch as mismatch:
        values = outcome.get("values")
        if mismatch.misconception is None and values is not None and diagnoses:
            mismatch.misconception = diagnose(np.asarray(values, dtype=np.float64), diagnoses)
        raise


def rows_sum_to_one(weights, what):
    """Each query's weights are non-negative and add up to 1."""
    sums = weights.sum(axis=-1)
    if np.all(weights >= 0) and np.allclose(sums, 1.0, atol=1e-5):
        return
    columns = weights.sum(axis=-2)
    key = "softmax_dim0" if np.allclose(columns, 1.0, atol=1e-5) else None
    raise Mismatch(f"{what}: each row (one query's weights) should be non-negative and sum to 1.",
                   expected="row sums of 1", got=f"row sums {show(sums)}", misconception=key)


def swapped_axes_hint(outcome, shape, what):
    """A weighted-values answer laid out (n_keys, n_queries, d_v) instead of (n_queries, n_keys, d_v)."""
    got = tuple(outcome.get("shape") or ())
    swapped = (*shape[:-3], shape[-2], shape[-3], shape[-1])
    if outcome.get("type") == "Tensor" and got == swapped != tuple(shape):
        raise Mismatch(f"{what} has its first two axes swapped: index it as [query, key, feature], so that "
                       f"entry [i, j] is weights[i, j] * values[j].", expected=f"shape {tuple(shape)}",
                       got=f"shape {got}")


def _weights_visible():
    def judge(outcome):
        weights = array_of(outcome, "Tensor", (3, 3), "floating", "attention_weights(scores)")
        rows_sum_to_one(weights, "attention_weights(scores)")
    return [Case("the fixture's scores", judge, call(fixture.SCORES))]


def _weighted_visible():
    cases = []
    for label, weights, values in [("the approximate weights and the fixture's values", APPROXIMATE_WEIGHTS,
                                    fixture.VALUES),
                                   ("weights (2, 3) and values (3, 4)", np.full((2, 3), 0.25, np.float32),
                                    np.arange(12, dtype=np.float32).reshape(3, 4))]:
        shape = (weights.shape[0], *values.shape)

        def judge(outcome, shape=shape):
            swapped_axes_hint(outcome, shape, "weighted_values(weights, values)")
            array_of(outcome, "Tensor", shape, "floating", "weighted_values(weights, values)")
        cases.append(Case(label, judge, call(weights, values)))
    return cases


def _sum_visible():
    weighted = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10

    def judge(outcome):
        array_diagnosed(outcome, "Tensor", (2, 4), "sum_weighted_values(weighted)",
                        diagnoses=[("sum_over_features", weighted.sum(axis=-1))])
    return [Case("weighted values of shape (2 queries, 3 keys, 4 features)", judge, call(weighted))]


def _attention_visible():
    rng = np.random.default_rng(0)
    x, w_query, w_key = rng.integers(0, 3, (2, 4)), rng.integers(0, 3, (4, 3)), rng.integers(0, 3, (4, 3))
    w_value = rng.integers(0, 3, (4, 5))
    small = [a.astype(np.float32) for a in (x, w_query, w_key, w_value)]
    cases = []
    for label, args, shape in [("the fixture", (fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE), (3, 3)),
                               ("x (2, 4), w_query and w_key (4, 3), w_value (4, 5)", small, (2, 5))]:
        def judge(outcome, shape=shape):
            array_of(outcome, "Tensor", shape, "floating", "self_attention(x, w_query, w_key, w_value)")
        cases.append(Case(label, judge, call(*args)))
    return cases


def heatmap_axes(outcome, what, not_shown=True):
    """The plots of a returned figure (its colour bars left out), once it is a figure (that was not shown)."""
    if outcome.get("type") != "Figure":
        hint = " (add `return fig` at the end)" if outcome.get("type") == "NoneType" else ""
        raise Mismatch(f"{what} should return the matplotlib Figure it drew{hint}.",
                       expected="a matplotlib.figure.Figure", got=f"a value of type {outcome.get('type')}")
    if not_shown and outcome.get("shown"):
        raise Mismatch(f"{what} called plt.show(); return the figure instead and let the caller show it.")
    return [ax for ax in outcome["axes"] if not ax["colorbar"]]


def one_image_each(plots, count, what):
    """``count`` plots, each holding exactly one image."""
    if len(plots) != count:
        raise Mismatch(f"{what} should draw one plot per matrix.", expected=f"{count} plot(s)",
                       got=f"{len(plots)} plot(s), colour bars not counted")
    for plot in plots:
        if len(plot["images"]) != 1:
            raise Mismatch(f"{what}: every plot should hold exactly one image (draw it with ax.imshow).",
                           expected="1 image per plot", got=f"{len(plot['images'])} image(s) in a plot")


def _heatmap_visible():
    def judge(outcome):
        what = "show_heatmaps(torch.eye(10).reshape(1, 1, 10, 10), ...)"
        one_image_each(heatmap_axes(outcome, what), 1, what)
    identity = np.eye(10, dtype=np.float32).reshape(1, 1, 10, 10)
    return [Case("torch.eye(10).reshape(1, 1, 10, 10)", judge,
                 {"args": (TensorArg(identity), "Keys", "Queries"), "kwargs": {}}, probe="heatmap")]


PARTS = {
    "attention_weights": [Part("returns float weights of shape (n_queries, n_keys); rows sum to 1", 1,
                               _weights_visible)],
    "weighted_values": [Part("returns a float tensor of shape (n_queries, n_keys, d_v)", 1, _weighted_visible)],
    "sum_weighted_values": [Part("returns a float tensor of shape (n_queries, d_v)", 1, _sum_visible)],
    "self_attention": [Part("returns a float tensor of shape (n, d_v)", 1, _attention_visible)],
    "show_heatmaps": [Part("returns a Figure, not shown, with one image per matrix", 1, _heatmap_visible)],
}
