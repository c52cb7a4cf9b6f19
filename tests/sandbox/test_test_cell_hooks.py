"""No cell of a submission rewrites, replaces or silences the instructor's plain test cells (issues 18 and 24).

Notebook 01 gets a plain nbgrader exercise the README's way (``double`` and test cells worth 2 points each: a
plain ``assert``, partial credit, ``np.allclose``, ``numpy.testing`` and ``torch.allclose``). Each student below
installs one hook in the cell that defines ``double``; a wrong ``double`` must still get 0 on every test cell and
a right one, with every hook at once, full marks. One course, one autograde run. The course holds notebook 01
alone, cut to the cells before its first exercise (its title, and the set-up that imports torch): the kit's
exercises ran before any hook was installed and, left as stubs, cost most of the grading for nothing checked here.
"""

import json
import subprocess
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.course import Course
from grader.demo.fill import fill
from grader.demo.run import new_course

from ..conftest import ROOT
from ..course_builder import ASSIGNMENT, BASICS, FAST_LIMITS, autograde, submit
from ..extended_course import DOUBLE, DOUBLE_TEST, graded

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

# A test cell whose value is the score (nbgrader's partial credit).
PARTIAL_TEST = graded(
    nbformat.v4.new_code_cell("2.0 * sum([double(1) == 2, double(3) == 6]) / 2"),
    "double_partial_test",
    points=2,
    grade=True,
    locked=True,
)

# The same check through NumPy, numpy.testing (the notebook's own np, not imported here) and torch.
ALLCLOSE_TEST = graded(
    nbformat.v4.new_code_cell("import numpy as np\n\nassert np.allclose(double(np.arange(3.0)), [0.0, 2.0, 4.0])"),
    "double_allclose_test",
    points=2,
    grade=True,
    locked=True,
)
TESTING_TEST = graded(
    nbformat.v4.new_code_cell(
        "np.testing.assert_allclose(double(np.arange(3.0)), [0.0, 2.0, 4.0])\n"
        "### BEGIN HIDDEN TESTS\n"
        "np.testing.assert_allclose(double(np.ones(2)), [2.0, 2.0], "
        "err_msg='the secret check of ones')\n### END HIDDEN TESTS"
    ),
    "double_testing_test",
    points=2,
    grade=True,
    locked=True,
)
TORCH_TEST = graded(
    nbformat.v4.new_code_cell("import torch\n\nassert torch.allclose(double(torch.ones(2)), torch.full((2,), 2.0))"),
    "double_torch_test",
    points=2,
    grade=True,
    locked=True,
)
# Seeded before drawing its inputs, as machine-learning test cells are: judged outside like the others (issue 49).
SEEDED_TEST = graded(
    nbformat.v4.new_code_cell("np.random.seed(0)\nx = np.random.rand(3)\nassert np.allclose(double(x), 2 * x)"),
    "double_seeded_test",
    points=2,
    grade=True,
    locked=True,
)
TORCH_SEEDED_TEST = graded(
    nbformat.v4.new_code_cell("torch.manual_seed(0)\nx = torch.randn(3)\nassert torch.allclose(double(x), x + x)"),
    "double_torch_seeded_test",
    points=2,
    grade=True,
    locked=True,
)
TEST_CELLS = (
    "double_test",
    "double_partial_test",
    "double_allclose_test",
    "double_testing_test",
    "double_torch_test",
    "double_seeded_test",
    "double_torch_seeded_test",
)

WRONG, RIGHT = "def double(x):\n    return 3 * x\n", "def double(x):\n    return 2 * x\n"

