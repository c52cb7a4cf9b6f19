"""Rules about how an answer is written are read from the notebook's source: every evasion we know of fails."""

import pytest

from grader.checks.cases import Mismatch
from grader.checks.policy import source_outcome
from grader.checks.registry import visible_parts
from grader.checks.running import plan, run_locally
from grader.checks.scoring import judge_parts
from grader.exercises.numpy_attention import numpy_only
from grader.exercises.step_by_step import not_shown_in_source

NUMPY = "import numpy as np\n"
GOOD_BODY = "    e = np.exp(x - x.max(axis=axis, keepdims=True))\n    return e / e.sum(axis=axis, keepdims=True)\n"
GOOD = NUMPY + "def softmax(x, axis=-1):\n" + GOOD_BODY

SOFTMAX_EVASIONS = {
    "direct torch call": [
        "import torch\n",
        "def softmax(x, axis=-1):\n    return torch.softmax(torch.from_numpy(x), dim=axis).numpy()\n",
    ],
    "closure over torch.softmax": [
        "import torch\n",
        "def make():\n    f = torch.softmax\n"
        "    def inner(x, axis=-1):\n        return f(torch.from_numpy(x), axis).numpy()\n"
        "    return inner\n\nsoftmax = make()\n",
    ],
    "scipy imported by name": [
        "from scipy.special import softmax as sp\n",
        "def softmax(x, axis=-1):\n    return sp(x, axis=axis)\n",
    ],
    "scipy module chain": [
        "import scipy.special\n",
        "def softmax(x, axis=-1):\n    return scipy.special.softmax(x, axis=axis)\n",
    ],
    "torch imported as np": ["import torch as np\n", "def softmax(x, axis=-1):\n    return np.softmax(x, axis)\n"],
    "alias of a module": ["import torch\nt = torch\n", "def softmax(x, axis=-1):\n    return t.softmax(x, axis)\n"],
    "alias of a function": [
        "import torch\nfunction = torch.softmax\n",
        "def softmax(x, axis=-1):\n    return function(x, axis)\n",
    ],
    "__import__": [NUMPY, "def softmax(x, axis=-1):\n    return __import__('torch').softmax(x, axis)\n"],
    "importlib": [
        "import importlib\n",
        "def softmax(x, axis=-1):\n    return importlib.import_module('scipy.special').softmax(x, axis)\n",
    ],
    "import_module by name": [
        "from importlib import import_module as im\n",
        "def softmax(x, axis=-1):\n    return im('scipy.special').softmax(x, axis)\n",
    ],
    "getattr": ["import torch\n", "def softmax(x, axis=-1):\n    return getattr(torch, 'softmax')(x, axis)\n"],
    "helper function": [
        "import torch\ndef helper(x, axis):\n    return torch.softmax(x, axis)\n",
        "def softmax(x, axis=-1):\n    return helper(x, axis)\n",
    ],
    "default argument": ["import torch\n", "def softmax(x, axis=-1, f=torch.softmax):\n    return f(x, axis)\n"],
    "lambda": ["import torch\n", "softmax = lambda x, axis=-1: torch.softmax(x, axis)\n"],
    "partial": ["import functools\nimport torch\n", "softmax = functools.partial(torch.softmax)\n"],
    "star import": [
        "from torch import *\n",
        "def softmax(x, axis=-1):\n    e = exp(x)\n    return e / e.sum(axis, keepdim=True)\n",
    ],
    "local import": ["def softmax(x, axis=-1):\n    import torch\n    return torch.softmax(x, axis)\n"],
    "local from-import": [
        "def softmax(x, axis=-1):\n    from scipy import special\n    return special.softmax(x, axis)\n"
    ],
    "eval": [NUMPY + "import torch\n", "def softmax(x, axis=-1):\n    return eval('torch.softmax(x, axis)')\n"],
    "sys.modules": ["import sys\n", "def softmax(x, axis=-1):\n    return sys.modules['torch'].softmax(x, axis)\n"],
    "globals()": ["import torch\n", "def softmax(x, axis=-1):\n    return globals()['torch'].softmax(x, axis)\n"],
    "callable class": [
        "import torch\nclass Softmax:\n    def __call__(self, x, axis=-1):\n        return torch.softmax(x, axis)\n",
        "softmax = Softmax()\n",
    ],
    "decorated": ["import torch\n", "@torch.no_grad()\ndef softmax(x, axis=-1):\n" + GOOD_BODY],
    "numpy patched with torch": [
        NUMPY + "import torch\nnp.exp = lambda x: torch.exp(torch.from_numpy(x)).numpy()\n",
        "def softmax(x, axis=-1):\n" + GOOD_BODY,
    ],
    "setattr on numpy": [
        NUMPY + "import torch\nsetattr(np, 'exp', torch.exp)\n",
        "def softmax(x, axis=-1):\n" + GOOD_BODY,
    ],
    "numpy's dict updated": [
        NUMPY + "import torch\nnp.__dict__.update(exp=torch.exp)\n",
        "def softmax(x, axis=-1):\n" + GOOD_BODY,
    ],
    "name made by exec": ["exec('import torch as T')\n", "def softmax(x, axis=-1):\n    return T.softmax(x, axis)\n"],
    "conditional import": [
        "try:\n    from scipy.special import softmax as sp\nexcept ImportError:\n    sp = None\n",
        "def softmax(x, axis=-1):\n    return sp(x, axis=axis)\n",
    ],
    "wrapped after the definition": [GOOD, "import torch\nsoftmax = torch.no_grad()(softmax)\n"],
    "other library": ["import jax.nn\n", "def softmax(x, axis=-1):\n    return jax.nn.softmax(x, axis)\n"],
    "own module": ["import my_softmax\n", "def softmax(x, axis=-1):\n    return my_softmax.softmax(x, axis)\n"],
    "walrus": [NUMPY, "import torch\n", "def softmax(x, axis=-1):\n    return (f := torch.softmax)(x, axis)\n"],
}

