"""Reference solutions for 01_attention_basics."""
import torch
import torch.nn.functional as F


def softmax_scores(scores):
    """Turn scores into weights that sum to 1 over the last dimension: (..., n) -> (..., n)."""
    return F.softmax(scores, dim=-1)


def context_vector(scores, hidden_states):
    """The softmax-weighted sum of the rows of hidden_states: (..., n), (..., n, d) -> (..., d)."""
    weights = F.softmax(scores, dim=-1)  # (..., n)
    return (weights.unsqueeze(-2) @ hidden_states).squeeze(-2)  # (..., 1, n) @ (..., n, d) -> (..., d)


def compute_keys(vs, ws):
    """Vectors as rows times weight vectors as columns: n x (d,), m x (d,) -> (n, m)."""
    v = torch.stack(vs, dim=-2)  # (n, d)
    w = torch.stack(ws, dim=-1)  # (d, m)
    return v @ w  # (n, m)


def project_qkv(x, w_query, w_key, w_value):
    """Queries, keys and values of the inputs: (..., n, d_in) @ (d_in, d_out) -> (..., n, d_out)."""
    return x @ w_query, x @ w_key, x @ w_value


def query_scores(query, keys):
    """One query against every key: (..., d), (..., n, d) -> (..., n)."""
    return (keys @ query.unsqueeze(-1)).squeeze(-1)  # (..., n, d) @ (..., d, 1) -> (..., n)


def attention_scores(queries, keys):
    """Every query against every key: (..., n, d) @ (..., d, m) -> (..., n, m)."""
    return queries @ keys.transpose(-2, -1)
