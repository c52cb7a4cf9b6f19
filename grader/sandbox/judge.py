"""The judge: where an instructor's plain test cell runs, in a process forked from the worker's clean fork server,
which has never run student code. No hook, patched module, mode, finder or observer of the student's can reach
it, and the test cell (its hidden part included) never enters the student's process.

The test cell reads the student's names as it runs: a name that neither Python's builtins nor the judge's own
earlier test cells define is looked up in the student's process (through the worker, which keeps the clock).
Data crosses by value (crossing.py), a module by its name (the judge's own copy of it), anything else as a
:class:`Proxy`: calling it, or reading its attributes, items, length or numbers, runs the student's code in the
sandbox on the test cell's arguments and brings the result back as data. ``==``, ``bool()`` and ``repr()`` of a
proxy never ask the student's code: a proxy equals only itself, has no truth value, and shows as what it is.
"""
import builtins
import importlib
import os
import sys

import numpy as np

from . import crossing, isolation, protocol
from .shell import SandboxShell

MAX_MESSAGE_BYTES = 64 << 20
BUILTINS = vars(builtins)
IMPORTED_AS_THEY_ACT = frozenset({"antigravity", "this"})  # standard modules that do something when imported


class Malformed(BaseException):
    """An answer from the student's process that is not a crossing form (a BaseException: no test cell's
    ``except Exception`` catches it)."""


class StudentCodeError(Exception):
    """An error of the student's code whose type is not one of Python's own."""


class Student:
    """The judge's side of the channel to the student's process; ``shell`` is the judge's, whose cell gets the
    outputs the student's code shows while the test cell runs."""

    def __init__(self, fd, shell):
        self.fd, self.shell, self.malformed = fd, shell, None

    def ask(self, request):
        """The value the student's process answers ``request`` with (crossing.MISSING for no such name or an
        iterator's end); raises what the student's code raised."""
        protocol.write(self.fd, {"ask": request})
        answer = protocol.read(self.fd, MAX_MESSAGE_BYTES)["answer"]
        for output in answer["outputs"]:  # a value the student's code showed is not the cell's: display data
            if output["output_type"] == "stream":
                self.shell.outputs.stream(output["name"], output["text"])
            elif output["output_type"] == "execute_result":
                self.shell.outputs.add({"output_type": "display_data", "data": output["data"],
                                        "metadata": output["metadata"]})
            else:
                self.shell.outputs.add(output)
        if "raised" in answer:
            raise _error(answer["raised"])
        if "missing" in answer:
            return crossing.MISSING
        try:
            return crossing.decode(answer["value"], self._other)
        except (ValueError, TypeError, KeyError) as error:
            self.malformed = f"a value that is not plain data ({str(error)[:200]})"
            raise Malformed(self.malformed) from None

    def do(self, proxy, operation, **details):
        return self.ask({"on": object.__getattribute__(proxy, "_number"), "do": operation, **details})

    def send(self, value):
        """``value`` as an argument for the student's code."""
        return crossing.encode(value, _argument)

    def _other(self, obj):
        number, kind, can_call = obj.get("__handle__"), obj.get("type"), obj.get("callable")
        if type(number) is not int or type(kind) is not str or type(can_call) is not bool or \
                not set(obj) <= {"__handle__", "type", "callable", "module"}:
            raise ValueError("not a handle")
        module = _module(obj.get("module"))
        return module if module is not None else Proxy(self, number, kind, can_call)


def _argument(value):
    """What the judge can hand the student's code beside data: the student's own objects."""
    if type(value) is Proxy:
        return {"__handle__": object.__getattribute__(value, "_number")}
    raise crossing.CannotCross(f"a {type(value).__name__} cannot be handed to the student's code from a test cell "
                               "judged outside it (only numbers, strings, lists, tuples, dicts, arrays, tensors "
                               "and the student's own objects can)")


def _module(name):
    """The judge's own copy of the module the student's name refers to, if the judge can import it."""
    if type(name) is not str:
        return None
    top = name.partition(".")[0]
    if top not in sys.modules and (top not in sys.stdlib_module_names or top in IMPORTED_AS_THEY_ACT):
        return None
    try:
        return importlib.import_module(name)
    except Exception:
        return None