SOFTMAX_ALLOWED = {
    "plain NumPy": [GOOD],
    "names imported from NumPy": [
        "from numpy import exp, max as npmax\n",
        "def softmax(x, axis=-1):\n"
        "    e = exp(x - npmax(x, axis=axis, keepdims=True))\n"
        "    return e / e.sum(axis=axis, keepdims=True)\n",
    ],
    "a NumPy helper": [
        NUMPY + "def shifted(x, axis):\n    return x - np.max(x, axis=axis, keepdims=True)\n",
        "def softmax(x, axis=-1):\n    e = np.exp(shifted(x, axis))\n"
        "    return e / np.sum(e, axis=axis, keepdims=True)\n",
    ],
    "torch imported elsewhere in the notebook": ["import torch\n" + NUMPY, GOOD, "t = torch.zeros(3)\n"],
    "an earlier SciPy answer, replaced": ["from scipy.special import softmax\n", GOOD],
    "a docstring that names torch": [
        NUMPY,
        'def softmax(x, axis=-1):\n    """Like torch.softmax, in NumPy."""\n' + GOOD_BODY,
    ],
    "magics in the notebook": ["%matplotlib inline\n" + NUMPY, "!ls\n", GOOD],
    "a cell that does not parse": ["def broken(:\n", GOOD],
    "the stub, then an answer defined in a try block": [
        NUMPY + "def softmax(x, axis=-1):\n    raise NotImplementedError()\n",
        "try:\n    def softmax(x, axis=-1):\n" + "\n".join("    " + line for line in GOOD_BODY.splitlines()) + "\n"
        "except Exception:\n    pass\n",
    ],
    "raising NotImplementedError for an unsupported input": [
        NUMPY
        + "def softmax(x, axis=-1):\n    if x.ndim == 0:\n        raise NotImplementedError('scalars')\n"
        + GOOD_BODY
    ],
    "a cell magic whose body is not run": [
        GOOD,
        "%%writefile other.py\nimport torch\ndef softmax(x, axis=-1):\n    return torch.softmax(x, axis)\n",
    ],
    "shell output assigned": ["files = !ls\n" + GOOD],
}


@pytest.mark.parametrize("sources", SOFTMAX_EVASIONS.values(), ids=SOFTMAX_EVASIONS)
def test_softmax_with_a_library_fails_however_it_is_reached(sources):
    with pytest.raises(Mismatch, match="NumPy only"):
        numpy_only(source_outcome("softmax", sources))


