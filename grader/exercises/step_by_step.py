"""02 · Self-attention step by step (02_self_attention_step_by_step.ipynb): its exercises' checks, written once.

Visible parts first, then what only grading uses: the known outputs, the hidden parts (``hidden=True``, where
each stands in ``PARTS``) and the wrong answers. The student's copy holds the visible parts only
(grader/release/compile.py).
"""

import numpy as np
import torch

from .. import reference
from ..checks import fixture
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import array_of, close, diagnose, finite, queries_keys_swapped, read_source, show
from ..checks.misconceptions import Misconception
from ..checks.plain import TensorArg, call, numpy_call
from ..hidden import known
from ..hidden.edits import edit, reference_cell
from ..hidden.randomised import batched, random_array
from ..hidden.wrong_answers import Wrong, making

NOTEBOOK = "02_self_attention_step_by_step.ipynb"

# The misconceptions first met in this notebook, in words for the student and the instructor.
MISCONCEPTIONS = (
    Misconception(
        "sum_over_features",
        "summing each weighted value over its features instead of over the keys",
        "It looks like you summed each weighted value over its features. The output for a query "
        "is the sum of its weighted values over the keys: add up the rows, keeping the feature "
        "dimension.",
        "Summed each weighted value over its features instead of adding the weighted values up over the keys.",
    ),
)

# The source rounds the softmax of the notebook's example scores to these weights, for readability.
APPROXIMATE_WEIGHTS = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]], dtype=np.float32)
# The notebook's example weights and self-attention output, as the notebook prints them (to 4 decimals).
PRINTED_WEIGHTS = np.array(
    [[0.063379, 0.46831, 0.46831], [6.0337e-06, 0.98201, 0.017986], [2.9539e-04, 0.88054, 0.11917]]
)
PRINTED_OUTPUT = np.array([[1.9366, 6.6831, 1.5951], [2.0, 7.964, 0.054], [1.9997, 7.7599, 0.3584]])
PRINTED_ATOL = 1e-4


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
    raise Mismatch(
        f"{what}: each row (one query's weights) should be non-negative and sum to 1.",
        expected="row sums of 1",
        got=f"row sums {show(sums)}",
        misconception=key,
    )


def swapped_axes(what, expected, got):
    """The mismatch of a weighted-values answer laid out (n_keys, n_queries, d_v), not (n_queries, n_keys, d_v)."""
    return Mismatch(
        f"{what} has its first two axes swapped: index it as [query, key, feature], so that "
        f"entry [i, j] is weights[i, j] * values[j].",
        expected=expected,
        got=got,
    )


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
    for label, scores, is_batch, large in [
        ("the notebook's example scores", fixture.SCORES, False, False),
        ("2 queries and 5 keys", RNG.standard_normal((2, 5)), False, False),
        ("one query and 4 keys", RNG.standard_normal((1, 4)), False, False),
        ("a batch of score matrices (2, 3, 4)", batch, True, False),
        ("large scores [[1000, 990, 1000], [-5, 800, 0]]", LARGE_SCORES, False, True),
    ]:
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
        (
            "weights (2, 3) and values (3, 4)",
            np.full((2, 3), 0.25, np.float32),
            np.arange(12, dtype=np.float32).reshape(3, 4),
            False,
        ),
        (
            "one query: weights (1, 3) and values (3, 2)",
            np.full((1, 3), 1 / 3, np.float32),
            np.arange(6, dtype=np.float32).reshape(3, 2),
            False,
        ),
        (
            "a batch: weights (2, 3, 4) and values (2, 4, 5)",
            np.full((2, 3, 4), 0.25, np.float32),
            np.arange(40, dtype=np.float32).reshape(2, 4, 5),
            True,
        ),
    ]:
        shape = (*weights.shape, values.shape[-1])

        def judge(outcome, shape=shape):
            swapped_axes_hint(outcome, shape, "weighted_values(weights, values)")
            array_of(outcome, "Tensor", shape, "floating", "weighted_values(weights, values)")

        cases.append(Case(label, judge, call(weights, values), batch=weights.shape if is_batch else None))
    return cases


def _sum_visible():
    cases = []
    for label, shape, is_batch in [
        ("weighted values of shape (2 queries, 3 keys, 4 features)", (2, 3, 4), False),
        ("one query: weighted values of shape (1, 3, 2)", (1, 3, 2), False),
        ("a batch of weighted values of shape (2, 3, 4, 5)", (2, 3, 4, 5), True),
    ]:
        weighted = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 10

        def judge(outcome, weighted=weighted):
            array_diagnosed(
                outcome,
                "Tensor",
                (*weighted.shape[:-2], weighted.shape[-1]),
                f"sum_weighted_values on weighted values of shape {weighted.shape}",
                diagnoses=[("sum_over_features", weighted.sum(axis=-1))],
            )

        cases.append(Case(label, judge, call(weighted), batch=shape if is_batch else None))
    return cases


def _softmax_of_rows(scores):
    """Each row of ``scores`` turned into weights by torch's softmax, in float64: for the known mistakes' outputs on
    the example."""
    return torch.softmax(torch.from_numpy(np.asarray(scores, dtype=np.float64)), dim=-1).numpy()


