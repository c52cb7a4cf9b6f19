"""Probes: call a student's exercise and describe what came back as plain data.

Probes run wherever the student's code runs (the student's own process, or the
grading sandbox). They decide nothing: the description they return is judged
elsewhere, so patching anything here can only change the evidence, never the verdict.

Every call into the student's code goes through :func:`_student`, so that an error is told
apart by where it was raised: inside the student's code it is the student's (``raised``);
anywhere else in a probe (describing the result, reading a figure, a library that changed) it is
the grader's (``grader_error``), never scored as the student's mistake.
"""

import contextlib
import io
import sys
import warnings

import numpy as np

from .plain import DTYPES, MAX_ELEMENTS, TensorArg

MAX_ITEMS = 16


class StudentRaised(Exception):
    """An exception raised inside the student's code, carried out of the probe."""

    def __init__(self, error):
        super().__init__()
        self.error = error


def _student(fn, *args, **kwargs):
    """Call the student's code; whatever it raises (KeyboardInterrupt included) is the student's."""
    try:
        return fn(*args, **kwargs)
    except BaseException as error:
        raise StudentRaised(error) from None


def _torch():
    import torch

    return torch


def _is_tensor(value):
    """True for a torch.Tensor, without importing torch for code that never did."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _array_of(tensor):
    torch = _torch()
    tensor = tensor.detach().cpu()
    if tensor.is_complex():
        return None
    if str(tensor.dtype).removeprefix("torch.") not in DTYPES:
        tensor = tensor.to(torch.float32)
    return tensor.numpy().copy()


def describe(value, depth=0):
    """A plain-data description of any value the student's code returned."""
    if _is_tensor(value):
        small = value.numel() <= MAX_ELEMENTS
        return {
            "type": "Tensor",
            "dtype": str(value.dtype).removeprefix("torch."),
            "shape": list(value.shape),
            "values": _array_of(value) if small else None,
        }
    if isinstance(value, np.ndarray):
        small = value.size <= MAX_ELEMENTS and value.dtype.name in DTYPES
        return {
            "type": "ndarray",
            "dtype": value.dtype.name,
            "shape": list(value.shape),
            "values": value.copy() if small else None,
        }
    if isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, np.str_):
        array = np.asarray(value)
        ok = array.dtype.name in DTYPES
        return {
            "type": type(value).__name__,
            "dtype": array.dtype.name if ok else None,
            "shape": [],
            "values": array if ok else None,
        }
    if isinstance(value, (tuple, list)) and depth < 2:
        return {
            "type": type(value).__name__,
            "length": len(value),
            "items": [describe(v, depth + 1) for v in value[:MAX_ITEMS]],
        }
    return {"type": type(value).__name__}


def _as_given(arg):
    if isinstance(arg, TensorArg):
        return _torch().from_numpy(arg.array.copy())
    if isinstance(arg, np.ndarray):
        return arg.copy()
    if isinstance(arg, list):
        return [_as_given(a) for a in arg]
    if isinstance(arg, tuple):
        return tuple(_as_given(a) for a in arg)
    return arg


def _unchanged(before, after):
    if _is_tensor(after):
        return bool(np.array_equal(before.array, _array_of(after), equal_nan=True))
    if isinstance(after, np.ndarray):
        return bool(np.array_equal(before, after, equal_nan=True))
    return True


@contextlib.contextmanager
def _quiet():
    """Keep the student's prints and warnings off stdout and stderr, but record the warnings."""
    with (
        warnings.catch_warnings(record=True) as caught,
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
    ):
        warnings.simplefilter("always")
        yield caught


def _call(obj, args, kwargs):
    given = [_as_given(a) for a in args]
    result = _student(obj, *given, **{k: _as_given(v) for k, v in kwargs.items()})
    mutated = not all(_unchanged(a, g) for a, g in zip(args, given) if isinstance(a, (TensorArg, np.ndarray)))
    return result, mutated


def probe_call(obj, args, kwargs):
    result, mutated = _call(obj, args, kwargs)
    return {**describe(result), "mutated": mutated}


def probe_calls(obj, calls):
    """Several calls of one exercise, for properties that compare them."""
    return {"type": "calls", "items": [probe_call(obj, a, k) for a, k in calls]}


