"""Hidden checks for 04_causal_self_attention."""
import numpy as np
import torch
from torch.nn import functional as F

from ..checks import fixture
from ..checks.causal import NOTEBOOK, check_head_layout, head_params, running_means, scores_kept, seed_x
from ..checks.cases import Case, Part, known_random_batches
from ..checks.judges import array_of, close, expect
from ..checks.plain import call
from .. import reference

from . import known
from .catalogue import diagnosis
from .randomised import batched, random_array

ref = reference.of(NOTEBOOK)

RUNNING_SHAPES = [(2, 5, 3), (1, 1, 4), (3, 9, 2), (2, 4, 7)]


def _t(array):
    return torch.from_numpy(np.asarray(array, dtype=np.float32))


# ---- wrong answers, to recognise them on any input ----

# The catalogue's wrong answers to each running mean: (misconception, wrong answer).
RUNNING_MEAN_MISTAKES = {
    "causal_average_loop": [],
    "causal_average_matmul": [("softmax_dim0", "matmul_columns")],
    "causal_average_softmax": [("softmax_dim0", "softmax_dim0"), ("masking_wrong", "softmax_zero_mask"),
                               ("masking_wrong", "softmax_mask_after")],
}
# The catalogue's wrong answers to scaled_dot_product_attention, on any input, with the causal mask, on a batch.
SDPA_MISTAKES = [("scaling_wrong", "sdpa_unscaled"), ("scaling_wrong", "sdpa_divide_by_d"),
                 ("softmax_dim0", "sdpa_softmax_dim0")]
SDPA_CAUSAL_MISTAKES = [("masking_wrong", "sdpa_zero_mask"), ("masking_wrong", "sdpa_weights_times_tril"),
                        ("masking_wrong", "sdpa_never_masks")]
SDPA_BATCH_MISTAKES = [("softmax_implicit_dim", "sdpa_softmax_no_dim")]


def _running_mean_diagnoses(name, x):
    return [found for key, wrong in RUNNING_MEAN_MISTAKES[name] for found in diagnosis(key, name, wrong, _t(x))]


def _sdpa_diagnoses(q, k, v, causal):
    mistakes = SDPA_MISTAKES + (SDPA_CAUSAL_MISTAKES if causal else []) + (SDPA_BATCH_MISTAKES if q.ndim > 2 else [])
    return [found for key, wrong in mistakes
            for found in diagnosis(key, "scaled_dot_product_attention", wrong, _t(q), _t(k), _t(v), causal=causal)]


def _softmax_implicit_dim(ndim):
    return 0 if ndim in (0, 1, 3) else 1  # what F.softmax picks without dim


def _attention_diagnoses(q, k, v, causal, scale, other_scales=()):
    """A head's answers with one known mistake, computed here on its projections: (key, array) pairs for
    :func:`diagnose`. The catalogue has no wrong Head for some of them (masking after the softmax, softmax
    without dim), and its Head that divides by head_size rounds otherwise than this product by 1 / d."""
    q, k, v = _t(q), _t(k), _t(v)
    raw = q @ k.transpose(-2, -1)
    L, S = raw.shape[-2:]
    keep = torch.ones(L, S).tril().bool()

    def masked(scores, fill=float("-inf")):
        return scores.masked_fill(~keep, fill) if causal else scores

    d = q.shape[-1]
    found = [("scaling_wrong", (F.softmax(masked(raw * s), dim=-1) @ v).numpy())
             for s in (1.0, 1.0 / d, *other_scales)]
    found.append(("softmax_dim0", (F.softmax(masked(raw * scale), dim=-2) @ v).numpy()))
    if causal:
        found += [("masking_wrong", (F.softmax(masked(raw * scale, 0.0), dim=-1) @ v).numpy()),  # 0, not -inf
                  ("masking_wrong", ((F.softmax(raw * scale, dim=-1) * keep) @ v).numpy()),  # after softmax
                  ("masking_wrong", (F.softmax(raw * scale, dim=-1) @ v).numpy())]  # no mask at all
    if raw.ndim > 2:
        dim = _softmax_implicit_dim(raw.ndim)
        found.append(("softmax_implicit_dim", (F.softmax(masked(raw * scale), dim=dim) @ v).numpy()))
    return found