def _example_mistakes():
    """What the known mistakes give on the notebook's example, worked out from its printed numbers."""
    queries, keys, values = (a.astype(np.float64) for a in (fixture.QUERIES, fixture.KEYS, fixture.VALUES))
    columns = _softmax_of_rows(fixture.SCORES.astype(np.float64).T).T  # weights that sum to 1 down each column
    return [
        ("scores_no_transpose", _softmax_of_rows(queries @ keys) @ values),  # keys not transposed
        ("softmax_dim0", columns @ values),
        ("sum_over_features", PRINTED_WEIGHTS * values.sum(axis=-1)),
    ]  # each weighted value summed over features


def _attention_visible():
    rng = np.random.default_rng(0)
    x, w_query, w_key = rng.integers(0, 3, (2, 4)), rng.integers(0, 3, (4, 3)), rng.integers(0, 3, (4, 3))
    w_value = rng.integers(0, 3, (4, 5))
    small = [a.astype(np.float32) for a in (x, w_query, w_key, w_value)]
    weights = (fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)
    batch = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    copies = np.stack([fixture.X, fixture.X])
    # Unscaled, as this notebook is: what dividing the scores by sqrt(d_k) = sqrt(3) gives instead.
    scaled = _softmax_of_rows(fixture.SCORES.astype(np.float64) / np.sqrt(3)) @ fixture.VALUES
    # Softmax without dim normalises a batch's scores across the batch: 1/2 for each of two copies, so every
    # output row is half the sum of the values.
    across_batch = np.broadcast_to(fixture.VALUES.astype(np.float64).sum(axis=0) / 2, (2, 3, 3))
    cases = []
    for label, args, shape, is_batch, large, expected, diagnoses in [
        ("the notebook's example", (fixture.X, *weights), (3, 3), False, False, PRINTED_OUTPUT, _example_mistakes()),
        ("x (2, 4), w_query and w_key (4, 3), w_value (4, 5)", small, (2, 5), False, False, None, []),
        ("one token: x (1, 4)", (fixture.X[:1], *weights), (1, 3), False, False, None, []),
        ("a batch: x (2, 3, 4)", (batch, *weights), (2, 3, 3), True, False, None, []),
        (
            "a batch of two copies of the notebook's example x",
            (copies, *weights),
            (2, 3, 3),
            True,
            False,
            np.stack([PRINTED_OUTPUT, PRINTED_OUTPUT]),
            [("softmax_implicit_dim", across_batch)],
        ),
        (
            "large scores: the notebook's example x times 6 (scores up to 576)",
            (fixture.X * 6, *weights),
            (3, 3),
            False,
            True,
            None,
            [],
        ),
    ]:

        def judge(outcome, shape=shape, large=large, expected=expected, diagnoses=diagnoses, label=label):
            what = f"self_attention(x, w_query, w_key, w_value) on {label}"
            got = array_diagnosed(outcome, "Tensor", shape, what, diagnoses)
            if large:
                finite(got, what)
            if expected is None:
                return
            if shape == (3, 3) and np.allclose(got, scaled, atol=PRINTED_ATOL):
                hint = (
                    f"{what} looks scaled by 1/sqrt(d_k). This exercise follows the notebook step by step: "
                    "softmax of the raw scores, no scaling (scaling comes in notebook 03)."
                )
                raise Mismatch(hint, expected=show(expected), got=show(got))
            close(got, expected, what, atol=PRINTED_ATOL, diagnoses=diagnoses)

        cases.append(Case(label, judge, call(*args), batch=(2, 3, 4) if is_batch else None))
    return [*cases, _exchanged_weights()]


def _exchanged_weights():
    """The example's scores are symmetric, so queries and keys swapped give its output all the same. With the key and
    value weights exchanged, the keys are the example's values and the values its keys: the scores queries @ values.T
    are not symmetric, and the swap transposes them."""
    queries, keys, values = (a.astype(np.float64) for a in (fixture.QUERIES, fixture.KEYS, fixture.VALUES))
    expected = _softmax_of_rows(queries @ values.T) @ keys
    swapped = _softmax_of_rows(values @ queries.T) @ keys
    label = "the notebook's example x and w_query, with w_key and w_value exchanged"

    def judge(outcome):
        what = f"self_attention(x, w_query, w_key, w_value) on {label}"
        got = array_of(outcome, "Tensor", (3, 3), "floating", what)
        queries_keys_swapped(got, swapped, expected, what, atol=PRINTED_ATOL)
        close(got, expected, what, atol=PRINTED_ATOL)

    return Case(label, judge, call(fixture.X, fixture.W_QUERY, fixture.W_VALUE, fixture.W_KEY))


def heatmap_axes(outcome, what, not_shown=True):
    """The plots of a returned figure (its colour bars left out), once it is a figure (that was not shown)."""
    if outcome.get("type") != "Figure":
        hint = " (add `return fig` at the end)" if outcome.get("type") == "NoneType" else ""
        raise Mismatch(
            f"{what} should return the matplotlib Figure it drew{hint}.",
            expected="a matplotlib.figure.Figure",
            got=f"a value of type {outcome.get('type')}",
        )
    if not_shown and outcome.get("shown"):
        raise Mismatch(f"{what} called plt.show(); return the figure instead and let the caller show it.")
    return [ax for ax in outcome["axes"] if not ax["colorbar"]]


