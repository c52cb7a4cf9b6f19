"""Visible checks for 01_attention_basics."""
import numpy as np

from . import fixture
from .cases import Case, Mismatch, Part
from .judges import array_of, diagnose, finite, inputs_unchanged, show
from .plain import TensorArg, call

NOTEBOOK = "01_attention_basics.ipynb"

# The seed's first example, as printed in the notebook: three encoder states and their scores.
HIDDEN_STATES = np.array([[0.21, 0.51, 1.25], [4.13, -41.3, 0.31], [3.2, 0.02, 9.44]], dtype=np.float32)
STATE_SCORES = np.array([13.0, 9.0, 9.0], dtype=np.float32)
# What scaling the columns gives (softmax(scores) * hidden_states, summed along each row), as the notebook shows.
SCALED_COLUMNS = np.array([0.2337, 3.2598, 3.2541])


RNG = np.random.default_rng(11)
BATCH_SCORES = (RNG.standard_normal((2, 3, 4)) * 3).astype(np.float32)
LARGE_SCORES = np.array([[1000.0, 990.0, 1000.0], [-5.0, 800.0, 0.0]], dtype=np.float32)


def integer_hint(judge):
    """``judge``, which tells a float answer to integer inputs why it is wrong."""
    def checked(outcome):
        try:
            judge(outcome)
        except Mismatch as mismatch:
            if "dtype" in mismatch.what:
                mismatch.what += " Integer inputs must give an integer result: do not convert them to float."
            raise
    return checked


def three_tensors(outcome, what):
    """The items of a returned tuple of three (queries, keys, values), once it is one."""
    if outcome.get("type") != "tuple" or outcome.get("length") != 3:
        got = f"a {outcome.get('type')}" + (f" of length {outcome['length']}" if "length" in outcome else "")
        raise Mismatch(f"{what} should return a tuple of three tensors: (queries, keys, values).",
                       expected="a tuple of length 3", got=got)
    return outcome["items"]


def _softmax_rows():
    def rows(shape, large=False):
        def judge(outcome):
            what = f"softmax_scores on scores of shape {shape}"
            got = array_of(outcome, "Tensor", shape, "floating", what)
            if large:
                finite(got, what)
            if not np.all(got >= 0):
                raise Mismatch(f"{what} has negative weights; a softmax is never negative.", got=show(got))
            if not np.allclose(got.sum(axis=-1), 1, atol=1e-5):
                dim0 = len(shape) == 2 and np.allclose(got.sum(axis=0), 1, atol=1e-5)
                implicit = len(shape) == 3 and np.allclose(got.sum(axis=0), 1, atol=1e-5)
                raise Mismatch(f"each row of {what} should sum to 1 (a softmax over the last dimension).",
                               expected="row sums of 1", got=f"row sums {show(got.sum(axis=-1))}",
                               misconception="softmax_dim0" if dim0 else "softmax_implicit_dim" if implicit else None)
        return inputs_unchanged(judge, "softmax_scores")
    return [Case("the notebook's example scores", rows((3, 3)), call(fixture.SCORES)),
            Case("one score vector [13, 9, 9]", rows((3,)), call(STATE_SCORES)),
            Case("a batch of score matrices (2, 3, 4)", rows((2, 3, 4)), call(BATCH_SCORES), batch=(2, 3, 4)),
            Case("large scores [[1000, 990, 1000], [-5, 800, 0]]", rows((2, 3), large=True), call(LARGE_SCORES))]


def _context_shape():
    def averaged(scores, states, what, large=False):
        def judge(outcome):
            got = array_of(outcome, "Tensor", states.shape[:-2] + states.shape[-1:], "floating", what)
            if large:
                finite(got, what)
            low, high = states.min(axis=-2), states.max(axis=-2)
            if not np.all((got >= low - 1e-4) & (got <= high + 1e-4)):
                raise Mismatch(f"{what} is not a weighted average of the rows: each entry must lie between the "
                               "smallest and the largest entry of its column.",
                               expected=f"between {show(low)} and {show(high)}", got=show(got),
                               misconception=diagnose(got, [("context_scaled_columns", SCALED_COLUMNS)], atol=1e-4))
        return inputs_unchanged(judge, "context_vector")
    rng = np.random.default_rng(12)
    scores, states = rng.standard_normal(5).astype(np.float32), rng.standard_normal((5, 2)).astype(np.float32)
    batch_scores, batch_states = (rng.standard_normal((2, 3)).astype(np.float32),
                                  rng.standard_normal((2, 3, 4)).astype(np.float32))
    large = np.array([1000.0, 990.0, 1000.0], dtype=np.float32)
    return [Case("the scores [13, 9, 9] and the three encoder states",
                 averaged(STATE_SCORES, HIDDEN_STATES, "context_vector(scores, hidden_states)"),
                 call(STATE_SCORES, HIDDEN_STATES)),
            Case("5 positions of dimension 2", averaged(scores, states, "context_vector on 5 positions"),
                 call(scores, states)),
            Case("a batch: scores (2, 3), hidden states (2, 3, 4)",
                 averaged(batch_scores, batch_states, "context_vector on a batch"), call(batch_scores, batch_states),
                 batch=(2, 3)),
            Case("large scores [1000, 990, 1000]",
                 averaged(large, HIDDEN_STATES, "context_vector on large scores", large=True),
                 call(large, HIDDEN_STATES))]