@pytest.mark.parametrize("sources", SOFTMAX_ALLOWED.values(), ids=SOFTMAX_ALLOWED)
def test_softmax_in_numpy_passes(sources):
    numpy_only(source_outcome("softmax", sources))


HEATMAP = (
    "def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap='Reds'):\n"
    "    fig, axes = plt.subplots(1, 1, squeeze=False)\n"
    "    image = axes[0, 0].imshow(matrices[0][0], cmap=cmap)\n"
    "    fig.colorbar(image, ax=axes)\n"
)
PLT = "import matplotlib.pyplot as plt\n"

SHOW_EVASIONS = {
    "plt.show()": [PLT, HEATMAP + "    plt.show()\n    return fig\n"],
    "show imported by name": ["from matplotlib.pyplot import show\n" + PLT, HEATMAP + "    show()\n    return fig\n"],
    "show imported under another name": [
        "from matplotlib.pyplot import show as reveal\n" + PLT,
        HEATMAP + "    reveal()\n    return fig\n",
    ],
    "pyplot from matplotlib": [
        "from matplotlib import pyplot\n" + PLT,
        HEATMAP + "    pyplot.show()\n    return fig\n",
    ],
    "the full module path": [
        "import matplotlib.pyplot\n" + PLT,
        HEATMAP + "    matplotlib.pyplot.show()\n    return fig\n",
    ],
    "getattr": [PLT, HEATMAP + "    getattr(plt, 'show')()\n    return fig\n"],
    "getattr with a computed name": [PLT, HEATMAP + "    getattr(plt, 'sh' + 'ow')()\n    return fig\n"],
    "Figure.show": [PLT, HEATMAP + "    fig.show()\n    return fig\n"],
    "gcf().show": [PLT, HEATMAP + "    plt.gcf().show()\n    return fig\n"],
    "an alias made earlier": [PLT + "reveal = plt.show\n", HEATMAP + "    reveal()\n    return fig\n"],
    "a local alias": [PLT, HEATMAP + "    s = plt.show\n    s()\n    return fig\n"],
    "IPython's display": [PLT, HEATMAP + "    display(fig)\n    return fig\n"],
    "display imported": ["from IPython.display import display as d\n" + PLT, HEATMAP + "    d(fig)\n    return fig\n"],
    "plt.pause": [PLT, HEATMAP + "    plt.pause(0.1)\n    return fig\n"],
    "a helper that shows": [PLT + "def finish():\n    plt.show()\n", HEATMAP + "    finish()\n    return fig\n"],
    "a closure": [
        PLT + "def make(reveal=plt.show):\n    def inner(*args):\n        reveal()\n"
        "        return None\n    return inner\n\nfinish = make()\n",
        HEATMAP + "    finish()\n    return fig\n",
    ],
    "a local import": [PLT, HEATMAP + "    from matplotlib.pyplot import show\n    show()\n    return fig\n"],
    "__import__": [PLT, HEATMAP + "    __import__('matplotlib.pyplot').pyplot.show()\n    return fig\n"],
    "eval": [PLT, HEATMAP + "    eval('plt.' + 'show()')\n    return fig\n"],
    "star import": ["from matplotlib.pyplot import *\n" + PLT, HEATMAP + "    show()\n    return fig\n"],
}

SHOW_ALLOWED = {
    "returns the figure": [PLT, HEATMAP + "    return fig\n"],
    "the caller shows it": [
        PLT,
        HEATMAP + "    return fig\n",
        "fig = show_heatmaps(m, 'Keys', 'Queries')\nplt.show()\n",
    ],
    "show imported but not called here": ["from matplotlib.pyplot import show\n" + PLT, HEATMAP + "    return fig\n"],
}


@pytest.mark.parametrize("sources", SHOW_EVASIONS.values(), ids=SHOW_EVASIONS)
def test_heatmaps_that_show_fail_however_show_is_reached(sources):
    with pytest.raises(Mismatch, match="shows the figure"):
        not_shown_in_source(source_outcome("show_heatmaps", sources))


@pytest.mark.parametrize("sources", SHOW_ALLOWED.values(), ids=SHOW_ALLOWED)
def test_heatmaps_that_return_the_figure_pass(sources):
    not_shown_in_source(source_outcome("show_heatmaps", sources))