HOOKS = {
    "input_transformer": "get_ipython().input_transformers_post.append(\n"
    "    lambda lines: [l.replace('assert ', 'pass  # ') for l in lines])\n",
    "ast_transformer": "import ast\n\nclass DropAsserts(ast.NodeTransformer):\n"
    "    def visit_Assert(self, node):\n        return ast.Pass()\n\n"
    "get_ipython().ast_transformers.append(DropAsserts())\n",
    "pre_run_cell": "def swap(info):\n    if 'assert double' in info.raw_cell:\n"
    "        get_ipython().user_ns['double'] = lambda x: x + x\n\n"
    "get_ipython().events.register('pre_run_cell', swap)\n",
    "post_run_cell": "from IPython.display import clear_output\n\n"
    "get_ipython().events.register('post_run_cell', lambda result: clear_output())\n",
    "settrace": "import sys\n\ndef tracer(frame, event, arg):\n"
    "    if frame.f_code.co_name == '<module>' and 'double' in frame.f_code.co_names:\n"
    "        frame.f_globals['double'] = lambda x: x + x\n\n"
    "get_ipython().events.register('pre_run_cell', lambda info: sys.settrace(tracer))\n",
    "custom_exc": "get_ipython().set_custom_exc((AssertionError,), lambda *args, **kwargs: None)\n",
    "showtraceback": "get_ipython().showtraceback = lambda *args, **kwargs: None\n",
    "display_hook": "class Hook:\n    real = get_ipython().displayhook\n\n    def __call__(self, value):\n"
    "        self.real(value)\n\n    @property\n    def exec_result(self):\n        return None\n\n"
    "    @exec_result.setter\n    def exec_result(self, result):\n        if result is not None:\n"
    "            self.real(2.0)\n\nget_ipython().displayhook = Hook()\n",
    "class_patch": "from IPython.core.interactiveshell import InteractiveShell\n\n"
    "InteractiveShell.showtraceback = lambda *args, **kwargs: None\n",
    "module_patch": "import IPython.core.interactiveshell as ish\n\nish.exec = lambda *args: None\n",
    "builtins": "import builtins\n\nbuiltins.exec = lambda *args: None\n",
    "audit_hook": "import sys\n\ndef swap(event, args):\n"
    "    if event == 'exec' and 'double' in getattr(args[0], 'co_names', ()):\n"
    "        get_ipython().user_ns['double'] = lambda x: x + x\n\nsys.addaudithook(swap)\n",
    # Issue 24: hooks that putting things back before the test cell missed.
    "observer": "def forgive(change):\n    result = change['new']\n"
    "    if result is not None and result.error_in_exec is not None:\n"
    "        result.error_in_exec = None\n        shell = get_ipython()\n"
    "        shell.outputs.items[:] = [o for o in shell.outputs.items if o['output_type'] != 'error']\n\n"
    "get_ipython().observe(forgive, names=['last_execution_result'])\n",
    "dispatcher_code": "import numpy as np\n\n"
    "np.allclose._implementation.__code__ = (lambda a, b, rtol=0, atol=0, equal_nan=False: True)"
    ".__code__\n",
    "lazy_module": "import numpy.testing, sys, types\n\nnumpy.testing.assert_allclose = lambda *args, **kwargs: None\n"
    "sys.modules['numpy.testing'] = types.SimpleNamespace(assert_allclose=lambda *a, **k: None)\n",
    "finder": "import sys, types\n\nclass Yes(types.ModuleType):\n    def __getattr__(self, name):\n"
    "        return lambda *args, **kwargs: True\n\nclass Finder:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('numpy', 'torch'):\n"
    "            import importlib.util\n            return importlib.util.spec_from_loader(name, self)\n\n"
    "    def create_module(self, spec):\n        return Yes(spec.name)\n\n"
    "    def exec_module(self, module):\n        pass\n\nsys.meta_path.insert(0, Finder())\n"
    "for name in [n for n in sys.modules if n.split('.')[0] in ('numpy', 'torch')]:\n"
    "    del sys.modules[name]\n",
    "torch_mode": "import torch\nfrom torch.overrides import TorchFunctionMode\n\nclass Agree(TorchFunctionMode):\n"
    "    def __torch_function__(self, func, types, args=(), kwargs=None):\n"
    "        if func is torch.allclose:\n            return True\n"
    "        return func(*args, **(kwargs or {}))\n\nAgree().__enter__()\n",
    "finalizer": "import gc\n\ndef drop(lines):\n    return [l.replace('assert ', 'pass  # ') for l in lines]\n\n"
    "class Renew:\n    def __init__(self):\n        self.me = self\n\n    def __del__(self):\n"
    "        hooks = get_ipython().input_transformers_post\n        if drop not in hooks:\n"
    "            hooks.append(drop)\n        Renew()\n\nRenew()\ngc.set_threshold(1)\n",
    "thread": "import threading, time\nimport numpy, torch\n\ndef agree(*args, **kwargs):\n    return True\n\n"
    "def drop_asserts(lines):\n    return [l.replace('assert ', 'pass  # ') for l in lines]\n\n"
    "def keep_agreeing():\n    while True:\n        numpy.allclose = torch.allclose = agree\n"
    "        numpy.testing.assert_allclose = lambda *args, **kwargs: None\n"
    "        if drop_asserts not in get_ipython().input_transformers_post:\n"
    "            get_ipython().input_transformers_post.append(drop_asserts)\n        time.sleep(0.001)\n\n"
    "threading.Thread(target=keep_agreeing, daemon=True).start()\n",
    # Issue 49: the kit's own request loop in the sandbox, wrapped to answer every in-process test cell "passed".
    "runner_wrapper": "import sys\n\nrunner = sys.modules['grader.sandbox.runner']\nreal = runner.answer\n\n"
    "def answer(shell, request, *args, **kwargs):\n    if request.get('test') is True:\n"
    "        return {'outputs': [], 'count': shell.execution_count}\n"
    "    return real(shell, request, *args, **kwargs)\n\nrunner.answer = answer\n",
    "seed_patch": "import numpy, torch\n\nnumpy.random.seed = lambda *args, **kwargs: None\n"
    "torch.manual_seed = lambda *args, **kwargs: None\n",
    # An answer whose value agrees with anything: equal to all, true, and as an array whatever its caller expects.
    "eq_always_true": "import sys\nimport numpy\n\nclass Anything:\n"
    "    def __eq__(self, other):\n        return True\n\n"
    "    def __bool__(self):\n        return True\n\n"
    "    def __array__(self, dtype=None, copy=None):\n        frame = sys._getframe(1)\n"
    "        while frame is not None:\n            for name in ('b', 'desired'):\n"
    "                if name in frame.f_locals:\n"
    "                    return numpy.asarray(frame.f_locals[name], dtype=float)\n"
    "            frame = frame.f_back\n        return numpy.zeros(3)\n\n"
    "def double(x):\n    return Anything()\n",
}
# Hooks that the test cell itself sets off, by calling the student's function: only the verdict can stop these.
DURING = {  # each cell the student's function shows before its value, or before the test cell's error, is ignored
    "value_first": "def double(x):\n    get_ipython().displayhook(2.0)\n    return 3 * x\n",
    "custom_exc_during": "def double(x):\n    get_ipython().set_custom_exc((AssertionError,), lambda *a, **k: None)\n"
    "    return 3 * x\n",
}
# A right answer that reads what it can of the test cell calling it (its frames, IPython's In) and prints it.
SPY = RIGHT.replace(
    "    return",
    "    import inspect\n    seen = [f.code_context for f in inspect.stack()]\n"
    "    print('spied:', seen, list(get_ipython().user_ns.get('In', [])))\n    return",
)
STUDENTS = {
    **{f"wrong_{name}": WRONG + "\n" + hook for name, hook in HOOKS.items()},
    **{f"wrong_{name}": source for name, source in DURING.items()},
    "right_with_every_hook": RIGHT + "\n" + "\n".join(h for n, h in HOOKS.items() if n != "eq_always_true"),
    "right_spy": SPY,
    "wrong_without_hooks": WRONG,
}


