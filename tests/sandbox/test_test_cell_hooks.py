"""No cell of a submission rewrites, replaces or silences the instructor's plain test cells (issue 18).

Notebook 01 gets a plain nbgrader exercise the README's way (``double`` and a test cell worth 2 points). Each
student below installs one hook in the cell that defines ``double``; a wrong ``double`` must still get 0 and a
right one, with every hook at once, full marks. One course, one autograde run.
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
PARTIAL_TEST = graded(nbformat.v4.new_code_cell("2.0 * sum([double(1) == 2, double(3) == 6]) / 2"),
                      "double_partial_test", points=2, grade=True, locked=True)

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
}
# Hooks that the test cell itself sets off, by calling the student's function: only the verdict can stop these.
DURING = {  # each cell the student's function shows before its value, or before the test cell's error, is ignored
    "value_first": "def double(x):\n    get_ipython().displayhook(2.0)\n    return 3 * x\n",
    "custom_exc_during": "def double(x):\n    get_ipython().set_custom_exc((AssertionError,), lambda *a, **k: None)\n"
                         "    return 3 * x\n",
}
STUDENTS = {**{f"wrong_{name}": WRONG + "\n" + hook for name, hook in HOOKS.items()},
            **{f"wrong_{name}": source for name, source in DURING.items()},
            "right_with_every_hook": RIGHT + "\n" + "\n".join(HOOKS.values()),
            "wrong_without_hooks": WRONG}


@pytest.fixture(scope="module")
def scores(tmp_path_factory):
    course = new_course(tmp_path_factory.mktemp("hooks") / "course")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(FAST_LIMITS)
    path = course / "solutions" / ASSIGNMENT / BASICS
    basics = nbformat.read(path, as_version=4)
    basics.cells += [DOUBLE, DOUBLE_TEST, PARTIAL_TEST]
    nbformat.write(basics, path)
    Course.at(course).run_nbgrader("generate_assignment", ASSIGNMENT, "--force")
    release = nbformat.read(course / "exercises" / ASSIGNMENT / BASICS, as_version=4)
    for student, source in STUDENTS.items():  # the kit's exercises left as stubs: only double_test counts here
        submit(course, student, fill(release, {"double": source}))
    done = autograde(course)
    assert done.returncode == 0, done.stderr[-3000:]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        return {(student.id, cell): gradebook.find_grade(cell, "01_attention_basics", ASSIGNMENT, student.id).score
                for student in gradebook.students for cell in ("double_test", "double_partial_test")}


@pytest.mark.parametrize("student", sorted(s for s in STUDENTS if s.startswith("wrong_")))
@pytest.mark.parametrize("cell", ["double_test", "double_partial_test"])
def test_a_wrong_answer_gets_no_points_whatever_hook_it_installs(scores, student, cell):
    assert scores[student, cell] == 0, scores


@pytest.mark.parametrize("cell", ["double_test", "double_partial_test"])
def test_a_right_answer_keeps_its_points_with_every_hook_installed(scores, cell):
    assert scores["right_with_every_hook", cell] == 2


IN_THE_SANDBOX = """
import json, sys
from grader.sandbox import runner
from grader.sandbox.hooks import Snapshot
from grader.sandbox.shell import new_shell

shell = new_shell()
clean = Snapshot(shell)
print(json.dumps([runner.answer(shell, {"cell": cell, "test": test}, 10_000, clean)["outputs"]
                  for cell, test in json.loads(sys.argv[1])]))
"""


def test_the_students_later_cells_run_with_their_own_hooks():
    """A test cell runs without the student's input transformer, magic and builtins (but with the names the
    student defined, even those of builtins, and with the warnings the student silenced: a warning on stderr
    would give 0); the student's next cell has them all again."""
    cells = [("get_ipython().input_transformers_post.append(lambda lines: [l.replace('twice', '2 *') for l in lines])\n"
              "from IPython.core.magic import register_line_magic\n\n@register_line_magic\n"
              "def shout(line):\n    print(line.upper())\n\nimport builtins\n"
              "max = 3\nbuiltins.least = 1\n\ndef capped(x):\n    return min(x + least - 1, max)\n\n"
              "import warnings\n\ndef warn(*args, **kwargs):\n    pass\n\nwarnings.warn = warn\n"
              "__builtins__ = dict(vars(builtins), abs=lambda x: 'absolute')", False),
             ("assert capped(5) == 3\nimport warnings\nwarnings.warn('an old API')", True),
             ("six = twice 3", True),
             ("%shout hello", True),
             ("assert abs(-2) == 2", True),
             ("print(twice 3)\n%shout hello\nprint(abs(-2))", False)]
    done = subprocess.run([sys.executable, "-c", IN_THE_SANDBOX, json.dumps(cells)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    _, names, syntax, magic, builtin, later = json.loads(done.stdout.splitlines()[-1])
    assert names == []
    assert [output["ename"] for output in syntax] == ["SyntaxError"]
    assert magic[-1]["ename"] == "UsageError"
    assert builtin == []
    assert later == [{"output_type": "stream", "name": "stdout", "text": "6\nHELLO\nabsolute\n"}]
