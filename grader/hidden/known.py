"""Known outputs from the source notebooks (printed to 4-5 significant digits)."""
import numpy as np

SOFTMAX = np.array([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                    [6.0337e-06, 9.8201e-01, 1.7986e-02],
                    [2.9539e-04, 8.8054e-01, 1.1917e-01]])
OUTPUT = np.array([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
APPROXIMATE_OUTPUT = np.array([[2.0, 7.0, 1.5], [2.0, 8.0, 0.0], [2.0, 7.8, 0.3]])
WEIGHTED_VALUES_QUERY0 = np.array([[0.0634, 0.1268, 0.1901], [0.9366, 3.7465, 0.0], [0.9366, 2.8099, 1.4049]])
SCALED_OUTPUT = np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]])
SCORES_NO_TRANSPOSE = np.array([[4, 7, 3], [12, 16, 4], [10, 15, 5]])
SOURCE_ATOL = 1e-4

# ---- 02_self_attention_step_by_step (weighted values and sums with the source's approximate weights) ----
APPROXIMATE_WEIGHTED_VALUES_QUERY0 = np.array([[0.0, 0.0, 0.0], [1.0, 4.0, 0.0], [1.0, 3.0, 1.5]])
APPROXIMATE_OUTPUT_QUERY0 = np.array([2.0, 7.0, 1.5])
SUM_OVER_FEATURES_QUERY0 = np.array([0.3803, 4.6831, 5.1514])  # the sum_over_features mistake, query 0
# ---- end 02_self_attention_step_by_step ----

# ---- 01_attention_basics (seed 001: softmax of one score vector, context vector, keys, one query) ----
SOFTMAX_13_9_9 = np.array([0.9647, 0.0177, 0.0177])
SOFTMAX_2_4_4 = np.array([0.0634, 0.4683, 0.4683])
CONTEXT_HIDDEN_STATES = np.array([[0.21, 0.51, 1.25], [4.13, -41.3, 0.31], [3.2, 0.02, 9.44]], dtype=np.float32)
CONTEXT_VECTOR = np.array([0.3321, -0.2374, 1.3781])
CONTEXT_SCALED_COLUMNS = np.array([0.2337, 3.2598, 3.2541])  # the context_scaled_columns mistake
KEYS_FROM_VECTORS = np.array([[0, 1, 1], [4, 4, 0], [2, 3, 1]], dtype=np.int64)
QUERY0_SCORES = np.array([2.0, 4.0, 4.0])
# ---- end 01_attention_basics ----

# --- 03_attention_in_numpy (grader/hidden/numpy_attention.py) ---------------------------------
# Seed 003's wrong final sum for query 0 (unscaled): each weighted value summed over its features.
WRONG_SUM_QUERY0 = np.array([0.3803, 4.6831, 5.1514])
# Large inputs: exp overflows without the max subtracted; the right answer is plain.
LARGE_INPUTS = np.array([1000.0, 1000.0], dtype=np.float32)
LARGE_SOFTMAX = np.array([0.5, 0.5])
LARGE_ATOL = 1e-4  # exp(x - logsumexp(x)) is off by about 1.5e-5 near 1000 in float32
# --- end 03_attention_in_numpy -----------------------------------------------------------------

# ---- 04_causal_self_attention (seed 002) -------------------------------------------------
# Running means of x = torch.randn(4, 8, 2) after torch.manual_seed(42) (the grader draws x itself).
CAUSAL_MEAN_STEP_1 = np.array([1.4138, -0.3091])  # out[0, 1]
CAUSAL_MEAN_STEP_7 = np.array([0.1027, -0.3762])  # out[0, 7]
CAUSAL_WEIGHTS_ROW_3 = np.array([0.25] * 4 + [0.0] * 4)  # row 3 of causal_average_weights(8)
# torch.manual_seed(42); b = torch.randint(0, 10, (8, 2)).float(), as printed in the source.
RANDINT_B = np.array([[2, 7], [6, 4], [6, 5], [0, 4], [0, 3], [8, 4], [0, 4], [1, 2]], dtype=np.float32)
RANDINT_RUNNING_SUM_LAST = np.array([23.0, 33.0])
RANDINT_RUNNING_MEAN_LAST = np.array([2.875, 4.125])
# ---- end of 04_causal_self_attention -----------------------------------------------------