def one_image_each(plots, count, what):
    """``count`` plots, each holding exactly one image."""
    if len(plots) != count:
        raise Mismatch(
            f"{what} should draw one plot per matrix.",
            expected=f"{count} plot(s)",
            got=f"{len(plots)} plot(s), colour bars not counted",
        )
    for plot in plots:
        if len(plot["images"]) != 1:
            raise Mismatch(
                f"{what}: every plot should hold exactly one image (draw it with ax.imshow).",
                expected="1 image per plot",
                got=f"{len(plot['images'])} image(s) in a plot",
            )


def grid_of(plots, rows, cols, what):
    """The plots by (row, column), from their place in the subplot grid."""
    grid = {}
    for plot in plots:
        position = plot["position"]
        if position is None or tuple(position[:2]) != (rows, cols):
            raise Mismatch(
                f"{what}: the plots should form a grid of {rows} row(s) and {cols} column(s) "
                "(plt.subplots(num_rows, num_cols, squeeze=False)).",
                expected=f"a {rows} x {cols} grid",
                got="a plot outside a grid" if position is None else f"a plot in a {position[0]} x {position[1]} grid",
            )
        grid[divmod(position[2], cols)] = plot
    if len(grid) != rows * cols:
        raise Mismatch(
            f"{what}: every place in the grid should hold one plot.",
            expected=f"{rows * cols} places filled",
            got=f"{len(grid)} places filled",
        )
    return grid


def layout_judge(matrices, titles, what):
    rows, cols = matrices.shape[:2]

    def judge(outcome):
        plots = heatmap_axes(outcome, what, not_shown=False)
        grid = grid_of(plots, rows, cols, what)
        for (i, j), plot in sorted(grid.items()):
            want = {
                "xlabel": "Keys" if i == rows - 1 else "",
                "ylabel": "Queries" if j == 0 else "",
                "title": titles[j] if titles else "",
            }
            for field, expected in want.items():
                if plot[field] != expected:
                    rule = {
                        "xlabel": "the x label goes on the bottom row only",
                        "ylabel": "the y label goes on the first column only",
                        "title": "titles[j] goes on every plot of column j (no title when titles is None)",
                    }
                    raise Mismatch(
                        f"{what}: wrong {field} in row {i}, column {j}; {rule[field]}.",
                        expected=repr(expected),
                        got=repr(plot[field]),
                    )
        bars = sum(ax["colorbar"] for ax in outcome["axes"])
        if bars != 1:
            raise Mismatch(
                f"{what}: the grid should share exactly one colour bar (fig.colorbar(image, ax=axes)).",
                expected="1 colour bar",
                got=f"{bars} colour bar(s)",
            )

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
                raise Mismatch(
                    f"{what}: the image in row {i}, column {j} has the wrong shape (queries down, keys across).",
                    expected=f"shape {matrices.shape[2:]}",
                    got=f"shape {image.shape}",
                )
            close(image, matrices[i, j], f"{what}: the image in row {i}, column {j}")

    return judge


IDENTITY = np.eye(10, dtype=np.float32).reshape(1, 1, 10, 10)  # torch.eye(10).reshape(1, 1, 10, 10)
SHOWING = frozenset({"show", "display", "pause"})  # pyplot.show, Figure.show, IPython's display, plt.pause


def not_shown_in_source(outcome):
    """show_heatmaps' code, read from the notebook, never shows the figure, by whatever name."""
    found = read_source(outcome, "show_heatmaps")
    calls = sorted(
        {use for use in found["uses"] if use.rsplit(".", 1)[-1] in SHOWING}
        | {f".{name}" for name in found["attributes"] if name in SHOWING}
        | {name for name in found["unresolved"] if name in SHOWING}
    )
    hidden = [way for way in found["dynamic"] if way in ("eval", "exec", "compile") or "computed" in way]
    if calls or hidden:
        raise Mismatch(
            "show_heatmaps shows the figure; return it instead and let the caller show it.",
            expected="no show() or display()",
            got="calls " + ", ".join(calls + hidden),
        )


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

    return [
        Case("torch.eye(10).reshape(1, 1, 10, 10)", judge, call(IDENTITY, "Keys", "Queries"), probe="heatmap"),
        Case(
            "a NumPy array of shape (2, 3, 3, 4) with titles: labels on the outer plots, one colour bar",
            grid_judge,
            numpy_call(grid, "Keys", "Queries", titles=titles),
            probe="heatmap",
        ),
        Case(
            "the code of show_heatmaps, read from the notebook",
            not_shown_in_source,
            {"name": "show_heatmaps"},
            probe="source",
        ),
    ]