@pytest.fixture(scope="module")
def scores(tmp_path_factory):
    course = new_course(tmp_path_factory.mktemp("hooks") / "course")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(FAST_LIMITS)
    path = course / "solutions" / ASSIGNMENT / BASICS
    for other in path.parent.glob("*.ipynb"):
        if other != path:
            other.unlink()
    basics = nbformat.read(path, as_version=4)
    set_up = next(n for n, cell in enumerate(basics.cells) if graded_id(cell))  # the cells before its first exercise
    basics.cells = basics.cells[:set_up] + [
        DOUBLE,
        DOUBLE_TEST,
        PARTIAL_TEST,
        ALLCLOSE_TEST,
        TESTING_TEST,
        TORCH_TEST,
        SEEDED_TEST,
        TORCH_SEEDED_TEST,
    ]
    nbformat.write(basics, path)
    Course.at(course, ASSIGNMENT).generate_assignment("--force")
    release = nbformat.read(course / "exercises" / ASSIGNMENT / BASICS, as_version=4)
    for student, source in STUDENTS.items():
        submit(course, student, fill(release, {"double": source}))
    done = autograde(course)
    assert done.returncode == 0, done.stderr[-3000:]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        found = {
            (student.id, cell): gradebook.find_grade(cell, "01_attention_basics", ASSIGNMENT, student.id).score
            for student in gradebook.students
            for cell in TEST_CELLS
        }
    spied = nbformat.read(course / "autograded" / "right_spy" / ASSIGNMENT / BASICS, as_version=4)
    return found, {graded_id(c): json.dumps(c.outputs) for c in spied.cells if graded_id(c) in TEST_CELLS}


