"""Known outputs from the source notebooks (printed to 4-5 significant digits)."""
import numpy as np

SOFTMAX = np.array([[6.3379e-02, 4.6831e-01, 4.6831e-01],
                    [6.0337e-06, 9.8201e-01, 1.7986e-02],
                    [2.9539e-04, 8.8054e-01, 1.1917e-01]])
OUTPUT = np.array([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
APPROXIMATE_WEIGHTS = np.array([[0.0, 0.5, 0.5], [0.0, 1.0, 0.0], [0.0, 0.9, 0.1]], dtype=np.float32)
APPROXIMATE_OUTPUT = np.array([[2.0, 7.0, 1.5], [2.0, 8.0, 0.0], [2.0, 7.8, 0.3]])
WEIGHTED_VALUES_QUERY0 = np.array([[0.0634, 0.1268, 0.1901], [0.9366, 3.7465, 0.0], [0.9366, 2.8099, 1.4049]])
SCALED_OUTPUT = np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]])
SCORES_NO_TRANSPOSE = np.array([[4, 7, 3], [12, 16, 4], [10, 15, 5]])
SOURCE_ATOL = 1e-4