# ---- hidden: known outputs ----
APPROXIMATE_OUTPUT = np.array([[2.0, 7.0, 1.5], [2.0, 8.0, 0.0], [2.0, 7.8, 0.3]])
APPROXIMATE_OUTPUT_QUERY0 = np.array([2.0, 7.0, 1.5])
APPROXIMATE_WEIGHTED_VALUES_QUERY0 = np.array([[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]])
SUM_OVER_FEATURES_QUERY0 = np.array([0.3803, 4.6831, 5.1514])  # the sum_over_features mistake, query 0
WEIGHTED_VALUES_QUERY0 = np.array([[0.0634, 0.1268, 0.1901], [0.9366, 3.7465, 0.0], [0.9366, 2.8099, 1.4049]])

# ---- hidden checks ----
ref = reference.of(NOTEBOOK)

# The whole pipeline (two products and a softmax) is compared a little more loosely than one operation.
PIPELINE_TOL = {"rtol": 1e-4, "atol": 1e-5}


def _softmax(a, axis):
    a = np.asarray(a, dtype=np.float64)
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _implicit_dim(ndim):
    """The dimension torch.softmax picks when called without dim (with a warning)."""
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_diagnoses(scores):
    """Wrong weights from the scores: softmax over the batch's implicit dimension, over the queries or dim 0."""
    diagnoses = []
    if scores.ndim > 2:
        diagnoses.append(("softmax_implicit_dim", _softmax(scores, _implicit_dim(scores.ndim))))
    diagnoses += [("softmax_dim0", _softmax(scores, 0)), ("softmax_dim0", _softmax(scores, -2))]
    return diagnoses


def _torch(fn, *arrays):
    return fn(*(torch.from_numpy(np.asarray(a)) for a in arrays)).numpy()


# attention_weights


def _weights_known():
    def judge(outcome):
        got = array_of(outcome, "Tensor", (3, 3), "floating", "attention_weights on the notebook's example scores")
        close(
            got,
            known.SOFTMAX,
            "attention_weights on the notebook's example scores",
            atol=known.SOURCE_ATOL,
            diagnoses=[("softmax_dim0", _softmax(fixture.SCORES, 0))],
        )

    return [Case("the notebook's example scores", judge, call(fixture.SCORES))]


def _weights_cases(shapes, seed):
    cases = []
    for offset, shape in enumerate(shapes):
        scores = random_array(np.random.default_rng(seed + offset), *shape, scale=3.0)
        expected = _torch(ref.attention_weights, scores)
        what = f"attention_weights on scores of shape {shape}"

        def judge(outcome, expected=expected, scores=scores, what=what):
            got = array_diagnosed(outcome, "Tensor", expected.shape, what, _softmax_diagnoses(scores))
            close(got, expected, what, diagnoses=_softmax_diagnoses(scores))
            rows_sum_to_one(got, what)

        cases.append(batched(Case(f"random scores {shape}", judge, call(scores)), scores.shape, 2))
    return cases


# weighted_values


def _swapped_layout(got, weights, values):
    """The source's first layout: entry [j, i] = weights[i, j] * values[j]."""
    swapped = np.swapaxes(_torch(ref.weighted_values, weights, values), -3, -2)
    return got.shape == swapped.shape and np.allclose(got, swapped, rtol=1e-5, atol=1e-6)


def _weighted_judge(weights, values, what, query0=None, atol=1e-6):
    expected = _torch(ref.weighted_values, weights, values)

    def judge(outcome):
        swapped_axes_hint(outcome, expected.shape, what)
        got = array_of(outcome, "Tensor", expected.shape, "floating", what)
        if _swapped_layout(got, weights, values) and not np.allclose(got, expected, rtol=1e-5, atol=1e-6):
            raise swapped_axes(what, show(expected), show(got))
        if query0 is not None:
            close(got[0], query0, f"{what}, query 0", atol=atol)
        close(got, expected, what, atol=max(atol, 1e-6))

    return judge


def _weighted_known():
    exact = _torch(ref.attention_weights, fixture.SCORES)
    return [
        Case(
            "the notebook's approximate weights and the notebook's example values",
            _weighted_judge(
                APPROXIMATE_WEIGHTS,
                fixture.VALUES,
                "weighted_values with the approximate weights",
                APPROXIMATE_WEIGHTED_VALUES_QUERY0,
                known.SOURCE_ATOL,
            ),
            call(APPROXIMATE_WEIGHTS, fixture.VALUES),
        ),
        Case(
            "the notebook's example exact weights and values",
            _weighted_judge(
                exact,
                fixture.VALUES,
                "weighted_values with the exact weights",
                WEIGHTED_VALUES_QUERY0,
                known.SOURCE_ATOL,
            ),
            call(exact, fixture.VALUES),
        ),
    ]


def _weighted_cases(shapes, seed):
    cases = []
    for offset, (batch, n, m, d) in enumerate(shapes):
        rng = np.random.default_rng(seed + offset)
        weights = _softmax(random_array(rng, *batch, n, m), -1).astype(np.float32)
        values = random_array(rng, *batch, m, d)
        what = f"weighted_values on weights {weights.shape} and values {values.shape}"
        case = Case(
            f"random weights {weights.shape} and values {values.shape}",
            _weighted_judge(weights, values, what),
            call(weights, values),
        )
        cases.append(batched(case, weights.shape, 2))
    return cases


# sum_weighted_values


