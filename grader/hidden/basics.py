"""Hidden checks for 01_attention_basics."""
import numpy as np
import torch

from ..checks import fixture
from ..checks.basics import NOTEBOOK, integer_hint, three_tensors
from ..checks.cases import Case, Mismatch, Part, known_random_batches
from ..checks.judges import expect, inputs_unchanged, matches
from ..checks.plain import TensorArg, call
from .. import reference

from . import known
from .catalogue import diagnosis
from .randomised import batched, random_array

ref = reference.of(NOTEBOOK)

QKV = ("queries", "keys", "values")


def _softmax(array, dim):
    return torch.softmax(torch.from_numpy(np.asarray(array, dtype=np.float32)), dim=dim).numpy()


def _implicit_dim(ndim):
    """The dimension that softmax picks without dim (PyTorch's legacy rule)."""
    return 0 if ndim in (0, 1, 3) else 1


def _expected(fn, *arrays):
    return fn(*(torch.from_numpy(a) for a in arrays)).numpy()


# ---- softmax_scores ----

def _softmax_diagnoses(scores):
    if scores.ndim == 2:
        return diagnosis("softmax_dim0", "softmax_scores", "softmax_dim0", torch.from_numpy(scores))
    if scores.ndim >= 3:
        return diagnosis("softmax_implicit_dim", "softmax_scores", "softmax_implicit_dim", torch.from_numpy(scores))
    return []


def _softmax_case(scores, expected, label, atol=1e-6, rtol=1e-5, diagnoses=None):
    what = f"softmax_scores on scores of shape {scores.shape}"
    diagnoses = _softmax_diagnoses(scores) if diagnoses is None else diagnoses
    judge = expect("Tensor", expected, what, rtol=rtol, atol=atol, diagnoses=diagnoses)
    return Case(label, inputs_unchanged(judge, what), call(scores))


def _softmax_known():
    return [_softmax_case(np.array([13.0, 9.0, 9.0], dtype=np.float32), known.SOFTMAX_13_9_9,
                          "the scores [13, 9, 9]", atol=known.SOURCE_ATOL),
            _softmax_case(np.array([2.0, 4.0, 4.0], dtype=np.float32), known.SOFTMAX_2_4_4,
                          "the first query's scores [2, 4, 4]", atol=known.SOURCE_ATOL),
            _softmax_case(fixture.SCORES, known.SOFTMAX, "the notebook's example scores", atol=known.SOURCE_ATOL)]


def _softmax_random(shapes, seed):
    cases = []
    for i, shape in enumerate(shapes):
        scores = random_array(np.random.default_rng(seed + i), *shape, scale=3.0)
        case = _softmax_case(scores, _expected(ref.softmax_scores, scores), f"random scores {shape}")
        cases.append(batched(case, scores.shape, 2))
    return cases


def _softmax_large():
    cases = []
    for i, scores in enumerate([np.array([1000.0, 1000.0], dtype=np.float32),
                                np.array([[1000.0, 990.0, 1000.0], [-5.0, 800.0, 0.0]], dtype=np.float32),
                                random_array(np.random.default_rng(30), 2, 4, 5, scale=500.0)]):
        unstable = [("softmax_unstable", lambda got: not np.all(np.isfinite(got)))]
        cases.append(_softmax_case(scores, _expected(ref.softmax_scores, scores), f"large scores {scores.shape}",
                                   atol=1e-4, rtol=1e-4, diagnoses=unstable + _softmax_diagnoses(scores)))
    return cases


# ---- context_vector ----

def _context_case(scores, states, label):
    what = f"context_vector on scores {scores.shape} and hidden states {states.shape}"
    weights = torch.from_numpy(_softmax(scores, _implicit_dim(scores.ndim)))  # softmax without dim
    implicit = (weights.unsqueeze(-2) @ torch.from_numpy(states)).squeeze(-2).numpy()
    diagnoses = diagnosis("context_scaled_columns", "context_vector", "context_scaled_columns",
                          torch.from_numpy(scores), torch.from_numpy(states))
    if scores.ndim >= 3:
        diagnoses.append(("softmax_implicit_dim", implicit))
    judge = expect("Tensor", _expected(ref.context_vector, scores, states), what, diagnoses=diagnoses)
    return Case(label, inputs_unchanged(judge, what), call(scores, states))


def _context_known():
    scores, states = np.array([13.0, 9.0, 9.0], dtype=np.float32), known.CONTEXT_HIDDEN_STATES
    what = "context_vector on the scores [13, 9, 9] and the three encoder states"
    judge = expect("Tensor", known.CONTEXT_VECTOR, what, atol=known.SOURCE_ATOL,
                   diagnoses=[("context_scaled_columns", known.CONTEXT_SCALED_COLUMNS)])
    return [Case("the scores [13, 9, 9] and the three encoder states", inputs_unchanged(judge, what),
                 call(scores, states))]