# ---- the running mean: loop, matmul, softmax ----

def _running_mean_known(name):
    def cases():
        x = seed_x()
        diagnoses = _running_mean_diagnoses(name, x)

        def judge_x(outcome):
            got = running_means(outcome, x, name)
            for t, expected in ((1, known.CAUSAL_MEAN_STEP_1), (7, known.CAUSAL_MEAN_STEP_7)):
                close(got[0, t], expected, f"{name}(x)[0, {t}]", atol=known.SOURCE_ATOL,
                      diagnoses=[(key, wrong[0, t]) for key, wrong in diagnoses])

        b = known.RANDINT_B[None]  # (1, 8, 2)
        b_diagnoses = _running_mean_diagnoses(name, b)

        def judge_b(outcome):
            got = running_means(outcome, b, name, "b[None]")
            close(got[0, -1], known.RANDINT_RUNNING_MEAN_LAST, f"the last step of {name}(b[None])",
                  atol=known.SOURCE_ATOL, diagnoses=[(key, wrong[0, -1]) for key, wrong in b_diagnoses])
        return [Case("the notebook's x (torch.manual_seed(42); torch.randn(4, 8, 2))", judge_x, call(x)),
                Case("the notebook's b = torch.randint(0, 10, (8, 2)).float(), as a batch of one", judge_b,
                     call(b))]
    return cases


def _running_mean_random(name):
    reference = getattr(ref, name)

    def cases():
        found = []
        for seed, shape in enumerate(RUNNING_SHAPES):
            x = random_array(np.random.default_rng(100 + seed), *shape)
            expected = reference(_t(x)).numpy()
            judge = expect("Tensor", expected, f"{name} on x of shape {shape}",
                           diagnoses=_running_mean_diagnoses(name, x))
            found.append(Case(f"random x of shape {shape}", judge, call(x)))
        return found
    return cases


def _weights_diagnoses(T):
    return diagnosis("softmax_dim0", "causal_average_weights", "weights_columns", T)


def _weights_known():
    def judge(outcome):
        got = array_of(outcome, "Tensor", (8, 8), "floating", "causal_average_weights(8)")
        close(got[3], known.CAUSAL_WEIGHTS_ROW_3, "row 3 of causal_average_weights(8)", atol=known.SOURCE_ATOL,
              diagnoses=[(key, wrong[3]) for key, wrong in _weights_diagnoses(8)])
    return [Case("T = 8", judge, call(8))]


def _weights_random():
    found = []
    for T in (1, 2, 5, 13):
        judge = expect("Tensor", ref.causal_average_weights(T).numpy(), f"causal_average_weights({T})",
                       diagnoses=_weights_diagnoses(T))
        found.append(Case(f"T = {T}", judge, call(T)))
    return found


# ---- causal_mask ----

def _mask_cases(shapes, seed0):
    found = []
    for seed, shape in enumerate(shapes):
        scores = random_array(np.random.default_rng(seed0 + seed), *shape)
        expected = ref.causal_mask(_t(scores)).numpy()
        judge = expect("Tensor", expected, f"causal_mask on scores of shape {shape}",
                       diagnoses=diagnosis("masking_wrong", "causal_mask", "mask_with_zero", _t(scores)))
        found.append(batched(Case(f"random scores of shape {shape}", judge, call(scores)), scores.shape, 2))
    return found


def _mask_random():
    return _mask_cases([(5, 5), (3, 6), (6, 3), (1, 4), (4, 1)], 200)


def _mask_batches():
    return _mask_cases([(2, 4, 4), (2, 3, 5, 6), (3, 1, 7, 5)], 210)


def _mask_new_tensor():
    scores = random_array(np.random.default_rng(220), 4, 6)
    expected = ref.causal_mask(_t(scores)).numpy()

    def judge(outcome):
        scores_kept(outcome, "causal_mask")
        close(array_of(outcome, "Tensor", expected.shape, "floating", "causal_mask(scores)"), expected,
              "causal_mask(scores)")
    return [Case("random scores of shape (4, 6), checked after the call", judge, call(scores))]


# ---- scaled_dot_product_attention ----

