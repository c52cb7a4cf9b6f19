"""What the student package requires: the oldest versions its code needs, never exact pins.

A student installs the wheel into an environment that already holds these (Colab, a JupyterHub image);
an exact pin would replace them (Colab's IPython, which google-colab pins; a hub's numpy, which numba
caps). Each minimum comes from the APIs that ``grader.checks``, ``grader.selfcheck`` and the notebooks
use, and from the oldest versions the kit was run on (``tests/envs/oldest.txt``); no upper bounds.
"""

REQUIRES_PYTHON = ">=3.10"  # torch 2.11+ (Colab's and newer) needs 3.10; the kit runs on 3.10 to 3.13

REQUIRES = [
    # torch.nn.functional.scaled_dot_product_attention(is_causal=) and MultiheadAttention(is_causal=) in
    # notebook 04 and 05 are torch 2.0's; the checks use older APIs only (Generator, load_state_dict, no_grad).
    "torch>=2.0",
    # The test cells read IPython's In history and IPython.core.inputtransformer2 (IPython 7.0);
    # 7.34 is Colab's (google-colab pins it) and the oldest run.
    "ipython>=7.34",
    # np.array_equal(equal_nan=) (1.19), np.random.default_rng (1.17); 1.23.2, the first with Python 3.11
    # wheels, is the oldest run.
    "numpy>=1.23",
    # Axes.get_subplotspec on every Axes, a colour bar's too, is 3.7's: on 3.6 the show_heatmaps check fails
    # on a right answer. 3.7.0 is the oldest run.
    "matplotlib>=3.7",
    # pytest_collect_file(file_path=...) and Node.from_parent(path=pathlib.Path) are pytest 7.0's; 7.0.0 is
    # the oldest run.
    "pytest>=7.0",
]

# The extra ``[jupyter]``, for a laptop without Jupyter: the notebook app and a kernel. ipykernel 6.17 is
# Colab's (google-colab pins it), the oldest kernel the test cells were run in.
JUPYTER = ["notebook", "ipykernel>=6.17"]