def _sum_judge(weighted, what, known_output=None, atol=1e-6):
    expected = _torch(ref.sum_weighted_values, weighted)
    diagnoses = [("sum_over_features", weighted.astype(np.float64).sum(axis=-1))]

    def judge(outcome):
        got = array_diagnosed(outcome, "Tensor", expected.shape, what, diagnoses)
        if known_output is not None:
            close(got, known_output, what, atol=atol, diagnoses=diagnoses)
        close(got, expected, what, diagnoses=diagnoses)

    return judge


def _sum_known():
    approximate = _torch(ref.weighted_values, APPROXIMATE_WEIGHTS, fixture.VALUES)
    exact = _torch(ref.weighted_values, _torch(ref.attention_weights, fixture.SCORES), fixture.VALUES)
    features_query0 = [
        (
            "sum_over_features",
            lambda got: got.shape == (3, 3) and np.allclose(got[0], SUM_OVER_FEATURES_QUERY0, atol=known.SOURCE_ATOL),
        )
    ]

    def exact_judge(outcome):
        what = "sum_weighted_values on the notebook's example exact weighted values"
        got = array_of(outcome, "Tensor", (3, 3), "floating", what)
        close(got, known.OUTPUT, what, atol=known.SOURCE_ATOL, diagnoses=features_query0)

    def approximate_judge(outcome):
        what = "sum_weighted_values with the approximate weights"
        got = array_of(outcome, "Tensor", (3, 3), "floating", what)
        close(
            got[0],
            APPROXIMATE_OUTPUT_QUERY0,
            what + ", query 0",
            atol=known.SOURCE_ATOL,
            diagnoses=[("sum_over_features", approximate[0].astype(np.float64).sum(axis=-1))],
        )
        close(got, APPROXIMATE_OUTPUT, what, atol=known.SOURCE_ATOL)

    return [
        Case("the weighted values of the approximate weights", approximate_judge, call(approximate)),
        Case("the notebook's example exact weighted values", exact_judge, call(exact)),
    ]


def _sum_cases(shapes, seed):
    cases = []
    for offset, shape in enumerate(shapes):
        weighted = random_array(np.random.default_rng(seed + offset), *shape)
        what = f"sum_weighted_values on weighted values of shape {shape}"
        case = Case(f"random weighted values {shape}", _sum_judge(weighted, what), call(weighted))
        cases.append(batched(case, weighted.shape, 3))
    return cases


# self_attention


def _attention_diagnoses(x, w_query, w_key, w_value):
    """Whole-pipeline answers of the known mistakes, in float64."""
    x, w_query, w_key, w_value = (np.asarray(a, dtype=np.float64) for a in (x, w_query, w_key, w_value))
    queries, keys, values = x @ w_query, x @ w_key, x @ w_value
    scores = queries @ np.swapaxes(keys, -2, -1)
    diagnoses = [(key, weights @ values) for key, weights in _softmax_diagnoses(scores)]
    diagnoses.append(("sum_over_features", _softmax(scores, -1) * values.sum(axis=-1)[..., None, :]))
    if queries.shape[-1] == keys.shape[-2]:
        diagnoses.append(("scores_no_transpose", _softmax(queries @ keys, -1) @ values))
    return diagnoses


def _attention_judge(args, what, known_output=None):
    x, w_query, w_key, w_value = (np.asarray(a, dtype=np.float64) for a in args)
    expected = _softmax((x @ w_query) @ np.swapaxes(x @ w_key, -2, -1), -1) @ (x @ w_value)
    scaled = _softmax((x @ w_query) @ np.swapaxes(x @ w_key, -2, -1) / np.sqrt(w_key.shape[-1]), -1) @ (x @ w_value)
    diagnoses = _attention_diagnoses(*args)

    def judge(outcome):
        got = array_diagnosed(outcome, "Tensor", expected.shape, what, diagnoses)
        if np.allclose(got, scaled, **PIPELINE_TOL) and not np.allclose(got, expected, **PIPELINE_TOL):
            raise Mismatch(
                f"{what} looks scaled by 1/sqrt(d_k). This exercise follows the notebook step by step: "
                "softmax of the raw scores, no scaling (scaling comes in notebook 03).",
                expected=show(expected),
                got=show(got),
            )
        if known_output is not None:
            close(got, known_output, what, atol=known.SOURCE_ATOL, diagnoses=diagnoses)
        close(got, expected, what, diagnoses=diagnoses, **PIPELINE_TOL)

    return judge


def _attention_known():
    args = (fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)
    judge = _attention_judge(args, "self_attention on the notebook's example", known.OUTPUT)
    return [Case("the notebook's example", judge, call(*args))]


def _attention_cases(shapes, seed):
    cases = []
    for offset, (batch, n, d_in, d_k, d_v) in enumerate(shapes):
        rng = np.random.default_rng(seed + offset)
        x = random_array(rng, *batch, n, d_in)
        weights = [random_array(rng, d_in, d, scale=0.5) for d in (d_k, d_k, d_v)]
        what = f"self_attention on x {x.shape}, w_query and w_key ({d_in}, {d_k}), w_value ({d_in}, {d_v})"
        case = Case(f"random x {x.shape} and weights", _attention_judge((x, *weights), what), call(x, *weights))
        cases.append(batched(case, x.shape, 2))
    return cases


