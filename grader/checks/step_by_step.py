"""Visible checks for 02_self_attention_step_by_step."""
import numpy as np

from . import fixture
from .cases import Case, Mismatch, Part
from .judges import array_of, close, diagnose, finite, read_source, show
from .plain import call, numpy_call

NOTEBOOK = "02_self_attention_step_by_step.ipynb"

# The source rounds the softmax of the notebook's example scores to these weights, for readability.
APPROXIMATE_WEIGHTS = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]], dtype=np.float32)


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


def swapped_axes(what, expected, got):
    """The mismatch of a weighted-values answer laid out (n_keys, n_queries, d_v), not (n_queries, n_keys, d_v)."""
    return Mismatch(f"{what} has its first two axes swapped: index it as [query, key, feature], so that "
                    f"entry [i, j] is weights[i, j] * values[j].", expected=expected, got=got)


def swapped_axes_hint(outcome, shape, what):
    """Refuse a weighted-values answer whose shape is that of the swapped layout."""
    got = tuple(outcome.get("shape") or ())
    swapped = (*shape[:-3], shape[-2], shape[-3], shape[-1])
    if outcome.get("type") == "Tensor" and got == swapped != tuple(shape):
        raise swapped_axes(what, f"shape {tuple(shape)}", f"shape {got}")


RNG = np.random.default_rng(21)
LARGE_SCORES = np.array([[1000.0, 990.0, 1000.0], [-5.0, 800.0, 0.0]], dtype=np.float32)


def _across_the_batch(shape):
    """Weights of ``shape`` that sum to 1 across a batch (dimension 0), as softmax without dim makes them."""
    return lambda got: got.shape == shape and np.allclose(got.sum(axis=0), 1.0, atol=1e-5)


def _weights_visible():
    batch = (RNG.standard_normal((2, 3, 4)) * 3).astype(np.float32)
    cases = []
    for label, scores, is_batch, large in [("the notebook's example scores", fixture.SCORES, False, False),
                                           ("2 queries and 5 keys", RNG.standard_normal((2, 5)), False, False),
                                           ("one query and 4 keys", RNG.standard_normal((1, 4)), False, False),
                                           ("a batch of score matrices (2, 3, 4)", batch, True, False),
                                           ("large scores [[1000, 990, 1000], [-5, 800, 0]]", LARGE_SCORES, False,
                                            True)]:
        scores = scores.astype(np.float32)
        diagnoses = [("softmax_implicit_dim", _across_the_batch(scores.shape))] if is_batch else []

        def judge(outcome, scores=scores, large=large, diagnoses=diagnoses):
            what = f"attention_weights on scores of shape {scores.shape}"
            weights = array_diagnosed(outcome, "Tensor", scores.shape, what, diagnoses)
            if large:
                finite(weights, what)
            try:
                rows_sum_to_one(weights, what)
            except Mismatch as mismatch:
                mismatch.misconception = mismatch.misconception or diagnose(weights, diagnoses)
                raise
        cases.append(Case(label, judge, call(scores), batch=scores.shape if is_batch else None))
    return cases


def _weighted_visible():
    cases = []
    for label, weights, values, is_batch in [
            ("the approximate weights and the notebook's example values", APPROXIMATE_WEIGHTS, fixture.VALUES, False),
            ("weights (2, 3) and values (3, 4)", np.full((2, 3), 0.25, np.float32),
             np.arange(12, dtype=np.float32).reshape(3, 4), False),
            ("one query: weights (1, 3) and values (3, 2)", np.full((1, 3), 1 / 3, np.float32),
             np.arange(6, dtype=np.float32).reshape(3, 2), False),
            ("a batch: weights (2, 3, 4) and values (2, 4, 5)", np.full((2, 3, 4), 0.25, np.float32),
             np.arange(40, dtype=np.float32).reshape(2, 4, 5), True)]:
        shape = (*weights.shape, values.shape[-1])

        def judge(outcome, shape=shape):
            swapped_axes_hint(outcome, shape, "weighted_values(weights, values)")
            array_of(outcome, "Tensor", shape, "floating", "weighted_values(weights, values)")
        cases.append(Case(label, judge, call(weights, values), batch=weights.shape if is_batch else None))
    return cases