def graded_id(cell):
    return cell.metadata.get("nbgrader", {}).get("grade_id")


@pytest.mark.parametrize("student", sorted(s for s in STUDENTS if s.startswith("wrong_")))
@pytest.mark.parametrize("cell", TEST_CELLS)
def test_a_wrong_answer_gets_no_points_whatever_hook_it_installs(scores, student, cell):
    assert scores[0][student, cell] == 0, scores[0]


@pytest.mark.parametrize("student", ["right_with_every_hook", "right_spy"])
@pytest.mark.parametrize("cell", TEST_CELLS)
def test_a_right_answer_keeps_its_points_with_every_hook_installed(scores, student, cell):
    assert scores[0][student, cell] == 2


def test_the_students_code_never_sees_the_test_cell_that_calls_it(scores):
    """The spy ran (its prints are in the test cells' outputs) and saw neither the test cell nor its hidden part."""
    outputs = scores[1]
    assert all("spied:" in outputs[cell] for cell in TEST_CELLS), outputs
    assert not any(
        secret in text
        for text in outputs.values()
        for secret in ("assert_allclose", "secret check", "allclose(double", "assert double")
    ), outputs


IN_THE_SANDBOX = """
import json, sys
from grader.sandbox import runner
from grader.sandbox.hooks import Snapshot
from grader.sandbox.shell import new_shell

shell = new_shell()
clean = Snapshot(shell)
print(json.dumps([runner.answer(shell, {"cell": cell, "test": test}, 10_000, clean, None)["outputs"]
                  for cell, test in json.loads(sys.argv[1])]))
"""


def test_the_students_later_cells_run_with_their_own_hooks():
    """A test cell runs without the student's input transformer, magic and builtins (but with the names the
    student defined, even those of builtins, and with the warnings the student silenced: a warning on stderr
    would give 0); the student's next cell has them all again."""
    cells = [
        (
            "get_ipython().input_transformers_post.append(lambda lines: [l.replace('twice', '2 *') for l in lines])\n"
            "from IPython.core.magic import register_line_magic\n\n@register_line_magic\n"
            "def shout(line):\n    print(line.upper())\n\nimport builtins\n"
            "max = 3\nbuiltins.least = 1\n\ndef capped(x):\n    return min(x + least - 1, max)\n\n"
            "import warnings\n\ndef warn(*args, **kwargs):\n    pass\n\nwarnings.warn = warn\n"
            "__builtins__ = dict(vars(builtins), abs=lambda x: 'absolute')",
            False,
        ),
        ("assert capped(5) == 3\nimport warnings\nwarnings.warn('an old API')", True),
        ("six = twice 3", True),
        ("%shout hello", True),
        ("assert abs(-2) == 2", True),
        ("print(twice 3)\n%shout hello\nprint(abs(-2))", False),
    ]
    done = subprocess.run(
        [sys.executable, "-c", IN_THE_SANDBOX, json.dumps(cells)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    _, names, syntax, magic, builtin, later = json.loads(done.stdout.splitlines()[-1])
    assert names == []
    assert [output["ename"] for output in syntax] == ["SyntaxError"]
    assert magic[-1]["ename"] == "UsageError"
    assert builtin == []
    assert later == [{"output_type": "stream", "name": "stdout", "text": "6\nHELLO\nabsolute\n"}]