# show_heatmaps


def _heatmap_case(label, matrices, judge, as_tensor=True, **kwargs):
    given = TensorArg(matrices) if as_tensor else matrices
    args = (given, kwargs.pop("xlabel", "Keys"), kwargs.pop("ylabel", "Queries"))
    return Case(label, judge, {"args": args, "kwargs": kwargs}, probe="heatmap")


def _heatmap_known():
    what = "show_heatmaps(torch.eye(10).reshape(1, 1, 10, 10), 'Keys', 'Queries')"
    images, layout = images_judge(IDENTITY, what), layout_judge(IDENTITY, None, what)

    def judge(outcome):
        images(outcome)
        layout(outcome)

    return [_heatmap_case("torch.eye(10).reshape(1, 1, 10, 10)", IDENTITY, judge)]


def _heatmap_images(shapes, as_tensor, seed):
    cases = []
    for offset, shape in enumerate(shapes):
        matrices = _softmax(random_array(np.random.default_rng(seed + offset), *shape), -1).astype(np.float32)
        kind = "tensor" if as_tensor else "NumPy array"
        what = f"show_heatmaps on a {kind} of shape {shape}"
        cases.append(
            _heatmap_case(f"a random {kind} of shape {shape}", matrices, images_judge(matrices, what), as_tensor)
        )
    return cases


def _heatmap_random():
    return _heatmap_images([(2, 3, 4, 5), (3, 1, 3, 3), (1, 4, 2, 6)], as_tensor=True, seed=500)


def _heatmap_numpy():
    return _heatmap_images([(3, 2, 5, 4), (1, 1, 6, 6)], as_tensor=False, seed=505)


def _heatmap_layout():
    cases = []
    for seed, (shape, titles) in enumerate(
        [((2, 3, 3, 3), ["first", "second", "third"]), ((3, 1, 2, 2), None), ((2, 2, 3, 4), ("exact", "approximate"))]
    ):
        matrices = _softmax(random_array(np.random.default_rng(510 + seed), *shape), -1).astype(np.float32)
        what = f"show_heatmaps on a grid of shape {shape[:2]} with titles={titles!r}"
        kwargs = {} if titles is None else {"titles": titles}
        cases.append(
            _heatmap_case(
                f"a {shape[0]} x {shape[1]} grid, titles={titles!r}",
                matrices,
                layout_judge(matrices, titles, what),
                **kwargs,
            )
        )
    return cases


# ---- hidden: wrong answers, as edits of the reference cells (grader/hidden/edits.py) ----
# The bases of families of wrong answers. Reference cells that call another exercise, with the call written out
# (a wrong answer runs on its own); MASK is causal_mask(scores) written out.
SELF_ATTENTION = edit(reference_cell("self_attention"), ("attention_weights(scores)", "torch.softmax(scores, dim=-1)"))
WEIGHTED = "weights.unsqueeze(-1) * values.unsqueeze(-3)  # (..., n, m, 1) * (..., 1, m, d_v)"

