"""The sandbox's shell shows a cell's traceback and figures exactly as IPython does, without costly detours:

- for a traceback, a walk over every loaded module for each frame of a cell's code, and a second formatting of the
  traceback for a history the sandbox does not keep. An error is common in a class (a stub left, a wrong shape),
  and a notebook's sandbox starts with PyTorch's 1,500 modules loaded: the detours were most of an error's cost;
- for a figure, pyplot's drawing of every open figure after each cell, just before the inline backend draws them
  again to show them, and closes them: a fifth of a heatmap cell's cost."""

import json
import subprocess
import sys

import pytest

from ..conftest import ROOT

pytestmark = pytest.mark.slow  # a new process with IPython's shell (and matplotlib) for each test

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
    done = subprocess.run([sys.executable, "-c", IN_THE_SANDBOX], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    kit, stock = json.loads(done.stdout.splitlines()[-1])
    shown = "\n".join(kit["traceback"])
    assert "Cell In[" in shown and "line 5, in outer" in shown and "line 2, in inner" in shown, shown
    assert "TypeError" in shown and "return x @ x" in shown, shown
    assert kit["traceback"] == stock["traceback"], "the kit's shell must show IPython's own traceback"
    assert stock["walks"] > 0, "the stock getmodule walks the loaded modules: the count must see it"
    assert kit["walks"] == 0, f"showing a cell's error walked the loaded modules {kit['walks']} times"
    assert kit["formatted"] == 1, f"the traceback was formatted {kit['formatted']} times, not once"


FIGURES = """
import hashlib, json
from grader.sandbox.shell import new_shell
from matplotlib import pyplot
from matplotlib_inline.backend_inline import flush_figures

shell = new_shell()
shell.run("import matplotlib.pyplot as plt\\ndraws = []", 1000)
cells = ["fig, ax = plt.subplots()\\nax.imshow([[1, 2], [3, 4]])\\nax.set_title('weights')\\n"
         "fig.canvas.mpl_connect('draw_event', lambda event: draws.append(1))",
         "fig, ax = plt.subplots()\\nax.set_title('$\\\\\\\\frac$')"]  # a title that fails to draw
seen = []
for order in ("kit", "stock"):
    if order == "stock":  # pyplot's draw first, as a kernel registers it
        callbacks = shell.events.callbacks["post_execute"]
        callbacks.remove(pyplot._draw_all_if_interactive)
        callbacks.insert(callbacks.index(flush_figures), pyplot._draw_all_if_interactive)
    shell.user_ns["draws"].clear()
    shown, broken = (shell.run(cell, 10_000)[0] for cell in cells)
    png = shown[-1]["data"]["image/png"]
    seen.append({"draws": len(shell.user_ns["draws"]), "png": hashlib.md5(png.encode()).hexdigest(),
                 "kinds": [output["output_type"] for output in shown],
                 "broken": [(output["output_type"], output.get("ename")) for output in broken]})
print(json.dumps(seen))
"""


def test_a_figure_is_drawn_once_by_the_inline_backend_and_shows_as_ipython_shows_it():
    done = subprocess.run([sys.executable, "-c", FIGURES], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    kit, stock = json.loads(done.stdout.splitlines()[-1])
    assert stock["draws"] == 3, f"pyplot and the inline backend draw the figure {stock['draws']} times, not 3"
    assert kit["draws"] == 2, f"the figure was drawn {kit['draws']} times: once for its bounding box, once shown"
    assert kit["png"] == stock["png"] and kit["kinds"] == stock["kinds"] == ["execute_result", "display_data"]
    assert ["error", "ValueError"] in kit["broken"] and ["error", "ValueError"] in stock["broken"], (
        "a figure that fails to draw shows its error"
    )
