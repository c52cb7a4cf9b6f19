"""Hidden checks for 01_attention_basics."""
import numpy as np
import torch

from ..checks import fixture
from ..checks.framework import Case, Part
from ..checks.judges import expect
from ..checks.plain import TensorArg
from ..reference import basics as ref
from . import known
from .randomised import random_array


def _call(*args, **kwargs):
    return {"args": tuple(TensorArg(a) for a in args), "kwargs": kwargs}


def _scores_known():
    judge = expect("Tensor", fixture.SCORES, "attention_scores on the fixture", atol=known.SOURCE_ATOL,
                   diagnoses=[("scores_no_transpose", known.SCORES_NO_TRANSPOSE)])
    return [Case("the fixture's queries and keys", judge, _call(fixture.QUERIES, fixture.KEYS))]


def _scores_random():
    cases = []
    for seed, (batch, n, m, d) in enumerate([((), 4, 4, 5), ((2,), 3, 5, 4), ((2, 3), 6, 2, 8)]):
        rng = np.random.default_rng(seed)
        q, k = random_array(rng, *batch, n, d), random_array(rng, *batch, m, d)
        expected = ref.attention_scores(torch.from_numpy(q), torch.from_numpy(k)).numpy()
        wrong = [("scores_no_transpose", lambda got, q=q, k=k: _no_transpose_matches(got, q, k))]
        judge = expect("Tensor", expected, f"attention_scores on queries {q.shape} and keys {k.shape}",
                       diagnoses=wrong)
        cases.append(Case(f"random queries {q.shape} and keys {k.shape}", judge, _call(q, k)))
    return cases


def _no_transpose_matches(got, q, k):
    return q.shape[-1] == k.shape[-2] and np.allclose(got, q @ k, rtol=1e-5, atol=1e-6)


PARTS = {
    "attention_scores": [Part("the fixture's scores", 1, _scores_known, hidden=True),
                         Part("random shapes and batches", 1, _scores_random, hidden=True, gate=True)],
}