def _sdpa_case(q, k, v, causal, label, atol=1e-6, expected=None, pass_flag=True):
    if expected is None:
        expected = ref.scaled_dot_product_attention(_t(q), _t(k), _t(v), causal=causal).numpy()
    diagnoses = _sdpa_diagnoses(q, k, v, causal)
    what = f"scaled_dot_product_attention(q {q.shape}, k {k.shape}, v {v.shape}, causal={causal})"
    kwargs = {"causal": causal} if pass_flag else {}
    return Case(label, expect("Tensor", expected, what, atol=atol, diagnoses=diagnoses), call(q, k, v, **kwargs))


def _sdpa_known():
    example = (fixture.QUERIES, fixture.KEYS, fixture.VALUES)
    return [_sdpa_case(*example, False, "the notebook's example, causal=False (the scaled output)",
                       atol=known.SOURCE_ATOL, expected=known.SCALED_OUTPUT),
            _sdpa_case(*example, True, "the notebook's example, causal by default", pass_flag=False)]


def _qkv(seed, batch, L, S, d, dv):
    rng = np.random.default_rng(seed)
    return random_array(rng, *batch, L, d), random_array(rng, *batch, S, d), random_array(rng, *batch, S, dv)


def _sdpa_cases(shapes, seed0):
    found = []
    for seed, (batch, L, S, d, dv, causal) in enumerate(shapes):
        q, k, v = _qkv(seed0 + seed, batch, L, S, d, dv)
        case = _sdpa_case(q, k, v, causal, f"random q {q.shape}, k {k.shape}, v {v.shape}, causal={causal}")
        found.append(batched(case, q.shape, 2))
    return found


# ---- Head ----

def _head_state(rng, embed_dim, head_size):
    return {f"{name}.weight": random_array(rng, head_size, embed_dim) for name in ("key", "query", "value")}


def _head_reference(state, inputs, embed_dim, head_size):
    head = ref.Head(embed_dim, head_size).eval()
    head.load_state_dict({name: _t(w) for name, w in state.items()})
    with torch.no_grad():
        return head(*(_t(a) for a in inputs)).numpy()


def _head_diagnoses(state, inputs, embed_dim, head_size):
    query, key, value = (_t(a) for a in inputs)
    q = (query @ _t(state["query.weight"]).T).numpy()
    k = (key @ _t(state["key.weight"]).T).numpy()
    v = (value @ _t(state["value.weight"]).T).numpy()
    others = (embed_dim ** -0.5,) if embed_dim != head_size else ()
    return _attention_diagnoses(q, k, v, True, head_size ** -0.5, others)


def _head_case(label, state, inputs, embed_dim, head_size, dropout=None, train=False):
    expected = _head_reference(state, inputs, embed_dim, head_size)
    diagnoses = _head_diagnoses(state, inputs, embed_dim, head_size)
    what = f"Head({embed_dim}, {head_size}) on inputs of shape {inputs[0].shape}"
    compare = expect("Tensor", expected, what, diagnoses=diagnoses)

    def judge(outcome):
        check_head_layout(outcome, embed_dim, head_size)
        compare(outcome)
    return Case(label, judge, head_params(state, inputs, embed_dim, head_size, dropout, train), probe="module")


def _head_fixture():
    state = {"query.weight": fixture.W_QUERY.T.copy(), "key.weight": fixture.W_KEY.T.copy(),
             "value.weight": fixture.W_VALUE.T.copy()}
    x = fixture.X[None]  # (1, 3, 4)
    return [_head_case("the notebook's example weights and inputs", state, (x, x, x), 4, 3)]


def _head_random():
    found = []
    for seed, (B, T, E, hs, distinct) in enumerate([(2, 5, 4, 3, False), (3, 7, 6, 4, False),
                                                    (1, 1, 3, 2, False), (2, 6, 5, 8, True)]):
        rng = np.random.default_rng(400 + seed)
        state = _head_state(rng, E, hs)
        x = random_array(rng, B, T, E)
        inputs = (x, random_array(rng, B, T, E), random_array(rng, B, T, E)) if distinct else (x, x, x)
        kind = "different query, key and value inputs" if distinct else "self-attention"
        found.append(_head_case(f"random weights, inputs ({B}, {T}, {E}), head_size {hs}, {kind}",
                                state, inputs, E, hs))
    return found


