"""The misconception catalogue: for each known mistake, a short title, what it is in words for a stuck student
and what the students did in words for their instructor (the class report).

Words only: the wrong answers that make each mistake are the instructor's (``grader/hidden/wrong_answers.py``).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Misconception:
    """One known mistake, in words for each reader."""
    key: str
    title: str  # for reports that list the mistakes
    explanation: str  # for the student, as "likely mistake"
    for_instructors: str  # for the class report: what the students did


CATALOGUE = (
    Misconception(
        "scores_no_transpose", "scores without transposing the keys",
        "It looks like you multiplied queries @ keys without transposing the keys. "
        "Each score is a dot product of a query with a key, so you need queries @ keys "
        "transposed over its last two dimensions (keys.transpose(-2, -1)).",
        "Multiplied queries @ keys without transposing the keys (keys.transpose(-2, -1))."),
    Misconception(
        "softmax_dim0", "softmax over the wrong dimension (columns sum to 1)",
        "Your weights sum to 1 down each column instead of along each row. The softmax "
        "must run over the last dimension (dim=-1), the keys, so that each query's weights sum to 1.",
        "Took the softmax over the wrong dimension, so the weights sum to 1 down each column "
        "instead of along each row (the keys, dim=-1)."),
    Misconception(
        "softmax_implicit_dim", "softmax without dim: right on one matrix, wrong on a batch",
        "Your answer is right for one matrix but wrong for a batch: it looks like "
        "torch.nn.functional.softmax was called without dim. It then guesses, with a warning (dimension 1 "
        "for 2-D input, dimension 0 for 3-D input), so a batch is normalised across its sequences. "
        "(torch.softmax and scores.softmax do not guess: without dim they raise a TypeError.) Pass dim=-1.",
        "Called torch.nn.functional.softmax without dim: right on one matrix, but on a batch it "
        "normalises across the sequences."),
    Misconception(
        "context_scaled_columns", "context vector: scaling columns instead of rows",
        "It looks like you multiplied softmax(scores) * hidden_states and summed each row, which "
        "scales the columns. Each weight belongs to one row (one position): weight the rows, "
        "then add them up over the positions (weights @ hidden_states).",
        "Multiplied softmax(scores) * hidden_states and summed each row, which scales the "
        "columns instead of weighting the rows (weights @ hidden_states)."),
    Misconception(
        "sum_over_features", "summing each weighted value over its features instead of over the keys",
        "It looks like you summed each weighted value over its features. The output for a query "
        "is the sum of its weighted values over the keys: add up the rows, keeping the feature "
        "dimension.",
        "Summed each weighted value over its features instead of adding the weighted values up "
        "over the keys."),
    Misconception(
        "scaling_wrong", "scaling by d_k instead of sqrt(d_k), or not at all",
        "The scores are scaled wrongly: divide by sqrt(d_k), the size of one query or key (one head's "
        "size in multi-head attention), not by d_k, and do not skip the scaling. Without it, large "
        "scores push the softmax towards one-hot weights.",
        "Scaled the scores by d_k instead of sqrt(d_k), or not at all."),
    Misconception(
        "masking_wrong", "masking after the softmax, or with 0 instead of -inf",
        "The mask is missing or applied wrongly: set the scores of the positions to ignore (the future, "
        "or padding) to -inf before the softmax. Masking after the softmax leaves rows that no longer "
        "sum to 1, and masking with 0 instead of -inf still gives those positions some weight.",
        "Masked after the softmax, or with 0 instead of -inf, so masked positions keep some weight."),
    Misconception(
        "softmax_unstable", "softmax without subtracting the max: nan for large inputs",
        "Your softmax overflows for large inputs (nan or inf). Subtract the maximum of each row "
        "before exp: softmax(x) = softmax(x - max(x)), and exp of a non-positive number cannot overflow.",
        "Did not subtract each row's maximum before exp, so the softmax gives nan or inf for "
        "large inputs."),
)

MISCONCEPTIONS = {m.key: m for m in CATALOGUE}