def _sum_visible():
    cases = []
    for label, shape, is_batch in [("weighted values of shape (2 queries, 3 keys, 4 features)", (2, 3, 4), False),
                                   ("one query: weighted values of shape (1, 3, 2)", (1, 3, 2), False),
                                   ("a batch of weighted values of shape (2, 3, 4, 5)", (2, 3, 4, 5), True)]:
        weighted = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 10

        def judge(outcome, weighted=weighted):
            array_diagnosed(outcome, "Tensor", (*weighted.shape[:-2], weighted.shape[-1]),
                            f"sum_weighted_values on weighted values of shape {weighted.shape}",
                            diagnoses=[("sum_over_features", weighted.sum(axis=-1))])
        cases.append(Case(label, judge, call(weighted), batch=shape if is_batch else None))
    return cases


def _attention_visible():
    rng = np.random.default_rng(0)
    x, w_query, w_key = rng.integers(0, 3, (2, 4)), rng.integers(0, 3, (4, 3)), rng.integers(0, 3, (4, 3))
    w_value = rng.integers(0, 3, (4, 5))
    small = [a.astype(np.float32) for a in (x, w_query, w_key, w_value)]
    weights = (fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)
    batch = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    cases = []
    for label, args, shape, is_batch, large in [
            ("the notebook's example", (fixture.X, *weights), (3, 3), False, False),
            ("x (2, 4), w_query and w_key (4, 3), w_value (4, 5)", small, (2, 5), False, False),
            ("one token: x (1, 4)", (fixture.X[:1], *weights), (1, 3), False, False),
            ("a batch: x (2, 3, 4)", (batch, *weights), (2, 3, 3), True, False),
            ("large scores: the notebook's example x times 6 (scores up to 576)", (fixture.X * 6, *weights), (3, 3),
             False, True)]:
        def judge(outcome, shape=shape, large=large):
            what = "self_attention(x, w_query, w_key, w_value)"
            got = array_of(outcome, "Tensor", shape, "floating", what)
            if large:
                finite(got, what)
        cases.append(Case(label, judge, call(*args), batch=(2, 3, 4) if is_batch else None))
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


def grid_of(plots, rows, cols, what):
    """The plots by (row, column), from their place in the subplot grid."""
    grid = {}
    for plot in plots:
        position = plot["position"]
        if position is None or tuple(position[:2]) != (rows, cols):
            raise Mismatch(f"{what}: the plots should form a grid of {rows} row(s) and {cols} column(s) "
                           "(plt.subplots(num_rows, num_cols, squeeze=False)).",
                           expected=f"a {rows} x {cols} grid",
                           got="a plot outside a grid" if position is None else
                           f"a plot in a {position[0]} x {position[1]} grid")
        grid[divmod(position[2], cols)] = plot
    if len(grid) != rows * cols:
        raise Mismatch(f"{what}: every place in the grid should hold one plot.",
                       expected=f"{rows * cols} places filled", got=f"{len(grid)} places filled")
    return grid


def layout_judge(matrices, titles, what):
    rows, cols = matrices.shape[:2]

    def judge(outcome):
        plots = heatmap_axes(outcome, what, not_shown=False)
        grid = grid_of(plots, rows, cols, what)
        for (i, j), plot in sorted(grid.items()):
            want = {"xlabel": "Keys" if i == rows - 1 else "", "ylabel": "Queries" if j == 0 else "",
                    "title": titles[j] if titles else ""}
            for field, expected in want.items():
                if plot[field] != expected:
                    rule = {"xlabel": "the x label goes on the bottom row only",
                            "ylabel": "the y label goes on the first column only",
                            "title": "titles[j] goes on every plot of column j (no title when titles is None)"}
                    raise Mismatch(f"{what}: wrong {field} in row {i}, column {j}; {rule[field]}.",
                                   expected=repr(expected), got=repr(plot[field]))
        bars = sum(ax["colorbar"] for ax in outcome["axes"])
        if bars != 1:
            raise Mismatch(f"{what}: the grid should share exactly one colour bar "
                           "(fig.colorbar(image, ax=axes)).", expected="1 colour bar", got=f"{bars} colour bar(s)")
    return judge


