"""Inside the sandbox: the judge's requests on the student's names and objects (judge.py), each answered with
plain data (crossing.py), the outputs the student's code showed meanwhile, what it raised, and the files of the
working folder it wrote (folder.py).

The judge holds a handle (a number) for each object that cannot cross by value; the object stays here, in a
table that lives as long as the sandbox. The judge may also lend the student's code an object of its own (a
function or a lambda of the test cell, say): here it is a :class:`Lent`, and what the student's code does with it
runs in the judge, as a request on the same channel. Nothing here decides anything: the student's code only ever
sees the arguments and the objects the judge sends it.
"""

import builtins
import functools
import importlib
import operator
import os
import sys
import traceback

import numpy as np

from . import crossing, protocol
from .folder import Changes
from .shell import CellOutputs, SandboxShell, StreamToOutputs

MAX_TEXT = 10_000
MAX_MESSAGE_BYTES = 64 << 20
MAX_FILE_BYTES = 8 << 20  # of the working folder's files sent with one answer
BINARY = {
    name: getattr(operator, name)
    for name in (
        "add",
        "sub",
        "mul",
        "truediv",
        "floordiv",
        "mod",
        "pow",
        "matmul",
        "and_",
        "or_",
        "xor",
        "lshift",
        "rshift",
        "lt",
        "le",
        "gt",
        "ge",
    )
}
BINARY["divmod"] = divmod
UNARY = {
    "neg": operator.neg,
    "pos": operator.pos,
    "abs": operator.abs,
    "invert": operator.invert,
    "float": float,
    "int": int,
    "index": operator.index,
    "complex": complex,
    "round": round,
}


def _setters():
    """The functions that set the generators a student's code draws from, as they are before any student code: the
    test cell's generators are put in them (judge.py)."""
    import random

    import numpy.random
    import torch

    return {"random": random.setstate, "numpy": numpy.random.set_state, "torch": torch.set_rng_state}


SETTERS = _setters()


class Handles:
    """The student's objects the judge holds, by number; the judge's objects lent to the student's code; the
    channel to the judge (through the worker), for what the student's code does with those."""

    def __init__(self, fd=None):
        self.objects, self.numbers, self.fd = [], {}, fd
        self.files = Changes(os.getcwd(), MAX_FILE_BYTES)

    def encode(self, value):
        """``value`` as it crosses to the judge: data, a module's name, or a handle."""
        return crossing.encode(value, self._other)

    def _other(self, value):
        if isinstance(value, Lent):
            return {"__judge__": object.__getattribute__(value, "_number")}
        number = self.numbers.get(id(value))
        if number is None:
            number = self.numbers[id(value)] = len(self.objects)
            self.objects.append(value)
        found = {"__handle__": number, "type": _type_name(type(value)), "callable": callable(value)}
        name = crossing.module_name(value)
        return {**found, "module": name} if name else found

    def decode(self, obj):
        """An argument from the judge: data, one of the handles it was given, an object it lends, or a module."""
        return crossing.decode(obj, self._resolve)

    def _resolve(self, obj):
        if set(obj) == {"__module__"} and type(obj["__module__"]) is str:
            return importlib.import_module(obj["__module__"])  # the test cell's import, run here as in one process
        if set(obj) == {"__named__"}:  # a class or a torch dtype of the test cell's: this process's own
            module, name = obj["__named__"]
            return functools.reduce(getattr, name.split("."), importlib.import_module(module))
        if set(obj) == {"__dtype__"}:
            return np.dtype(obj["__dtype__"])
        if set(obj) == {"__judge__", "type", "callable"}:
            return _lent_class(str(obj["type"])[:100])(self, obj["__judge__"], str(obj["type"]), obj["callable"])
        number = obj.get("__handle__")
        if set(obj) != {"__handle__"} or type(number) is not int or not 0 <= number < len(self.objects):
            raise ValueError("not a handle the judge was given")
        return self.objects[number]

    def call_back(self, request):
        """Ask the judge to do ``request`` on an object it lent; serve the judge's own requests meanwhile."""
        protocol.write(self.fd, {"call_back": request})
        shell = SandboxShell.instance()
        while True:
            message = protocol.read(self.fd, MAX_MESSAGE_BYTES)
            if "returned" in message:
                return self.decode(message["returned"])
            if "raised" in message:
                raise _rebuilt(message["raised"])
            protocol.write(self.fd, answer(shell, self, message, shell.outputs.limit))


class Lent:
    """An object of the judge's, lent to the student's code: what the student's code does with it runs there."""

    __slots__ = ("_handles", "_number", "_kind", "_callable")

    def __init__(self, handles, number, kind, can_call):
        for name, value in (("_handles", handles), ("_number", number), ("_kind", kind[:100]), ("_callable", can_call)):
            object.__setattr__(self, name, value)

    def _ask(self, operation, **details):
        handles = object.__getattribute__(self, "_handles")
        return handles.call_back({"on": object.__getattribute__(self, "_number"), "do": operation, **details})

    def __call__(self, *args, **kwargs):
        if object.__getattribute__(self, "_callable") is not True:
            raise TypeError(f"'{type(self).__name__}' object is not callable")
        handles = object.__getattribute__(self, "_handles")
        return self._ask("call", args=handles.encode(args), kwargs=handles.encode(kwargs))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._ask("attr", name=name)

    def __getitem__(self, key):
        return self._ask("item", key=object.__getattribute__(self, "_handles").encode(key))

    def __len__(self):
        return self._ask("len")

    def __repr__(self):
        return f"<{object.__getattribute__(self, '_kind')} of the test cell>"