def _context_cases(shapes, seed):
    cases = []
    for i, (batch, n, d) in enumerate(shapes):
        rng = np.random.default_rng(seed + i)
        scores, states = random_array(rng, *batch, n, scale=2.0), random_array(rng, *batch, n, d)
        case = _context_case(scores, states, f"random scores {scores.shape}, hidden states {states.shape}")
        cases.append(batched(case, states.shape, 2))
    return cases


# ---- compute_keys ----

def _keys_case(vs, ws, label, atol=1e-6, dtype="floating"):
    what = f"compute_keys on {len(vs)} vectors and {len(ws)} weight vectors of dimension {vs[0].shape[0]}"
    expected = ref.compute_keys([torch.from_numpy(v) for v in vs], [torch.from_numpy(w) for w in ws]).numpy()
    judge = integer_hint(expect("Tensor", expected, what, dtype=dtype, atol=atol))
    return Case(label, inputs_unchanged(judge, what), call([TensorArg(v) for v in vs], [TensorArg(w) for w in ws]))


def _keys_known():
    vs, ws = list(fixture.X.astype(np.int64)), list(fixture.W_KEY.T.astype(np.int64))
    what = "compute_keys on the notebook's vectors"
    judge = integer_hint(expect("Tensor", known.KEYS_FROM_VECTORS, what, dtype="integer", atol=known.SOURCE_ATOL))
    return [Case("the notebook's integer vectors v_1, v_2, v_3 and weights w_1, w_2, w_3",
                 inputs_unchanged(judge, what),
                 call([TensorArg(v) for v in vs], [TensorArg(w) for w in ws]))]


def _keys_random(integer):
    cases = []
    for i, (n, m, d) in enumerate([(4, 2, 5), (2, 3, 6), (5, 5, 3)]):
        rng = np.random.default_rng(40 + 10 * integer + i)
        if integer:
            vs = list(rng.integers(-4, 5, size=(n, d)).astype(np.int64))
            ws = list(rng.integers(-4, 5, size=(m, d)).astype(np.int64))
        else:
            vs, ws = list(random_array(rng, n, d)), list(random_array(rng, m, d))
        kind = "integer" if integer else "float"
        cases.append(_keys_case(vs, ws, f"{n} random {kind} vectors and {m} weight vectors of dimension {d}",
                                dtype="integer" if integer else "floating"))
    return cases


# ---- project_qkv ----

def _qkv_judge(expected, what, atol=1e-6):
    """A judge: a tuple (queries, keys, values), each item as expected; says so when two are swapped."""
    def judge(outcome):
        for i, (name, item) in enumerate(zip(QKV, three_tensors(outcome, what))):
            item_what = f"the {name} (item {i}) of {what}"
            try:
                expect("Tensor", expected[i], item_what, atol=atol)(item)
            except Mismatch as mismatch:
                got = np.asarray(item.get("values")) if item.get("values") is not None else None
                for j, other in enumerate(expected):
                    if j != i and got is not None and matches(got, other, atol=atol):
                        raise Mismatch(f"{item_what} are the {QKV[j]}: return (queries, keys, values) in "
                                       "that order, each from its own weight matrix.",
                                       expected=mismatch.expected, got=mismatch.got) from None
                raise
    return judge


def _qkv_case(x, weights, label, expected=None, atol=1e-6):
    what = f"project_qkv on x {x.shape}"
    if expected is None:
        expected = tuple(e.numpy() for e in ref.project_qkv(*(torch.from_numpy(a) for a in (x, *weights))))
    return Case(label, inputs_unchanged(_qkv_judge(expected, what, atol), what), call(x, *weights))


def _qkv_known():
    return [_qkv_case(fixture.X, (fixture.W_QUERY, fixture.W_KEY, fixture.W_VALUE),
                      "the notebook's example x and weights", expected=(fixture.QUERIES, fixture.KEYS, fixture.VALUES),
                      atol=known.SOURCE_ATOL)]


def _qkv_cases(shapes, seed):
    cases = []
    for i, (batch, n, d_in, d_k, d_v) in enumerate(shapes):
        rng = np.random.default_rng(seed + i)
        x = random_array(rng, *batch, n, d_in)
        weights = (random_array(rng, d_in, d_k), random_array(rng, d_in, d_k), random_array(rng, d_in, d_v))
        label = f"random x {x.shape}, w_query and w_key ({d_in}, {d_k}), w_value ({d_in}, {d_v})"
        cases.append(batched(_qkv_case(x, weights, label), x.shape, 2))
    return cases


# ---- query_scores ----

def _query_no_transpose(query, keys):
    if query.shape[-1] != keys.shape[-2]:
        return None
    return (torch.from_numpy(query).unsqueeze(-2) @ torch.from_numpy(keys)).squeeze(-2).numpy()