def probe_module(cls, init, state, inputs, forward_kwargs, train=False):
    """Build an ``nn.Module`` exercise, load the given weights, and run ``forward``.

    The weights are loaded leniently (``strict=False``) and what did not match is reported, so
    that the judge can accept any buffers the module keeps (a causal mask, say) and still insist
    that every given weight found its parameter.
    """
    torch = _torch()
    given = {k: _as_given(v) for k, v in state.items()} if state is not None else None
    args, kwargs = [_as_given(a) for a in inputs], {k: _as_given(v) for k, v in forward_kwargs.items()}
    output, found = _student(_run_module, torch, cls, init, given, train, args, kwargs)
    return {**describe(output), **found}


def _run_module(torch, cls, init, state, train, args, kwargs):
    """The student's module, built, loaded and run: every step is the student's code (its class's methods)."""
    module = cls(**init)
    params = {name: list(p.shape) for name, p in module.named_parameters()}
    buffers = sorted(name for name, _ in module.named_buffers())
    linears = {
        name: {"linear": isinstance(m, torch.nn.Linear), "bias": getattr(m, "bias", None) is not None}
        for name, m in module.named_children()
    }
    loaded = {"missing": [], "unexpected": []}
    if state is not None:
        result = module.load_state_dict(state, strict=False)
        loaded = {"missing": sorted(result.missing_keys), "unexpected": sorted(result.unexpected_keys)}
    module.train(train)
    with torch.no_grad():
        output = module(*args, **kwargs)
    return output, {"params": params, "buffers": buffers, "children": linears, "loaded": loaded}


def probe_heatmap(fn, args, kwargs):
    """Draw with the student's ``show_heatmaps`` on Agg and describe the figure it returns.

    The caller's backend (a notebook's inline backend) is put back afterwards, so that the
    notebook's later figures still appear.
    """
    import matplotlib

    previous = matplotlib.get_backend()
    matplotlib.use("Agg", force=True)
    try:
        return _describe_heatmaps(fn, args, kwargs)
    finally:
        if previous.lower() != "agg":
            with contextlib.suppress(Exception):
                matplotlib.pyplot.switch_backend(previous)


def _describe_heatmaps(fn, args, kwargs):
    from unittest import mock

    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    shown = []

    def record(*args, **kwargs):
        shown.append(1)

    plt.close("all")
    # Where showing happens, whatever name the student called it by: the backend's show and Figure.show.
    with mock.patch.object(plt._get_backend_mod(), "show", record), mock.patch.object(Figure, "show", record):
        figure, _ = _call(fn, args, kwargs)
    if not isinstance(figure, Figure):
        plt.close("all")
        return describe(figure)
    axes = []
    for ax in figure.axes:
        spec = ax.get_subplotspec()  # a colour bar beside one plot nests it: take its place in the figure's grid
        spec = spec.get_topmost_subplotspec() if spec is not None else None
        images = [np.asarray(im.get_array(), dtype=np.float64) for im in ax.get_images()]
        axes.append(
            {
                "xlabel": ax.get_xlabel(),
                "ylabel": ax.get_ylabel(),
                "title": ax.get_title(),
                "colorbar": ax.get_label() == "<colorbar>",
                "images": images[:MAX_ITEMS],
                "position": list(spec.get_geometry()) if spec is not None else None,
            }
        )
    plt.close("all")
    return {"type": "Figure", "axes": axes, "shown": len(shown)}


PROBES = {"call": probe_call, "calls": probe_calls, "module": probe_module, "heatmap": probe_heatmap}


def _error(kind, error):
    try:
        name, message = str(type(error).__name__), str(error)[:500]
    except BaseException:  # the student's exception may not even print
        name, message = "an exception", ""
    return {"type": kind, "error": name, "message": message}


def run_probe(obj, probe, params):
    """Run one probe; an exception is described, not raised: the student's, or the grader's own."""
    with _quiet() as caught:
        try:
            outcome = PROBES[probe](obj, **params)
        except StudentRaised as raised:
            outcome = _error("raised", raised.error)
        except BaseException as error:  # the probe itself failed: the grader's problem
            outcome = _error("grader_error", error)
    outcome["warnings"] = sorted({str(w.message)[:300] for w in caught})[:5]
    return outcome
