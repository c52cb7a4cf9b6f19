"""The sandbox's shell shows a cell's traceback exactly as IPython does, without IPython's costly detours: a walk
over every loaded module for each frame of a cell's code, and a second formatting of the traceback for a history
the sandbox does not keep. An error is common in a class (a stub left, a wrong shape), and a notebook's sandbox
starts with PyTorch's 1,500 modules loaded: the detours were most of the cost of an error."""
import json
import subprocess
import sys

from ..conftest import ROOT

# Run in a process of its own: the shell is a singleton, and the kit's shell changes how this process finds the
# module of a cell's code.
IN_THE_SANDBOX = """
import inspect, json, sys, types
from grader.sandbox.shell import new_shell

stock_getmodule = inspect.getmodule
shell = new_shell()
shell.run("1 / 0", 1000)  # the first traceback maps the files of the modules loaded so far, as the warm worker's does

class CountedModule(types.ModuleType):
    \"\"\"A loaded module that counts who asks for its file: a walk over sys.modules does.\"\"\"
    asked = 0
    @property
    def __file__(self):
        CountedModule.asked += 1
        return "/nowhere/counted.py"

sys.modules["counted"] = CountedModule("counted")
formatted = []
format_traceback = shell.InteractiveTB.structured_traceback
def counting(*args, **kwargs):
    formatted.append(1)
    return format_traceback(*args, **kwargs)
shell.InteractiveTB.structured_traceback = counting

shell.run("def inner(x):\\n    return x @ x\\n\\ndef outer(x):\\n    return inner(x) + 1", 1000)
count = shell.execution_count
tracebacks = []
for getmodule in (inspect.getmodule, stock_getmodule):
    inspect.getmodule = getmodule
    shell.execution_count = count
    CountedModule.asked, formatted[:] = 0, []
    outputs, _ = shell.run("outer([1, 2])", 1000)
    tracebacks.append({"traceback": outputs[-1]["traceback"], "walks": CountedModule.asked,
                       "formatted": len(formatted)})
print(json.dumps(tracebacks))
"""


def test_a_cells_traceback_is_ipythons_own_formatted_once_without_walking_the_loaded_modules():
    done = subprocess.run([sys.executable, "-c", IN_THE_SANDBOX], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    kit, stock = json.loads(done.stdout.splitlines()[-1])
    shown = "\n".join(kit["traceback"])
    assert "Cell In[" in shown and "line 5, in outer" in shown and "line 2, in inner" in shown, shown
    assert "TypeError" in shown and "return x @ x" in shown, shown
    assert kit["traceback"] == stock["traceback"], "the kit's shell must show IPython's own traceback"
    assert stock["walks"] > 0, "the stock getmodule walks the loaded modules: the count must see it"
    assert kit["walks"] == 0, f"showing a cell's error walked the loaded modules {kit['walks']} times"
    assert kit["formatted"] == 1, f"the traceback was formatted {kit['formatted']} times, not once"
