"""Visible checks for 01_attention_basics."""
from . import fixture
from .framework import Case, Part
from .judges import array_of
from .plain import TensorArg


def _scores_shape():
    def judge(outcome):
        array_of(outcome, "Tensor", (3, 3), "floating", "attention_scores(queries, keys)")
    return [Case("the fixture's queries and keys", judge,
                 {"args": (TensorArg(fixture.QUERIES), TensorArg(fixture.KEYS)), "kwargs": {}})]


PARTS = {
    "attention_scores": [Part("returns a float tensor of shape (n_queries, n_keys)", 1, _scores_shape)],
}