def _error(raised):
    """The exception the student's code raised, rebuilt here from its type's name, message and traceback."""
    kind, error = BUILTINS.get(raised["type"]), None
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            error = kind(raised["message"])
        except Exception:  # a type that takes other arguments (UnicodeDecodeError)
            pass
    error = error or StudentCodeError(f"{raised['type']}: {raised['message']}")
    if raised["traceback"]:
        error.add_note("Raised in your code:\n" + "".join(raised["traceback"]).rstrip())
    return error


class Proxy:
    """An object of the student's process, held by number: what the test cell does with it runs there."""

    __slots__ = ("_student", "_number", "_kind", "_callable")

    def __init__(self, student, number, kind, can_call):
        for name, value in (("_student", student), ("_number", number), ("_kind", kind), ("_callable", can_call)):
            object.__setattr__(self, name, value)

    def _ask(self, operation, **details):
        return object.__getattribute__(self, "_student").do(self, operation, **details)

    def __call__(self, *args, **kwargs):
        if not object.__getattribute__(self, "_callable"):
            raise TypeError(f"'{object.__getattribute__(self, '_kind')}' object is not callable")
        student = object.__getattribute__(self, "_student")
        return self._ask("call", args=student.send(args), kwargs=student.send(kwargs))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._ask("attr", name=name)

    def __setattr__(self, name, value):
        raise TypeError("a test cell judged outside the student's process cannot change the student's objects")

    def __getitem__(self, key):
        return self._ask("item", key=object.__getattribute__(self, "_student").send(key))

    def __len__(self):
        length = self._ask("len")
        if type(length) is not int:
            raise TypeError("the length the student's object gave is not a whole number")
        return length

    def __iter__(self):
        iterator = self._ask("iter")
        if type(iterator) is not Proxy:
            raise TypeError("the student's object did not give an iterator")
        while (item := iterator._ask("next")) is not crossing.MISSING:
            yield item

    def __array__(self, dtype=None, copy=None):
        array = self._ask("array")
        if not isinstance(array, np.ndarray):
            raise TypeError(f"a {object.__getattribute__(self, '_kind')} made by the student's code could not be "
                            "read as numbers")
        return array if dtype is None else array.astype(dtype)

    def __bool__(self):
        raise TypeError(f"a {object.__getattribute__(self, '_kind')} made by the student's code has no truth value "
                        "the grader can trust: a test cell judged outside the student's process compares numbers, "
                        "strings, lists, arrays and tensors")

    def __repr__(self):
        return f"<{object.__getattribute__(self, '_kind')} made by the student's code>"

    __eq__, __hash__ = object.__eq__, object.__hash__


class StudentNames(dict):
    """A test cell's builtins: Python's own, then the names the student's notebook defines at this point, asked
    for as the cell reads them, once per cell (a name the judge's own cells define is found before these)."""

    def __init__(self, student):
        super().__init__(BUILTINS)
        self.student, self.seen = student, {}

    def __missing__(self, name):
        if name in BUILTINS:  # IPython adds display() and get_ipython() to builtins while a cell runs
            return BUILTINS[name]
        if name not in self.seen:
            self.seen[name] = self.student.ask({"lookup": name})
        if self.seen[name] is crossing.MISSING:
            raise KeyError(name)
        return self.seen[name]


def judge_main(fd, server):
    """In a fresh fork of the clean fork server: run the test cells the worker sends, one at a time."""
    isolation.die_with_parent(server)
    isolation.isolate_fds(fd)
    shell = SandboxShell.instance()
    shell.hidden_files = frozenset({__file__, crossing.__file__})  # tracebacks show the cell, not the judge
    student = Student(fd, shell)
    names = StudentNames(student)
    while True:
        try:
            request = protocol.read(fd, MAX_MESSAGE_BYTES)
        except protocol.ProtocolError:
            os._exit(0)
        shell.user_ns["__builtins__"] = names
        names.seen.clear()
        shell.execution_count = request["count"]
        outputs, count = shell.run(request["cell"], request["limit"], test=True)
        reply = {"malformed": student.malformed} if student.malformed else {"outputs": outputs, "count": count}
        protocol.write(fd, reply)
