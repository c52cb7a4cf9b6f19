"""Visible checks for 01_attention_basics."""
import numpy as np

from . import fixture
from .framework import Case, Mismatch, Part
from .judges import array_of, diagnose, inputs_unchanged, show
from .plain import TensorArg

NOTEBOOK = "01_attention_basics.ipynb"

# The seed's first example, as printed in the notebook: three encoder states and their scores.
HIDDEN_STATES = np.array([[0.21, 0.51, 1.25], [4.13, -41.3, 0.31], [3.2, 0.02, 9.44]], dtype=np.float32)
STATE_SCORES = np.array([13.0, 9.0, 9.0], dtype=np.float32)
# What scaling the columns gives (softmax(scores) * hidden_states, summed along each row), as the notebook shows.
SCALED_COLUMNS = np.array([0.2337, 3.2598, 3.2541])


def _call(*args):
    return {"args": tuple(TensorArg(a) if isinstance(a, np.ndarray) else a for a in args), "kwargs": {}}




def _integer_result(outcome, shape, what):
    """The values of an integer tensor; a float answer to integer inputs is told why it is wrong."""
    try:
        return array_of(outcome, "Tensor", shape, "integer", what)
    except Mismatch as mismatch:
        if "dtype" in mismatch.what:
            mismatch.what += " Integer inputs must give an integer result: do not convert them to float."
        raise


def _softmax_rows():
    def judge(outcome):
        got = array_of(outcome, "Tensor", (3, 3), "floating", "softmax_scores(scores)")
        if not np.all(got >= 0):
            raise Mismatch("softmax_scores(scores) has negative weights; a softmax is never negative.",
                           got=show(got))
        if not np.allclose(got.sum(axis=-1), 1, atol=1e-5):
            dim0 = np.allclose(got.sum(axis=0), 1, atol=1e-5)
            raise Mismatch("each row of softmax_scores(scores) should sum to 1.", expected="row sums [1, 1, 1]",
                           got=f"row sums {show(got.sum(axis=-1))}", misconception="softmax_dim0" if dim0 else None)
    return [Case("the fixture's scores", inputs_unchanged(judge, "softmax_scores"), _call(fixture.SCORES))]


def _context_shape():
    def judge(outcome):
        got = array_of(outcome, "Tensor", (3,), "floating", "context_vector(scores, hidden_states)")
        low, high = HIDDEN_STATES.min(axis=0), HIDDEN_STATES.max(axis=0)
        if not np.all((got >= low - 1e-4) & (got <= high + 1e-4)):
            raise Mismatch("context_vector(scores, hidden_states) is not a weighted average of the rows: "
                           "each entry must lie between the smallest and the largest entry of its column.",
                           expected=f"between {show(low)} and {show(high)}", got=show(got),
                           misconception=diagnose(got, [("context_scaled_columns", SCALED_COLUMNS)], atol=1e-4))
    return [Case("the scores [13, 9, 9] and the three encoder states", inputs_unchanged(judge, "context_vector"),
                 _call(STATE_SCORES, HIDDEN_STATES))]


def _keys_dtype():
    vs = [TensorArg(v) for v in fixture.X.astype(np.int64)]
    ws = [TensorArg(w) for w in fixture.W_KEY.T.astype(np.int64)]

    def judge(outcome):
        _integer_result(outcome, (3, 3), "compute_keys([v_1, v_2, v_3], [w_1, w_2, w_3])")
    return [Case("the three integer vectors and the three integer weight vectors",
                 inputs_unchanged(judge, "compute_keys"),
                 {"args": (vs, ws), "kwargs": {}})]


def _qkv_shapes():
    def judge(outcome):
        if outcome.get("type") != "tuple" or outcome.get("length") != 3:
            got = f"a {outcome.get('type')}" + (f" of length {outcome['length']}" if "length" in outcome else "")
            raise Mismatch("project_qkv should return a tuple of three tensors: (queries, keys, values).",
                           expected="a tuple of length 3", got=got)
        for name, item in zip(("queries", "keys", "values"), outcome["items"]):
            array_of(item, "Tensor", (3, 3), "floating", f"the {name} returned by project_qkv")
    return [Case("the fixture's x and weights", inputs_unchanged(judge, "project_qkv"),
                 _call(fixture.X, fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE))]


def _query_shape():
    def judge(outcome):
        array_of(outcome, "Tensor", (3,), "floating", "query_scores(queries[0], keys)")
    return [Case("the fixture's first query and its keys", inputs_unchanged(judge, "query_scores"),
                 _call(fixture.QUERIES[0], fixture.KEYS))]


def _scores_shape():
    def judge(outcome):
        array_of(outcome, "Tensor", (3, 3), "floating", "attention_scores(queries, keys)")
    return [Case("the fixture's queries and keys", judge,
                 {"args": (TensorArg(fixture.QUERIES), TensorArg(fixture.KEYS)), "kwargs": {}})]


PARTS = {
    "softmax_scores": [Part("returns non-negative weights whose rows sum to 1", 1, _softmax_rows)],
    "context_vector": [Part("returns one weighted average of the rows, of shape (d,)", 1, _context_shape)],
    "compute_keys": [Part("returns an integer tensor of shape (n, m) for integer inputs", 1, _keys_dtype)],
    "project_qkv": [Part("returns a tuple of three float tensors of shape (n, d_out)", 1, _qkv_shapes)],
    "query_scores": [Part("returns a float tensor of shape (n_keys,)", 1, _query_shape)],
    "attention_scores": [Part("returns a float tensor of shape (n_queries, n_keys)", 1, _scores_shape)],
}