def _head_causality():
    B, T, E, hs, t0 = 2, 7, 5, 4, 4
    rng = np.random.default_rng(420)
    state = _head_state(rng, E, hs)
    x = random_array(rng, B, T, E)
    changed = x.copy()
    changed[:, t0:] = random_array(rng, B, T - t0, E) * 3
    before = _head_reference(state, (x, x, x), E, hs)[:, :t0]
    diagnoses = [(key, wrong[:, :t0]) for key, wrong in _head_diagnoses(state, (changed,) * 3, E, hs)]

    def judge(outcome):
        check_head_layout(outcome, E, hs)
        got = array_of(outcome, "Tensor", (B, T, hs), "floating", f"Head({E}, {hs}) on the changed input")
        close(got[:, :t0], before, f"the outputs at positions 0-{t0 - 1} on an input whose tokens from position "
              f"{t0} on were replaced (a causal head gives the same outputs there as on the unchanged input)",
              diagnoses=diagnoses)
    return [Case(f"inputs whose tokens {t0}-{T - 1} were replaced", judge,
                 head_params(state, (changed,) * 3, E, hs), probe="module")]


def _head_dropout():
    rng = np.random.default_rng(430)
    state = _head_state(rng, 6, 3)
    x = random_array(rng, 2, 5, 6)
    return [_head_case("dropout=0.5 in eval mode (no dropout)", state, (x, x, x), 6, 3, dropout=0.5),
            _head_case("dropout=0.0 in training mode", state, (x, x, x), 6, 3, dropout=0.0, train=True)]


PARTS = {
    "causal_average_loop": [
        Part("the notebook's running means", 1, _running_mean_known("causal_average_loop")),
        Part("random batches, lengths and widths", 1, _running_mean_random("causal_average_loop"), gate=True, requires={"edge", "shape"})],
    "causal_average_weights": [
        Part("row 3 of T = 8", 1, _weights_known),
        Part("other lengths T", 1, _weights_random, gate=True, requires={"edge"})],
    "causal_average_matmul": [
        Part("the notebook's running means", 1, _running_mean_known("causal_average_matmul")),
        Part("random batches, lengths and widths", 1,
             _running_mean_random("causal_average_matmul"), gate=True,
             requires={"edge", "shape"})],
    "causal_mask": [
        Part("random square and non-square scores", 1, _mask_random, gate=True, requires={"shape"}),
        Part("batches of scores", 1, _mask_batches, requires={"batch"}),
        Part("returns a new tensor, the input unchanged", 1, _mask_new_tensor,
             requires={"inputs", "shape"})],
    "causal_average_softmax": [
        Part("the notebook's running means", 1,
             _running_mean_known("causal_average_softmax")),
        Part("random batches, lengths and widths", 1,
             _running_mean_random("causal_average_softmax"), gate=True, requires={"edge", "shape"})],
    "scaled_dot_product_attention": known_random_batches(
        ("the notebook's example, with and without the mask", "random single sequences, square and non-square",
         "leading batch dimensions"), _sdpa_known, _sdpa_cases,
        random=([((), 5, 5, 4, 3, True), ((), 5, 5, 4, 3, False), ((), 3, 6, 8, 2, True), ((), 6, 3, 2, 5, True),
                 ((), 4, 7, 3, 3, False)], 300),
        batches=([((2,), 5, 5, 4, 3, True), ((3,), 4, 6, 5, 2, True), ((2,), 6, 6, 3, 4, False),
                  ((2, 3), 4, 4, 8, 3, True), ((2, 2), 5, 3, 4, 4, True)], 310), requires={"argument"}),
    "Head": [
        Part("the notebook's example weights", 1, _head_fixture, requires={"weights"}),
        Part("random weights and inputs", 1, _head_random, gate=True,
             requires={"edge", "shape", "weights"}),
        Part("a later token never changes an earlier output", 1, _head_causality,
             requires={"causal", "weights"}),
        Part("dropout off in eval mode", 1, _head_dropout, requires={"mode", "weights"})],
}