@functools.lru_cache(maxsize=1000)
def _lent_class(kind):
    """A Lent class named after the judge's type, so that the student's code sees the errors a test cell's object
    gives in one process ("unsupported operand type(s) for *: 'int' and 'object'")."""
    return type(kind or "object", (Lent,), {"__slots__": ()})


def _type_name(kind):
    name = type.__dict__["__name__"].__get__(kind)
    return name[:100] if type(name) is str else "object"


def _operation(handles, user_ns, request):
    """A function that does what ``request`` asks, on the student's objects and names."""
    if "sync" in request:  # the files written so far, before a test cell starts
        return lambda: None
    if "lookup" in request:
        name = request["lookup"]
        return lambda: user_ns[name] if name in user_ns else crossing.MISSING
    if "names" in request:
        return lambda: [name for name in user_ns if type(name) is str]
    if "push" in request:
        return lambda: _push(handles, user_ns, request["push"])
    if "delete" in request:
        return lambda: _delete(user_ns, request["delete"])
    target = handles.decode({"__handle__": request["on"]})
    operation = request["do"]
    if operation == "call":
        args, kwargs = handles.decode(request["args"]), handles.decode(request["kwargs"])
        return lambda: target(*args, **kwargs)
    if operation == "attr":
        return lambda: getattr(target, request["name"])
    if operation == "item":
        key = handles.decode(request["key"])
        return lambda: target[key]
    if operation == "len":
        return lambda: len(target)
    if operation == "iter":
        return lambda: iter(target)
    if operation == "next":
        return lambda: next(target, crossing.MISSING)
    if operation == "array":
        return lambda: np.asarray(target)
    if operation == "setattr" and type(request.get("name")) is str and not request["name"].startswith("_"):
        value = handles.decode(request["value"])
        return lambda: setattr(target, request["name"], value)
    if operation == "setitem":
        key, value = handles.decode(request["key"]), handles.decode(request["value"])
        return lambda: operator.setitem(target, key, value)
    if operation == "delitem":
        key = handles.decode(request["key"])
        return lambda: operator.delitem(target, key)
    if operation == "contains":
        item = handles.decode(request["item"])
        return lambda: item in target
    if operation == "binary":
        function, other = BINARY[request["op"]], handles.decode(request["other"])
        return (lambda: function(other, target)) if request["reflected"] else (lambda: function(target, other))
    if operation == "unary":
        function, args = UNARY[request["op"]], handles.decode(request["args"])
        return lambda: function(target, *args)
    raise ValueError(f"unknown request {str(operation)[:40]!r}")


def _push(handles, user_ns, push):
    """The names the test cell assigned (and deleted) since the student's code last ran, in the student's
    namespace, and the state of each random generator the test cell seeded or drew from: one namespace and one
    set of generators, as in stock nbgrader's kernel."""
    for name, value in push["set"]:
        user_ns[name] = handles.decode(value)
    for name in push["unset"]:
        user_ns.pop(name, None)
    for name, state in handles.decode(push["generators"]).items():
        SETTERS[name](state)


def _delete(user_ns, name):
    if name not in user_ns:
        raise NameError(f"name '{name}' is not defined")
    del user_ns[name]


def answer(shell, handles, request, output_chars):
    """The answer to one of the judge's requests: its value (or that there is none), or what it raised, the
    outputs the student's code showed while it ran, and the files it wrote."""
    run = _operation(handles, shell.user_ns, request)
    outer = getattr(shell, "outputs", None)
    outputs = shell.outputs = CellOutputs(output_chars)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = StreamToOutputs(shell, "stdout"), StreamToOutputs(shell, "stderr")
    try:
        value = run()
        reply = {"missing": True} if value is crossing.MISSING else {"value": handles.encode(value)}
    except BaseException as error:  # the student's code raised (SystemExit and KeyboardInterrupt included)
        reply = {"raised": _raised(error)}
    finally:
        sys.stdout, sys.stderr = saved
        shell.outputs = outer if outer is not None else outputs
    changed, removed = handles.files.since_last()
    if changed or removed:
        reply["files"] = {
            "changed": {name: crossing.encode(data, _no_other) for name, data in changed.items()},
            "removed": removed,
        }
    return {**reply, "outputs": outputs.items}


def _no_other(value):
    raise crossing.CannotCross(type(value).__name__)


def _rebuilt(raised):
    """The judge's error, raised in the student's code: a built-in type by its name, else a RuntimeError."""
    kind = vars(builtins).get(str(raised.get("type")))
    message = str(raised.get("message", ""))[:MAX_TEXT]
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            return kind(message)
        except Exception:
            pass
    return RuntimeError(f"{raised.get('type')}: {message}")


def _raised(error):
    try:
        message = str(error)[:MAX_TEXT]
    except BaseException:
        message = ""
    try:
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename != __file__]
        lines = traceback.format_list(frames[-10:]) + traceback.format_exception_only(error)
    except BaseException:
        lines = []
    return {
        "type": _type_name(type(error)),
        "message": message if type(message) is str else "",
        "traceback": [line[:2000] for line in lines if type(line) is str],
    }
