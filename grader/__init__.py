"""An autograded exercise kit that teaches self-attention."""

import os

# The grader's own arrays are small: NumPy's OpenBLAS keeps to this thread instead of starting one per core, so
# that a grader stays single-threaded and can fork its grading processes (grader.autograde.nbgrader_pass).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
