"""Reference solutions for 01_attention_basics."""
import torch


def attention_scores(queries, keys):
    """Every query against every key: (..., n, d) @ (..., d, m) -> (..., n, m)."""
    return queries @ keys.transpose(-2, -1)