def test_outcome_is_plain_data_that_names_what_is_used():
    outcome = source_outcome("softmax", SOFTMAX_EVASIONS["closure over torch.softmax"])
    assert outcome["type"] == "source" and outcome["defined"]
    assert "torch.softmax" in outcome["uses"]
    assert source_outcome("softmax", [NUMPY])["defined"] is False


def test_undefined_and_unimplemented_answers_are_told_so():
    with pytest.raises(Mismatch, match="not defined"):
        numpy_only(source_outcome("softmax", [NUMPY]))
    stub = NUMPY + "def softmax(x, axis=-1):\n    raise NotImplementedError()\n"
    with pytest.raises(Mismatch, match="not implemented yet"):
        numpy_only(source_outcome("softmax", [stub]))


def _visible_score(name, obj, sources):
    planned = plan(visible_parts(name))
    results = judge_parts(planned, run_locally(obj, planned, sources))
    return sum(r.score for r in results)


def test_closure_over_torch_loses_the_rule_point():
    """The issue's evasion: a closure capturing torch.softmax got the rule's point."""
    sources = SOFTMAX_EVASIONS["closure over torch.softmax"]
    namespace = {}
    for source in sources:
        exec(source, namespace)
    assert _visible_score("softmax", namespace["softmax"], sources) == 1  # of 2: the numbers, not the rule


def test_show_imported_by_name_loses_the_point():
    """The issue's evasion: `from matplotlib.pyplot import show; show()` was not seen."""
    sources = SHOW_EVASIONS["show imported by name"]
    namespace = {}
    for source in sources:
        exec(source, namespace)
    assert _visible_score("show_heatmaps", namespace["show_heatmaps"], sources) == 0


def test_the_probe_still_sees_show_at_the_backend():
    """Evidence from the run itself: show reached under another name is recorded by the heatmap probe."""
    import numpy as np

    from grader.checks.plain import TensorArg
    from grader.checks.probes import run_probe

    namespace = {}
    for source in SHOW_EVASIONS["show imported by name"]:
        exec(source, namespace)
    outcome = run_probe(
        namespace["show_heatmaps"],
        "heatmap",
        {"args": (TensorArg(np.eye(3, dtype=np.float32).reshape(1, 1, 3, 3)), "K", "Q"), "kwargs": {}},
    )
    assert outcome["shown"] == 1


def test_test_cell_in_ipython_reads_the_cells_that_ran():
    """A test cell running in IPython reads the session's cells (In), as the grader reads the notebook's."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        for source in SOFTMAX_EVASIONS["closure over torch.softmax"]:
            assert shell.run_cell(source, store_history=True).success
        result = shell.run_cell("from grader.checks import check\ncheck('softmax', softmax).score", store_history=True)
        assert result.success and result.result == 1
        assert shell.run_cell(GOOD, store_history=True).success
        assert shell.run_cell("check('softmax', softmax).score", store_history=True).result == 2
    finally:
        InteractiveShell.clear_instance()


def test_without_the_notebook_the_rule_is_not_guessed():
    namespace = {}
    exec(GOOD, namespace)
    planned = plan(visible_parts("softmax"))
    results = judge_parts(planned, run_locally(namespace["softmax"], planned))
    assert "not available" in results[-1].failure.what


@pytest.mark.slow
def test_self_check_reads_the_notebook_it_runs(tmp_path):
    """`pytest <notebook>` judges the rule from the notebook's cells, as the grader does."""
    import nbformat

    from grader.demo.fill import fill, reference_answers

    from ..conftest import EXERCISES, SOLUTIONS
    from ..selfcheck.test_selfcheck import self_check

    notebook = "03_attention_in_numpy.ipynb"
    answers = reference_answers(nbformat.read(SOLUTIONS / notebook, as_version=4))
    answers["softmax"] = "".join(SOFTMAX_EVASIONS["closure over torch.softmax"])
    nbformat.write(fill(nbformat.read(EXERCISES / notebook, as_version=4), answers), tmp_path / notebook)
    run = self_check(tmp_path / notebook)
    assert "1 failed, 3 passed" in run.stdout, run.stdout
    assert "torch.softmax" in run.stdout
