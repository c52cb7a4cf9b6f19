"""The known misconceptions: a short title for each, what the mistake is in words for a stuck student, and what
the students did in words for their instructor (the class report)."""

# The catalogue's words for each misconception, for reports that list them (in place of the ids).
TITLES = {
    "scores_no_transpose": "scores without transposing the keys",
    "softmax_dim0": "softmax over the wrong dimension (columns sum to 1)",
    "softmax_implicit_dim": "softmax without dim: right on one matrix, wrong on a batch",
    "context_scaled_columns": "context vector: scaling columns instead of rows",
    "sum_over_features": "summing each weighted value over its features instead of over the keys",
    "scaling_wrong": "scaling by d_k instead of sqrt(d_k), or not at all",
    "masking_wrong": "masking after the softmax, or with 0 instead of -inf",
    "softmax_unstable": "softmax without subtracting the max: nan for large inputs",
}

MISCONCEPTIONS = {
    "scores_no_transpose": (
        "It looks like you multiplied queries @ keys without transposing the keys. "
        "Each score is a dot product of a query with a key, so you need queries @ keys "
        "transposed over its last two dimensions (keys.transpose(-2, -1))."),
    "softmax_dim0": (
        "Your weights sum to 1 down each column instead of along each row. The softmax "
        "must run over the last dimension (dim=-1), the keys, so that each query's weights sum to 1."),
    "softmax_implicit_dim": (
        "Your answer is right for one matrix but wrong for a batch: it looks like "
        "torch.nn.functional.softmax was called without dim. It then guesses, with a warning (dimension 1 "
        "for 2-D input, dimension 0 for 3-D input), so a batch is normalised across its sequences. "
        "(torch.softmax and scores.softmax do not guess: without dim they raise a TypeError.) Pass dim=-1."),
    "context_scaled_columns": (
        "It looks like you multiplied softmax(scores) * hidden_states and summed each row, which "
        "scales the columns. Each weight belongs to one row (one position): weight the rows, "
        "then add them up over the positions (weights @ hidden_states)."),
    "sum_over_features": (
        "It looks like you summed each weighted value over its features. The output for a query "
        "is the sum of its weighted values over the keys: add up the rows, keeping the feature "
        "dimension."),
    "scaling_wrong": (
        "The scores are scaled wrongly: divide by sqrt(d_k), the size of one query or key (one head's "
        "size in multi-head attention), not by d_k, and do not skip the scaling. Without it, large "
        "scores push the softmax towards one-hot weights."),
    "masking_wrong": (
        "The mask is missing or applied wrongly: set the scores of the positions to ignore (the future, "
        "or padding) to -inf before the softmax. Masking after the softmax leaves rows that no longer "
        "sum to 1, and masking with 0 instead of -inf still gives those positions some weight."),
    "softmax_unstable": (
        "Your softmax overflows for large inputs (nan or inf). Subtract the maximum of each row "
        "before exp: softmax(x) = softmax(x - max(x)), and exp of a non-positive number cannot overflow."),
}

# The same mistakes in the instructor's voice, for the class report: what the students did.
FOR_INSTRUCTORS = {
    "scores_no_transpose": "Multiplied queries @ keys without transposing the keys (keys.transpose(-2, -1)).",
    "softmax_dim0": "Took the softmax over the wrong dimension, so the weights sum to 1 down each column "
                    "instead of along each row (the keys, dim=-1).",
    "softmax_implicit_dim": "Called torch.nn.functional.softmax without dim: right on one matrix, but on a batch it "
                            "normalises across the sequences.",
    "context_scaled_columns": "Multiplied softmax(scores) * hidden_states and summed each row, which scales the "
                              "columns instead of weighting the rows (weights @ hidden_states).",
    "sum_over_features": "Summed each weighted value over its features instead of adding the weighted values up "
                         "over the keys.",
    "scaling_wrong": "Scaled the scores by d_k instead of sqrt(d_k), or not at all.",
    "masking_wrong": "Masked after the softmax, or with 0 instead of -inf, so masked positions keep some weight.",
    "softmax_unstable": "Did not subtract each row's maximum before exp, so the softmax gives nan or inf for "
                        "large inputs.",
}