def _query_case(query, keys, label, expected=None, atol=1e-6):
    what = f"query_scores on a query {query.shape} and keys {keys.shape}"
    expected = _expected(ref.query_scores, query, keys) if expected is None else expected
    wrong = _query_no_transpose(query, keys)
    diagnoses = [] if wrong is None else [("scores_no_transpose", wrong)]
    judge = expect("Tensor", expected, what, atol=atol, diagnoses=diagnoses)
    return Case(label, inputs_unchanged(judge, what), call(query, keys))


def _query_known():
    return [_query_case(fixture.QUERIES[i], fixture.KEYS, f"the notebook's example query {i} and keys",
                        expected=fixture.SCORES[i], atol=known.SOURCE_ATOL) for i in range(3)]


def _query_cases(shapes, seed):
    cases = []
    for i, (batch, n, d) in enumerate(shapes):
        rng = np.random.default_rng(seed + i)
        query, keys = random_array(rng, *batch, d), random_array(rng, *batch, n, d)
        case = _query_case(query, keys, f"a random query {query.shape} and keys {keys.shape}")
        cases.append(batched(case, keys.shape, 2))
    return cases


# ---- attention_scores ----

def _scores_known():
    judge = expect("Tensor", fixture.SCORES, "attention_scores on the notebook's example", atol=known.SOURCE_ATOL,
                   diagnoses=[("scores_no_transpose", known.SCORES_NO_TRANSPOSE)])
    return [Case("the notebook's example queries and keys", judge, call(fixture.QUERIES, fixture.KEYS))]


def _scores_random():
    cases = []
    for seed, (batch, n, m, d) in enumerate([((), 4, 4, 5), ((2,), 3, 5, 4), ((2, 3), 6, 2, 8)]):
        rng = np.random.default_rng(seed)
        q, k = random_array(rng, *batch, n, d), random_array(rng, *batch, m, d)
        expected = ref.attention_scores(torch.from_numpy(q), torch.from_numpy(k)).numpy()
        wrong = diagnosis("scores_no_transpose", "attention_scores", "scores_no_transpose", torch.from_numpy(q),
                          torch.from_numpy(k))
        judge = expect("Tensor", expected, f"attention_scores on queries {q.shape} and keys {k.shape}",
                       diagnoses=wrong)
        cases.append(batched(Case(f"random queries {q.shape} and keys {k.shape}", judge, call(q, k)), q.shape, 2))
    return cases


PARTS = {
    "softmax_scores": [
        Part("the notebook's weights", 1, _softmax_known, requires={"shape"}),
        Part("random score vectors and matrices", 1,
             lambda: _softmax_random([(5,), (7,), (4, 6), (3, 3), (6, 2)], 10), gate=True,
             requires={"shape"}),
        Part("batches of score matrices", 1,
             lambda: _softmax_random([(5, 4), (2, 3, 5), (4, 3, 3), (2, 2, 3, 4)], 20),
             requires={"batch"}),
        Part("large scores do not overflow", 1, _softmax_large, requires={"batch", "large"}),
    ],
    "context_vector": known_random_batches(
        ("the notebook's context vector", "random scores and hidden states", "batches of sequences"),
        _context_known, _context_cases, random=([((), 4, 4), ((), 5, 3), ((), 3, 6)], 50),
        batches=([((2,), 5, 3), ((3,), 3, 3), ((2, 3), 4, 6)], 60)),
    "compute_keys": [
        Part("the notebook's keys", 1, _keys_known, requires={"dtype"}),
        Part("random float vectors", 1, lambda: _keys_random(False), gate=True,
             requires={"dtype", "shape"}),
        Part("integer vectors give an integer result", 1, lambda: _keys_random(True),
             requires={"dtype", "shape"}),
    ],
    "project_qkv": known_random_batches(
        ("the notebook's example queries, keys and values", "random inputs and weights", "batches of sequences"),
        _qkv_known, _qkv_cases, random=([((), 4, 5, 3, 2), ((), 6, 3, 4, 5), ((), 2, 4, 4, 4)], 70),
        batches=([((2,), 4, 5, 3, 2), ((2, 3), 3, 4, 6, 3)], 80)),
    "query_scores": known_random_batches(
        ("the notebook's example scores, one query at a time", "random queries and keys",
         "batches of queries and keys"),
        _query_known, _query_cases, random=([((), 4, 4), ((), 3, 5), ((), 7, 3)], 90),
        batches=([((2,), 6, 4), ((3,), 3, 3), ((2, 3), 4, 5)], 100)),
    "attention_scores": [Part("the notebook's example scores", 1, _scores_known),
                         Part("random shapes and batches", 1, _scores_random, gate=True,
                              requires={"batch", "shape"})],
}
