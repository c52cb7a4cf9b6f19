"""Known outputs of the running example (three inputs x and the weights of notebook 01), which several notebooks
compute: from the source notebooks, printed to 4-5 significant digits. Each notebook's other known numbers sit in
its exercise module (grader/exercises/)."""

import numpy as np

SOFTMAX = np.array(
    [[6.3379e-02, 4.6831e-01, 4.6831e-01], [6.0337e-06, 9.8201e-01, 1.7986e-02], [2.9539e-04, 8.8054e-01, 1.1917e-01]]
)
OUTPUT = np.array([[1.9366, 6.6831, 1.5951], [2.0000, 7.9640, 0.0540], [1.9997, 7.7599, 0.3584]])
SCALED_OUTPUT = np.array([[1.8639, 6.3194, 1.7042], [1.9991, 7.8141, 0.2735], [1.9926, 7.4796, 0.7359]])
SOURCE_ATOL = 1e-4
