"""Inside the sandbox: the judge's requests on the student's names and objects (judge.py), each answered with
plain data (crossing.py), the outputs the student's code showed meanwhile, or what it raised.

The judge holds a handle (a number) for each object that cannot cross by value; the object stays here, in a
table that lives as long as the sandbox. Nothing here decides anything: the student's code only ever sees the
arguments the judge sends it.
"""
import sys
import traceback

import numpy as np

from . import crossing
from .shell import CellOutputs, StreamToOutputs

MAX_TEXT = 10_000


class Handles:
    """The student's objects the judge holds, by number."""

    def __init__(self):
        self.objects, self.numbers = [], {}

    def encode(self, value):
        """``value`` as it crosses to the judge: data, a module's name, or a handle."""
        return crossing.encode(value, self._other)

    def _other(self, value):
        number = self.numbers.get(id(value))
        if number is None:
            number = self.numbers[id(value)] = len(self.objects)
            self.objects.append(value)
        kind = type(value)
        found = {"__handle__": number, "type": _type_name(kind), "callable": callable(value)}
        name = crossing.module_name(value)
        return {**found, "module": name} if name else found

    def decode(self, obj):
        """An argument from the judge: data, or one of the handles it was given."""
        return crossing.decode(obj, self._resolve)

    def _resolve(self, obj):
        number = obj.get("__handle__")
        if set(obj) != {"__handle__"} or type(number) is not int or not 0 <= number < len(self.objects):
            raise ValueError("not a handle the judge was given")
        return self.objects[number]


def _type_name(kind):
    name = type.__dict__["__name__"].__get__(kind)
    return name[:100] if type(name) is str else "object"


def _operation(handles, user_ns, request):
    """A function that does what ``request`` asks, on the student's objects."""
    if "lookup" in request:
        name = request["lookup"]
        return lambda: user_ns[name] if name in user_ns else crossing.MISSING
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
    raise ValueError(f"unknown request {str(operation)[:40]!r}")


def answer(shell, handles, request, output_chars):
    """The answer to one of the judge's requests: its value (or that there is none), or what it raised, and
    the outputs the student's code showed while it ran."""
    run = _operation(handles, shell.user_ns, request)
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
    return {**reply, "outputs": outputs.items}


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
    return {"type": _type_name(type(error)), "message": message if type(message) is str else "",
            "traceback": [line[:2000] for line in lines if type(line) is str]}
