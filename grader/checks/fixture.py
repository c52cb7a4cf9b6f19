"""The shared fixture: three inputs of dimension 4 and weights of shape (4, 3)."""

import numpy as np

X = np.array([[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]], dtype=np.float32)
W_KEY = np.array([[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]], dtype=np.float32)
W_QUERY = np.array([[1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]], dtype=np.float32)
W_VALUE = np.array([[0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]], dtype=np.float32)

KEYS = X @ W_KEY
QUERIES = X @ W_QUERY
VALUES = X @ W_VALUE
SCORES = QUERIES @ KEYS.T