def images_judge(matrices, what):
    """A judge: one image per matrix, each in its place in the grid, of the matrix's shape and values."""
    rows, cols = matrices.shape[:2]

    def judge(outcome):
        plots = heatmap_axes(outcome, what, not_shown=False)
        one_image_each(plots, rows * cols, what)
        for (i, j), plot in sorted(grid_of(plots, rows, cols, what).items()):
            image = np.asarray(plot["images"][0])
            if image.shape != matrices.shape[2:]:
                raise Mismatch(f"{what}: the image in row {i}, column {j} has the wrong shape (queries down, "
                               "keys across).", expected=f"shape {matrices.shape[2:]}", got=f"shape {image.shape}")
            close(image, matrices[i, j], f"{what}: the image in row {i}, column {j}")
    return judge


IDENTITY = np.eye(10, dtype=np.float32).reshape(1, 1, 10, 10)  # torch.eye(10).reshape(1, 1, 10, 10)
SHOWING = frozenset({"show", "display", "pause"})  # pyplot.show, Figure.show, IPython's display, plt.pause


def not_shown_in_source(outcome):
    """show_heatmaps' code, read from the notebook, never shows the figure, by whatever name."""
    found = read_source(outcome, "show_heatmaps")
    calls = sorted({use for use in found["uses"] if use.rsplit(".", 1)[-1] in SHOWING}
                   | {f".{name}" for name in found["attributes"] if name in SHOWING}
                   | {name for name in found["unresolved"] if name in SHOWING})
    hidden = [way for way in found["dynamic"] if way in ("eval", "exec", "compile") or "computed" in way]
    if calls or hidden:
        raise Mismatch("show_heatmaps shows the figure; return it instead and let the caller show it.",
                       expected="no show() or display()", got="calls " + ", ".join(calls + hidden))


def _heatmap_visible():
    def judge(outcome):
        what = "show_heatmaps(torch.eye(10).reshape(1, 1, 10, 10), ...)"
        one_image_each(heatmap_axes(outcome, what), 1, what)
    grid = np.abs(RNG.standard_normal((2, 3, 3, 4))).astype(np.float32)  # a NumPy array, not a tensor
    titles = ["first", "second", "third"]
    what = "show_heatmaps on a NumPy array of shape (2, 3, 3, 4), with titles"

    def grid_judge(outcome):
        plots = heatmap_axes(outcome, what)
        one_image_each(plots, 6, what)
        layout_judge(grid, titles, what)(outcome)
    return [Case("torch.eye(10).reshape(1, 1, 10, 10)", judge,
                 call(IDENTITY, "Keys", "Queries"), probe="heatmap"),
            Case("a NumPy array of shape (2, 3, 3, 4) with titles: labels on the outer plots, one colour bar",
                 grid_judge, numpy_call(grid, "Keys", "Queries", titles=titles), probe="heatmap"),
            Case("the code of show_heatmaps, read from the notebook", not_shown_in_source,
                 {"name": "show_heatmaps"}, probe="source")]


PARTS = {
    "attention_weights": [Part("float weights of shape (..., n_queries, n_keys); rows sum to 1, also on a batch and "
                               "on large scores", 1, _weights_visible, requires={"shape", "edge", "batch", "large"})],
    "weighted_values": [Part("a float tensor of shape (..., n_queries, n_keys, d_v)", 1, _weighted_visible,
                             requires={"shape", "edge", "batch"})],
    "sum_weighted_values": [Part("a float tensor of shape (..., n_queries, d_v)", 1, _sum_visible,
                                 requires={"shape", "edge", "batch"})],
    "self_attention": [Part("a float tensor of shape (..., n, d_v); finite on large scores", 1, _attention_visible,
                            requires={"shape", "edge", "batch", "large"})],
    "show_heatmaps": [Part("returns a Figure it does not show: one image per matrix, labels on the outer plots, "
                           "titles per column, one colour bar; tensors and NumPy arrays", 1, _heatmap_visible,
                           requires={"shape", "layout", "numpy", "policy"})],
}

# What each exercise is worth: its test cell's points, for the visible and hidden parts together.
POINTS = {"attention_weights": 4,
          "weighted_values": 4,
          "sum_weighted_values": 4,
          "self_attention": 4,
          "show_heatmaps": 5}
