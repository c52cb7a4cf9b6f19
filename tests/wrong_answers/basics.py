"""Plausible wrong answers to 01_attention_basics, each with the misconception it should be diagnosed as."""
import torch
import torch.nn.functional as F

from grader.checks import fixture

# ---- softmax_scores ----


def softmax_dim0(scores):
    return F.softmax(scores, dim=0)


def softmax_implicit_dim(scores):
    return F.softmax(scores)  # right for one vector or one matrix, normalises a 3-D batch over dim 0


def softmax_unstable(scores):
    return scores.exp() / scores.exp().sum(dim=-1, keepdim=True)


def softmax_hard_coded(scores):
    return torch.tensor(fixture.SCORES).softmax(dim=-1)


def softmax_in_place(scores):
    return scores.sub_(scores.amax(dim=-1, keepdim=True)).exp_().div_(scores.sum(dim=-1, keepdim=True))


# ---- context_vector ----


def context_scaled_columns(scores, hidden_states):
    return (F.softmax(scores, dim=-1) * hidden_states).sum(dim=-1)


def context_implicit_dim(scores, hidden_states):
    weights = F.softmax(scores)  # dim 0 for 3-D scores
    return (weights.unsqueeze(-1) * hidden_states).sum(dim=-2)


def context_no_softmax(scores, hidden_states):
    return scores @ hidden_states


def context_one_sequence_only(scores, hidden_states):
    return F.softmax(scores, dim=-1) @ hidden_states  # right for one sequence, wrong shape for a batch


def context_unstable(scores, hidden_states):
    weights = softmax_unstable(scores)
    return (weights.unsqueeze(-2) @ hidden_states).squeeze(-2)


def context_hard_coded(scores, hidden_states):
    return torch.tensor([0.3321, -0.2374, 1.3781])


# ---- compute_keys ----


def keys_as_float(vs, ws):
    return torch.stack(vs).float() @ torch.stack(ws, dim=1).float()


def keys_weights_as_rows(vs, ws):
    return torch.stack(vs) @ torch.stack(ws)


def keys_hard_coded(vs, ws):
    return torch.tensor([[0, 1, 1], [4, 4, 0], [2, 3, 1]])


# ---- project_qkv ----


def qkv_swapped(x, w_query, w_key, w_value):
    return x @ w_key, x @ w_query, x @ w_value


def qkv_stacked(x, w_query, w_key, w_value):
    return torch.stack([x @ w_query, x @ w_key, x @ w_value])


def qkv_one_matrix_only(x, w_query, w_key, w_value):
    x = x.reshape(-1, x.shape[-1])[: x.shape[-2]]  # drops the batch: the first sequence only
    return x @ w_query, x @ w_key, x @ w_value


def qkv_hard_coded(x, w_query, w_key, w_value):
    return torch.tensor(fixture.QUERIES), torch.tensor(fixture.KEYS), torch.tensor(fixture.VALUES)


# ---- query_scores ----


def query_no_transpose(query, keys):
    return query @ keys


def query_elementwise(query, keys):
    return query * keys.T  # the source's first try: a matrix, not one score per key


def query_dot_T(query, keys):
    return query @ keys.T  # right for one query; .T reverses every dimension of a batch


def query_hard_coded(query, keys):
    return torch.tensor([2.0, 4.0, 4.0])


# ---- attention_scores ----


def scores_no_transpose(queries, keys):
    return queries @ keys


def scores_dot_T(queries, keys):
    return queries @ keys.T  # right for one matrix, wrong for a batch


def scores_hard_coded(queries, keys):
    return torch.tensor(fixture.SCORES)


WRONG = [
    ("softmax_scores", "softmax_dim0", softmax_dim0),
    ("softmax_scores", "softmax_implicit_dim", softmax_implicit_dim),
    ("softmax_scores", "softmax_unstable", softmax_unstable),
    ("softmax_scores", None, softmax_hard_coded),
    ("softmax_scores", None, softmax_in_place),
    ("context_vector", "context_scaled_columns", context_scaled_columns),
    ("context_vector", "softmax_implicit_dim", context_implicit_dim),
    ("context_vector", None, context_no_softmax),
    ("context_vector", None, context_one_sequence_only),
    ("context_vector", None, context_hard_coded),
    ("context_vector", "softmax_unstable", context_unstable),
    ("compute_keys", None, keys_as_float),
    ("compute_keys", None, keys_weights_as_rows),
    ("compute_keys", None, keys_hard_coded),
    ("project_qkv", None, qkv_swapped),
    ("project_qkv", None, qkv_stacked),
    ("project_qkv", None, qkv_one_matrix_only),
    ("project_qkv", None, qkv_hard_coded),
    ("query_scores", "scores_no_transpose", query_no_transpose),
    ("query_scores", None, query_elementwise),
    ("query_scores", None, query_dot_T),
    ("query_scores", None, query_hard_coded),
    ("attention_scores", "scores_no_transpose", scores_no_transpose),
    ("attention_scores", None, scores_dot_T),
    ("attention_scores", None, scores_hard_coded),
]