WRONG_ANSWERS = (
    *making(
        "scores_no_transpose",
        Wrong("self_attention", "attention_no_transpose", edit(SELF_ATTENTION, ("keys.transpose(-2, -1)", "keys"))),
    ),
    *making(
        "softmax_dim0",
        Wrong(
            "attention_weights",
            "weights_dim0",
            edit(reference_cell("attention_weights"), ("dim=-1", "dim=0")),
            demo=True,
        ),
        Wrong(
            "attention_weights",
            "weights_dim1",
            edit(
                reference_cell("attention_weights"),
                ("dim=-1)", "dim=1)  # right on one matrix; on a batch, dimension 1 is the queries"),
            ),
        ),
    ),
    *making(
        "softmax_implicit_dim",
        Wrong(
            "attention_weights",
            "weights_no_dim",
            edit(reference_cell("attention_weights"), ("torch.softmax(scores, dim=-1)", "F.softmax(scores)")),
            demo=True,
        ),
        Wrong(
            "self_attention",
            "attention_no_dim",
            edit(SELF_ATTENTION, ("torch.softmax(scores, dim=-1)", "F.softmax(scores)")),
        ),
    ),
    *making(
        "sum_over_features",
        Wrong(
            "sum_weighted_values",
            "sum_features",
            edit(reference_cell("sum_weighted_values"), ("dim=-2", "dim=-1")),
            demo=True,
        ),
        Wrong(
            "self_attention",
            "attention_sum_features",
            edit(
                SELF_ATTENTION,
                (
                    "return torch.softmax(scores, dim=-1) @ values  # (..., n, d_v)",
                    "weights = torch.softmax(scores, dim=-1)  # (..., n, n)\n"
                    "    return (weights.unsqueeze(-1) * values.unsqueeze(-3)).sum(dim=-1)  # (..., n, n)",
                ),
            ),
        ),
    ),
    *making(
        "softmax_unstable",
        Wrong(
            "attention_weights",
            "weights_unstable",
            edit(
                reference_cell("attention_weights"),
                (
                    "return torch.softmax(scores, dim=-1)",
                    "e = torch.exp(scores)  # inf / inf = nan for scores in the hundreds\n"
                    "    return e / e.sum(-1, keepdim=True)",
                ),
            ),
        ),
        Wrong(
            "self_attention",
            "attention_unstable",
            edit(
                SELF_ATTENTION,
                (
                    "return torch.softmax(scores, dim=-1) @ values",
                    "e = torch.exp(scores)  # overflows once the unscaled scores reach the hundreds\n"
                    "    return e / e.sum(-1, keepdim=True) @ values",
                ),
            ),
        ),
        Wrong(
            "attention_weights",
            "weights_global_max",
            edit(
                reference_cell("attention_weights"),
                (
                    "return torch.softmax(scores, dim=-1)",
                    "e = torch.exp(scores - scores.max())  # one maximum for the whole tensor\n"
                    "    return e / e.sum(-1, keepdim=True)",
                ),
            ),
        ),
        Wrong(
            "self_attention",
            "attention_global_max",
            edit(
                SELF_ATTENTION,
                (
                    "return torch.softmax(scores, dim=-1) @ values",
                    "e = torch.exp(scores - scores.max())  # one maximum for the whole tensor\n"
                    "    return e / e.sum(-1, keepdim=True) @ values",
                ),
            ),
        ),
    ),
    # Mistakes that no misconception of the catalogue names.
    Wrong(
        "self_attention",
        "attention_queries_from_w_key",
        edit(
            SELF_ATTENTION, ("queries = x @ w_query", "queries = x @ w_key"), ("keys = x @ w_key", "keys = x @ w_query")
        ),
    ),
    Wrong(
        "attention_weights",
        "weights_hard_coded",
        """\
def attention_weights(scores):
    return torch.tensor([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                         [6.0337e-06, 9.8201e-01, 1.7986e-02],
                         [2.9539e-04, 8.8054e-01, 1.1917e-01]])
""",
    ),
    Wrong(
        "weighted_values",
        "weighted_transposed",
        edit(
            reference_cell("weighted_values"),
            (WEIGHTED, "values[:, None] * weights.T[:, :, None]  # seed 000's layout: [key, query, feature]"),
        ),
    ),
    Wrong(
        "weighted_values",
        "weighted_seed004",
        edit(
            reference_cell("weighted_values"),
            (WEIGHTED, "values * weights.unsqueeze(-1)  # seed 004's line: right on one matrix, wrong on a batch"),
        ),
    ),
    Wrong(
        "weighted_values",
        "weighted_hard_coded",
        """\
def weighted_values(weights, values):
    return torch.tensor([[[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]]] * 3)
""",
    ),
    Wrong(
        "weighted_values",
        "weighted_matrix_product",
        edit(
            reference_cell("weighted_values"),
            (WEIGHTED, "weights @ values  # already sums over the keys: the wrong shape"),
        ),
    ),
    Wrong(
        "sum_weighted_values",
        "sum_dim0",
        edit(
            reference_cell("sum_weighted_values"),
            ("dim=-2)", "dim=0)  # seed 000's sum, meant for its transposed layout"),
        ),
    ),
    Wrong(
        "sum_weighted_values",
        "sum_dim1",
        edit(
            reference_cell("sum_weighted_values"),
            ("dim=-2)", "dim=1)  # right on one query-key-feature array, wrong on a batch"),
        ),
    ),
    Wrong(
        "sum_weighted_values",
        "sum_hard_coded",
        """\
def sum_weighted_values(weighted):
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
""",
    ),
    Wrong(
        "self_attention",
        "attention_dot_t",
        edit(
            SELF_ATTENTION,
            (
                "keys.transpose(-2, -1)  # (..., n, n)",
                "keys.T  # .T reverses every dimension of a batch: right on one sequence only",
            ),
        ),
    ),
    Wrong(
        "self_attention",
        "attention_scaled",
        edit(
            SELF_ATTENTION,
            (
                "keys.transpose(-2, -1)  # (..., n, n)",
                "keys.transpose(-2, -1) / keys.shape[-1] ** 0.5  # scaled, but this notebook follows the source: "
                "unscaled",
            ),
        ),
    ),
    Wrong(
        "self_attention",
        "attention_hard_coded",
        '''\
def self_attention(x, w_query, w_key, w_value):
    """Self-attention, steps 1-7."""
    return torch.tensor([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
''',
        demo=True,
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_seed",
        '''\
def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """The source's version: returns nothing and needs a tensor."""
    num_rows, num_cols, _, _ = matrices.shape
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, sharex=True, sharey=True, squeeze=False)
    for i, (row_axes, row_matrices) in enumerate(zip(axes, matrices)):
        for j, (ax, matrix) in enumerate(zip(row_axes, row_matrices)):
            pcm = ax.imshow(matrix.detach().numpy(), cmap=cmap)
            if i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
    fig.colorbar(pcm, ax=axes, shrink=0.6)
''',
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_tensor_only",
        '''\
def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    """Returns the figure, but `.detach().numpy()` fails on a NumPy array: partial credit."""
    num_rows, num_cols = matrices.shape[:2]
    fig, axes = plt.subplots(num_rows, num_cols, figsize=figsize, squeeze=False)
    for i in range(num_rows):
        for j in range(num_cols):
            image = axes[i][j].imshow(matrices[i][j].detach().numpy(), cmap=cmap)
            if i == num_rows - 1:
                axes[i][j].set_xlabel(xlabel)
            if j == 0:
                axes[i][j].set_ylabel(ylabel)
            if titles:
                axes[i][j].set_title(titles[j])
    fig.colorbar(image, ax=axes)
    return fig
''',
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_every_label",
        edit(
            reference_cell("show_heatmaps"),
            ("if i == num_rows - 1:\n                ax.set_xlabel", "ax.set_xlabel"),
            ("if j == 0:\n                ax.set_ylabel", "ax.set_ylabel"),
        ),
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_bar_each",
        edit(
            reference_cell("show_heatmaps"),
            (
                "                ax.set_title(titles[j])\n",
                "                ax.set_title(titles[j])\n            fig.colorbar(image, ax=ax)\n",
            ),
            ("    fig.colorbar(image, ax=axes, shrink=0.6)\n", ""),
        ),
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_shows",
        edit(reference_cell("show_heatmaps"), ("    return fig", "    plt.show()\n    return fig")),
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_squeezed",
        edit(
            reference_cell("show_heatmaps"),
            (", squeeze=False", ""),
            ("axes[i, j]", "axes[i][j]  # one Axes for a 1 x 1 grid, a 1-D array for one row or column"),
        ),
    ),
    Wrong(
        "show_heatmaps",
        "heatmaps_hard_coded",
        """\
def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):
    fig, ax = plt.subplots(figsize=figsize)
    image = ax.imshow(np.eye(10), cmap=cmap)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.colorbar(image, ax=ax)
    return fig
""",
    ),
)