def _keys_dtype():
    vs = [TensorArg(v) for v in fixture.X.astype(np.int64)]
    ws = [TensorArg(w) for w in fixture.W_KEY.T.astype(np.int64)]
    rng = np.random.default_rng(13)
    float_vs = [TensorArg(v) for v in rng.standard_normal((2, 5)).astype(np.float32)]
    float_ws = [TensorArg(w) for w in rng.standard_normal((4, 5)).astype(np.float32)]

    def judge(outcome):
        array_of(outcome, "Tensor", (3, 3), "integer", "compute_keys([v_1, v_2, v_3], [w_1, w_2, w_3])")

    def float_judge(outcome):
        array_of(outcome, "Tensor", (2, 4), "floating", "compute_keys on 2 float vectors and 4 weight vectors")
    return [Case("the three integer vectors and the three integer weight vectors",
                 inputs_unchanged(integer_hint(judge), "compute_keys"), call(vs, ws)),
            Case("2 float vectors and 4 float weight vectors of dimension 5",
                 inputs_unchanged(float_judge, "compute_keys"), call(float_vs, float_ws))]


def _qkv_shapes():
    rng = np.random.default_rng(14)
    other = [rng.standard_normal(shape).astype(np.float32) for shape in ((2, 5), (5, 3), (5, 3), (5, 4))]
    batch = [rng.standard_normal((2, 3, 4)).astype(np.float32), fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE]

    def shapes(n_shape, d_k, d_v, what):
        def judge(outcome):
            items = three_tensors(outcome, "project_qkv")
            for name, item, d in zip(("queries", "keys", "values"), items, (d_k, d_k, d_v)):
                array_of(item, "Tensor", (*n_shape, d), "floating", f"the {name} returned by project_qkv {what}")
        return inputs_unchanged(judge, "project_qkv")
    return [Case("the notebook's example x and weights", shapes((3,), 3, 3, "on the notebook's example"),
                 call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE)),
            Case("x (2, 5), w_query and w_key (5, 3), w_value (5, 4)", shapes((2,), 3, 4, "on x (2, 5)"),
                 call(*other)),
            Case("a batch: x (2, 3, 4) and the notebook's example weights", shapes((2, 3), 3, 3, "on a batch"),
                 call(*batch), batch=(2, 3, 4))]


def _query_shape():
    rng = np.random.default_rng(15)
    cases = []
    for label, query, keys, batch in [
            ("the notebook's example first query and its keys", fixture.QUERIES[0], fixture.KEYS, None),
            ("a query (5,) and 4 keys", rng.standard_normal(5), rng.standard_normal((4, 5)), None),
            ("a batch: queries (2, 5) and keys (2, 4, 5)", rng.standard_normal((2, 5)), rng.standard_normal((2, 4, 5)),
             (2,))]:
        shape = keys.shape[:-1]

        def judge(outcome, shape=shape, label=label):
            array_of(outcome, "Tensor", shape, "floating", f"query_scores on {label}")
        cases.append(Case(label, inputs_unchanged(judge, "query_scores"),
                          call(query.astype(np.float32), keys.astype(np.float32)),
                          batch=batch and tuple(query.shape)))
    return cases


def _scores_shape():
    rng = np.random.default_rng(16)
    cases = []
    for label, queries, keys, batch in [
            ("the notebook's example queries and keys", fixture.QUERIES, fixture.KEYS, False),
            ("2 queries and 4 keys of dimension 5", rng.standard_normal((2, 5)), rng.standard_normal((4, 5)), False),
            ("a batch: queries (2, 3, 5) and keys (2, 4, 5)", rng.standard_normal((2, 3, 5)),
             rng.standard_normal((2, 4, 5)), True)]:
        shape = (*queries.shape[:-1], keys.shape[-2])

        def judge(outcome, shape=shape, label=label):
            array_of(outcome, "Tensor", shape, "floating", f"attention_scores on {label}")
        cases.append(Case(label, judge, call(queries.astype(np.float32), keys.astype(np.float32)),
                          batch=queries.shape if batch else None))
    return cases


PARTS = {
    "softmax_scores": [Part("non-negative weights whose rows sum to 1: a vector, a matrix, a batch, large scores", 1,
                            _softmax_rows, requires={"shape", "batch", "large"})],
    "context_vector": [Part("one weighted average of the rows, of shape (..., d); batches and large scores", 1,
                            _context_shape, requires={"shape", "batch", "large"})],
    "compute_keys": [Part("an integer tensor of shape (n, m) for integer inputs, float for float inputs", 1,
                          _keys_dtype,
                          requires={"dtype", "shape"})],
    "project_qkv": [Part("a tuple of three float tensors of shape (..., n, d_out)", 1, _qkv_shapes,
                         requires={"shape", "batch"})],
    "query_scores": [Part("a float tensor of shape (..., n_keys)", 1, _query_shape, requires={"shape", "batch"})],
    "attention_scores": [Part("a float tensor of shape (..., n_queries, n_keys)", 1, _scores_shape,
                              requires={"shape", "batch"})],
}

# What each exercise is worth: its test cell's points, for the visible and hidden parts together.
POINTS = {"softmax_scores": 5,
          "context_vector": 4,
          "compute_keys": 4,
          "project_qkv": 4,
          "query_scores": 4,
          "attention_scores": 3}
