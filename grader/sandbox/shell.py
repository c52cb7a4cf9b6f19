"""IPython's own shell, inside the sandbox, with every cell's outputs recorded as a kernel would send them.

Magics, display hooks, rich display data (matplotlib figures as PNG, through the inline backend)
and tracebacks are IPython's; only where they go changes: into a list of nbformat-style outputs
per cell, with the text of stdout and stderr capped.
"""

import ast
import functools
import inspect
import sys
import types

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config


class CellOutputs:
    """The outputs of the cell that runs now; stream text beyond ``limit`` characters is dropped."""

    def __init__(self, limit):
        self.limit, self.items, self.chars = limit, [], 0

    def stream(self, name, text):
        kept = text[: max(0, self.limit - self.chars)]
        self.chars += len(text)
        if not kept:
            return
        last = self.items[-1] if self.items else None
        if last and last["output_type"] == "stream" and last["name"] == name:
            last["text"] += kept
        else:
            self.items.append({"output_type": "stream", "name": name, "text": kept})

    def add(self, output):
        self.items.append(output)


class StreamToOutputs:
    """sys.stdout or sys.stderr for a cell."""

    encoding, errors = "utf-8", "replace"

    def __init__(self, shell, name):
        self.shell, self.name = shell, name

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.shell.outputs.stream(self.name, text)
        return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def writable(self):
        return True


class RecordingDisplayHook(DisplayHook):
    """The value of a cell's last expression, as an ``execute_result``."""

    def start_displayhook(self):
        pass

    def write_output_prompt(self):
        pass

    def write_format_data(self, format_dict, md_dict=None):
        self.shell.outputs.add(
            {
                "output_type": "execute_result",
                "data": format_dict,
                "metadata": md_dict or {},
                "execution_count": self.shell.cell_count,
            }
        )

    def finish_displayhook(self):
        pass


class RecordingDisplayPublisher(DisplayPublisher):
    """``display(...)`` and figures, as ``display_data``."""

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        self.shell.outputs.add({"output_type": "display_data", "data": data, "metadata": metadata or {}})

    def clear_output(self, wait=False):
        self.shell.outputs.items.clear()


class SandboxShell(InteractiveShell):
    """An InteractiveShell whose outputs are recorded per cell instead of printed."""

    displayhook_class = RecordingDisplayHook
    display_pub_class = RecordingDisplayPublisher
    hidden_files = frozenset()  # modules whose frames a traceback leaves out

    def _get_exc_info(self, exc_tuple=None):
        etype, value, tb = super()._get_exc_info(exc_tuple)
        return etype, value, _without_frames_of(self.hidden_files, tb)

    def _showtraceback(self, etype, evalue, stb):
        self.outputs.add(
            {
                "output_type": "error",
                "ename": getattr(etype, "__name__", str(etype)),
                "evalue": str(evalue),
                "traceback": list(stb),
            }
        )

    def _format_exception_for_storage(self, exception, filename=None, running_compiled_code=False):
        """What IPython keeps of an error for ``%notebook``, which exports a history that this shell does not
        keep: the error's name, without formatting its traceback a second time."""
        return {"ename": type(exception).__name__, "evalue": "", "traceback": []}

    def enable_gui(self, gui=None):
        """No event loop to integrate with: figures are recorded by the inline backend."""

    def run(self, source, limit, test=False):
        """Run one cell's source as a kernel would; return its outputs and execution count. An instructor's
        test cell returns the outputs of its ``verdict``: what IPython says it raised or returned."""
        outputs, count = CellOutputs(limit), self.execution_count
        self.outputs, self.cell_count = outputs, count
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = StreamToOutputs(self, "stdout"), StreamToOutputs(self, "stderr")
        try:
            result = self.run_cell(source, store_history=True)
        finally:
            sys.stdout, sys.stderr = saved
        return (verdict(outputs.items, result) if test else outputs.items), count


def _without_frames_of(files, tb):
    """The traceback ``tb`` without the frames whose code is in ``files``."""
    frames = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename not in files:
            frames.append(tb)
        tb = tb.tb_next
    kept = None
    for frame in reversed(frames):
        kept = types.TracebackType(kept, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return kept


def verdict(outputs, result):
    """A test cell's outputs as nbgrader must score them, from IPython's ExecutionResult: when the cell raised,
    an error comes before any value (the traceback shown, or one made from the exception); otherwise the only
    value left is the cell's own, the last one shown when its last statement is an expression (a value shown
    by code the cell called does not score)."""
    error = _raised(result)
    if error is None:
        values = [i for i, output in enumerate(outputs) if output["output_type"] == "execute_result"]
        own = values[-1] if values and _ends_with_expression(result.info.transformed_cell) else None
        return [output for i, output in enumerate(outputs) if output["output_type"] != "execute_result" or i == own]
    kinds = [output["output_type"] for output in outputs]
    if "error" in kinds and ("execute_result" not in kinds or kinds.index("error") < kinds.index("execute_result")):
        return outputs
    errors = [output for output in outputs if output["output_type"] == "error"] or [_error_output(error)]
    rest = [output for output in outputs if output["output_type"] != "error"]
    first = next((i for i, output in enumerate(rest) if output["output_type"] == "execute_result"), len(rest))
    return rest[:first] + errors + rest[first:]


def _ends_with_expression(source):
    """Whether IPython shows a cell's last statement's value (its default ``ast_node_interactivity``)."""
    try:
        body = compile(source or "", "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT).body
    except (SyntaxError, ValueError):
        return True
    return bool(body) and isinstance(body[-1], ast.Expr)


def _raised(result):
    """The exception a cell raised, or None."""
    if result is None:
        return RuntimeError("the cell did not finish")
    for error in (result.error_before_exec, result.error_in_exec):
        if error is not None:
            return error
    return None


def _error_output(error):
    ename = type(error).__name__
    try:
        evalue = str(error)[:1000]
    except Exception:
        evalue = ""
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": [f"{ename}: {evalue}"]}


# IPython names each cell's code so (IPython.core.compilerop.code_name).
CELL_CODE = "<ipython-input-"


def _no_module_for_cells(getmodule):
    """``inspect.getmodule``, answering at once that a cell's code (a frame, code object or traceback of it) is
    in no module. IPython's traceback asks for each frame, and for a file that is no module's, ``getmodule``
    walks every loaded module (1,500 with PyTorch: more than a millisecond) to find none, several times a frame."""

    @functools.wraps(getmodule)
    def module_of(object, _filename=None):
        if isinstance(object, (types.FrameType, types.CodeType, types.TracebackType)):
            if (_filename or inspect.getfile(object)).startswith(CELL_CODE):
                return None
        return getmodule(object, _filename)

    return module_of


def new_shell():
    """A fresh shell with matplotlib's inline backend, no history file, no colours in tracebacks."""
    inspect.getmodule = _no_module_for_cells(inspect.getmodule)
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    config.InteractiveShell.xmode = "Context"
    shell = SandboxShell.instance(config=config)
    shell.outputs, shell.cell_count = CellOutputs(0), 0
    shell.enable_matplotlib("inline")
    _draw_after_the_inline_backend(shell)
    return shell


def _draw_after_the_inline_backend(shell):
    """After each cell, pyplot draws every open figure, and then the inline backend draws them again to show
    them, and closes them. Drawn after the backend, pyplot's draw finds only the figures that it did not show: the
    same images, one draw fewer (a figure that fails to draw shows its error once, not twice)."""
    from matplotlib import pyplot

    shell.events.unregister("post_execute", pyplot._draw_all_if_interactive)
    shell.events.register("post_execute", pyplot._draw_all_if_interactive)
