"""Hidden checks for 02_self_attention_step_by_step."""
import numpy as np
import torch

from ..checks import fixture
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import array_of, close, show
from ..checks.plain import TensorArg, call
from ..checks.step_by_step import (APPROXIMATE_WEIGHTS, IDENTITY, NOTEBOOK, array_diagnosed, images_judge,
                                   layout_judge, rows_sum_to_one, swapped_axes, swapped_axes_hint)
from .. import reference

from . import known
from .randomised import batched, random_array

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
        close(got, known.SOFTMAX, "attention_weights on the notebook's example scores", atol=known.SOURCE_ATOL,
              diagnoses=[("softmax_dim0", _softmax(fixture.SCORES, 0))])
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
    return [Case("the notebook's approximate weights and the notebook's example values",
                 _weighted_judge(APPROXIMATE_WEIGHTS, fixture.VALUES, "weighted_values with the approximate weights",
                                 known.APPROXIMATE_WEIGHTED_VALUES_QUERY0, known.SOURCE_ATOL),
                 call(APPROXIMATE_WEIGHTS, fixture.VALUES)),
            Case("the notebook's example exact weights and values",
                 _weighted_judge(exact, fixture.VALUES, "weighted_values with the exact weights",
                                 known.WEIGHTED_VALUES_QUERY0, known.SOURCE_ATOL),
                 call(exact, fixture.VALUES))]


def _weighted_cases(shapes, seed):
    cases = []
    for offset, (batch, n, m, d) in enumerate(shapes):
        rng = np.random.default_rng(seed + offset)
        weights = _softmax(random_array(rng, *batch, n, m), -1).astype(np.float32)
        values = random_array(rng, *batch, m, d)
        what = f"weighted_values on weights {weights.shape} and values {values.shape}"
        case = Case(f"random weights {weights.shape} and values {values.shape}",
                    _weighted_judge(weights, values, what), call(weights, values))
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
    features_query0 = [("sum_over_features",
                        lambda got: got.shape == (3, 3) and np.allclose(got[0], known.SUM_OVER_FEATURES_QUERY0,
                                                                        atol=known.SOURCE_ATOL))]

    def exact_judge(outcome):
        what = "sum_weighted_values on the notebook's example exact weighted values"
        got = array_of(outcome, "Tensor", (3, 3), "floating", what)
        close(got, known.OUTPUT, what, atol=known.SOURCE_ATOL, diagnoses=features_query0)

    def approximate_judge(outcome):
        what = "sum_weighted_values with the approximate weights"
        got = array_of(outcome, "Tensor", (3, 3), "floating", what)
        close(got[0], known.APPROXIMATE_OUTPUT_QUERY0, what + ", query 0", atol=known.SOURCE_ATOL,
              diagnoses=[("sum_over_features", approximate[0].astype(np.float64).sum(axis=-1))])
        close(got, known.APPROXIMATE_OUTPUT, what, atol=known.SOURCE_ATOL)
    return [Case("the weighted values of the approximate weights", approximate_judge, call(approximate)),
            Case("the notebook's example exact weighted values", exact_judge, call(exact))]


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
            raise Mismatch(f"{what} looks scaled by 1/sqrt(d_k). This exercise follows the notebook step by step: "
                           "softmax of the raw scores, no scaling (scaling comes in notebook 03).",
                           expected=show(expected), got=show(got))
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
        cases.append(_heatmap_case(f"a random {kind} of shape {shape}", matrices, images_judge(matrices, what),
                                   as_tensor))
    return cases


def _heatmap_random():
    return _heatmap_images([(2, 3, 4, 5), (3, 1, 3, 3), (1, 4, 2, 6)], as_tensor=True, seed=500)


def _heatmap_numpy():
    return _heatmap_images([(3, 2, 5, 4), (1, 1, 6, 6)], as_tensor=False, seed=505)


def _heatmap_layout():
    cases = []
    for seed, (shape, titles) in enumerate([((2, 3, 3, 3), ["first", "second", "third"]), ((3, 1, 2, 2), None),
                                           ((2, 2, 3, 4), ("exact", "approximate"))]):
        matrices = _softmax(random_array(np.random.default_rng(510 + seed), *shape), -1).astype(np.float32)
        what = f"show_heatmaps on a grid of shape {shape[:2]} with titles={titles!r}"
        kwargs = {} if titles is None else {"titles": titles}
        cases.append(_heatmap_case(f"a {shape[0]} x {shape[1]} grid, titles={titles!r}", matrices,
                                   layout_judge(matrices, titles, what), **kwargs))
    return cases


PARTS = {
    "attention_weights": known_random_batches(
        ("the notebook's example softmax", "random score matrices", "batches of scores"),
        _weights_known, _weights_cases, random=([(4, 4), (3, 5), (6, 2), (1, 7)], 100),
        batches=([(2, 3, 4), (5, 3, 3), (2, 3, 4, 5), (2, 1, 2, 3, 3)], 110), random_requires={"edge", "shape"}),
    "weighted_values": known_random_batches(
        ("the notebook's weighted values", "random weights and values", "batches"),
        _weighted_known, _weighted_cases, random=([((), 2, 3, 4), ((), 5, 4, 2), ((), 4, 4, 4), ((), 1, 6, 3)], 200),
        batches=([((2,), 3, 4, 5), ((3,), 4, 4, 4), ((2, 3), 2, 5, 3)], 210), random_requires={"edge", "shape"}),
    "sum_weighted_values": known_random_batches(
        ("the notebook's outputs", "random weighted values", "batches"),
        _sum_known, _sum_cases, random=([(2, 3, 4), (4, 5, 5), (5, 2, 3), (1, 6, 2)], 300),
        batches=([(2, 3, 4, 5), (3, 2, 4, 4), (2, 2, 3, 5, 2)], 310), random_requires={"edge", "shape"}),
    "self_attention": known_random_batches(
        ("the notebook's example output", "random inputs and weights", "batches of sequences"), _attention_known,
        _attention_cases, random=([((), 4, 5, 4, 3), ((), 5, 3, 2, 6), ((), 3, 4, 3, 3), ((), 1, 4, 3, 2)], 400),
        batches=([((2,), 3, 4, 3, 5), ((3,), 4, 5, 4, 4), ((2, 3), 3, 4, 2, 3)], 410),
        random_requires={"edge", "shape"}),
    "show_heatmaps": [Part("the identity heatmap", 1, _heatmap_known, requires={"layout"}),
                      Part("random grids: one image per matrix, in its place", 1, _heatmap_random,
                           gate=True, requires={"shape"}),
                      Part("a NumPy array works as well as a tensor", 1, _heatmap_numpy,
                           requires={"numpy", "shape"}),
                      Part("labels on the outer plots, titles per column, one shared colour bar", 1, _heatmap_layout, requires={"layout", "shape"})],
}