PARTS = {
    "attention_weights": [
        Part(
            "float weights of shape (..., n_queries, n_keys); rows sum to 1, also on a batch and on large scores",
            1,
            _weights_visible,
            requires={"shape", "edge", "batch", "large"},
        ),
        *known_random_batches(
            ("the notebook's example softmax", "random score matrices", "batches of scores"),
            _weights_known,
            _weights_cases,
            random=([(4, 4), (3, 5), (6, 2), (1, 7)], 100),
            batches=([(2, 3, 4), (5, 3, 3), (2, 3, 4, 5), (2, 1, 2, 3, 3)], 110),
            random_requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "weighted_values": [
        Part(
            "a float tensor of shape (..., n_queries, n_keys, d_v)",
            1,
            _weighted_visible,
            requires={"shape", "edge", "batch"},
        ),
        *known_random_batches(
            ("the notebook's weighted values", "random weights and values", "batches"),
            _weighted_known,
            _weighted_cases,
            random=([((), 2, 3, 4), ((), 5, 4, 2), ((), 4, 4, 4), ((), 1, 6, 3)], 200),
            batches=([((2,), 3, 4, 5), ((3,), 4, 4, 4), ((2, 3), 2, 5, 3)], 210),
            random_requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "sum_weighted_values": [
        Part("a float tensor of shape (..., n_queries, d_v)", 1, _sum_visible, requires={"shape", "edge", "batch"}),
        *known_random_batches(
            ("the notebook's outputs", "random weighted values", "batches"),
            _sum_known,
            _sum_cases,
            random=([(2, 3, 4), (4, 5, 5), (5, 2, 3), (1, 6, 2)], 300),
            batches=([(2, 3, 4, 5), (3, 2, 4, 4), (2, 2, 3, 5, 2)], 310),
            random_requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "self_attention": [
        Part(
            "the notebook's example output, also for a batch of copies of it; a float tensor of shape "
            "(..., n, d_v); finite on large scores",
            1,
            _attention_visible,
            requires={"shape", "edge", "batch", "large"},
        ),
        *known_random_batches(
            ("the notebook's example output", "random inputs and weights", "batches of sequences"),
            _attention_known,
            _attention_cases,
            random=([((), 4, 5, 4, 3), ((), 5, 3, 2, 6), ((), 3, 4, 3, 3), ((), 1, 4, 3, 2)], 400),
            batches=([((2,), 3, 4, 3, 5), ((3,), 4, 5, 4, 4), ((2, 3), 3, 4, 2, 3)], 410),
            random_requires={"edge", "shape"},
            hidden=True,
        ),
    ],
    "show_heatmaps": [
        Part(
            "returns a Figure it does not show: one image per matrix, labels on the outer plots, "
            "titles per column, one colour bar; tensors and NumPy arrays",
            1,
            _heatmap_visible,
            requires={"shape", "layout", "numpy", "policy"},
        ),
        Part("the identity heatmap", 1, _heatmap_known, requires={"layout"}, hidden=True),
        Part(
            "random grids: one image per matrix, in its place",
            1,
            _heatmap_random,
            gate=True,
            requires={"shape"},
            hidden=True,
        ),
        Part("a NumPy array works as well as a tensor", 1, _heatmap_numpy, requires={"numpy", "shape"}, hidden=True),
        Part(
            "labels on the outer plots, titles per column, one shared colour bar",
            1,
            _heatmap_layout,
            requires={"layout", "shape"},
            hidden=True,
        ),
    ],
}
