"""The judge: where an instructor's plain test cell runs, in a process forked from the worker's clean fork server,
which has never run student code. No hook, patched module, mode, finder or observer of the student's can reach
it, and the test cell (its hidden part included) never enters the student's process.

The judge keeps stock nbgrader's one-process semantics where real test cells lean on them:

- it runs in a copy of the notebook's folder (folder.py), where the course's own modules import (the instructor's
  copies) and the data files the student's code wrote show up as it writes them;
- a name that neither Python's builtins nor the test cells define is looked up in the student's namespace, again
  after each call into the student's code; a global the test cell assigns or deletes is assigned or deleted
  there too before the student's code next runs;
- data crosses by value (crossing.py); anything else of the student's is a :class:`Proxy` whose calls,
  attributes, items, length, iteration, numbers and operators run the student's code in the sandbox; anything of
  the test cell's that cannot cross (a function, a lambda, a class, an object) is lent to the student's code,
  whose use of it runs here;
- the random generators are one: a seed or a draw of the test cell sets the student's process's generator
  (Python's, NumPy's and torch's global ones) before the student's code next runs.

``==``, ``bool()``, ``hash()`` and ``repr()`` of a proxy never ask the student's code: a proxy equals only itself,
has no truth value, and shows as what it is. Nothing the student's process sends is imported, unpickled, or looked
up by name but among the judge's own modules already loaded.
"""

import builtins
import contextlib
import functools
import os
import re
import sys

import numpy as np

from . import crossing, folder, isolation, protocol
from .shell import SandboxShell

MAX_MESSAGE_BYTES = 64 << 20
BUILTINS = vars(builtins)
IPYTHON_NAMES = re.compile(r"_+|_[iI]+|_i?\d+|_[ido]h|In|Out|__builtins__|get_ipython|exit|quit|_exit_code")
UNSHARED_MODULES = re.compile(r"(grader|__main__|__mp_main__)(\..*)?")
MAX_PROXY_CLASSES = 1000
RUNS_STUDENT_CODE = frozenset({"call", "binary", "unary", "setattr", "setitem", "delitem"})


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
        self.lent, self.changed = [], {}  # changed: name -> "set" or "unset", not yet in the student's namespace
        self.names = None  # the test cells' namespace (TestCellNames), once made
        self.generators = Generators()

    def ask(self, request):
        """The value the student's process answers ``request`` with (crossing.MISSING for no such name or an
        iterator's end); raises what the student's code raised. The test cell's pending assignments go first."""
        self.push()
        protocol.write(self.fd, {"ask": request})
        while True:
            message = protocol.read(self.fd, MAX_MESSAGE_BYTES)
            if "call_back" not in message:
                break
            protocol.write(self.fd, self._serve(message["call_back"]))
        answer = message["answer"]
        self.take_files(answer.get("files"))
        if request.get("do") in RUNS_STUDENT_CODE and self.names is not None:
            self.names.seen.clear()  # the student's code ran: its globals may have changed
        for output in answer["outputs"]:  # a value the student's code showed is not the cell's: display data
            if output["output_type"] == "stream":
                self.shell.outputs.stream(output["name"], output["text"])
            elif output["output_type"] == "execute_result":
                self.shell.outputs.add(
                    {"output_type": "display_data", "data": output["data"], "metadata": output["metadata"]}
                )
            else:
                self.shell.outputs.add(output)
        if "raised" in answer:
            raise _error(answer["raised"])
        if "missing" in answer:
            return crossing.MISSING
        return self.decode(answer["value"])

    def decode(self, obj):
        try:
            return crossing.decode(obj, self._other)
        except (ValueError, TypeError, KeyError) as error:
            self.malformed = f"a value that is not plain data ({str(error)[:200]})"
            raise Malformed(self.malformed) from None

    def push(self):
        """Assign and delete, in the student's namespace, the names the test cell assigned and deleted since the
        student's code last ran; set the student's random generators where the test cell seeded or drew."""
        states = self.generators.changed()
        if not self.changed and not states:
            return
        changed, self.changed = self.changed, {}
        assigned = [
            [name, self.send(self.names[name])]
            for name, how in sorted(changed.items())
            if how == "set" and dict.__contains__(self.names, name)
        ]
        unset = sorted(name for name, how in changed.items() if how == "unset")
        self.ask({"push": {"set": assigned, "unset": unset, "generators": self.send(states or {})}})

    def do(self, proxy, operation, **details):
        return self.ask({"on": object.__getattribute__(proxy, "_number"), "do": operation, **details})

    def send(self, value):
        """``value`` as an argument for the student's code: data by value, the student's own objects by handle,
        a module by its name, and anything else of the judge's lent."""
        return crossing.encode(value, self._lend)

    def _lend(self, value):
        if isinstance(value, Proxy):
            return {"__handle__": object.__getattribute__(value, "_number")}
        name = crossing.module_name(value)
        if name is not None:
            return {"__module__": name}
        if isinstance(value, np.dtype):
            return {"__dtype__": value.str}
        named = _named(value)
        if named is not None:
            return {"__named__": named}
        self.lent.append(value)
        return {"__judge__": len(self.lent) - 1, "type": type(value).__name__[:100], "callable": callable(value)}

    def _other(self, obj):
        if set(obj) == {"__judge__"}:  # an object the judge lent, coming back
            number = obj["__judge__"]
            if type(number) is not int or not 0 <= number < len(self.lent):
                raise ValueError("not an object the judge lent")
            return self.lent[number]
        number, kind, can_call = obj.get("__handle__"), obj.get("type"), obj.get("callable")
        if (
            type(number) is not int
            or type(kind) is not str
            or type(can_call) is not bool
            or not set(obj) <= {"__handle__", "type", "callable", "module"}
        ):
            raise ValueError("not a handle")
        module = _loaded_module(obj.get("module"))
        return module if module is not None else _proxy_class(kind)(self, number, kind, can_call)

    def _serve(self, request):
        """What the student's code asked of an object the judge lent it: run here, the answer sent back."""
        try:
            target = self._other({"__judge__": request.get("on")})
            operation = request.get("do")
            if operation == "call":
                value = target(*self.decode(request["args"]), **self.decode(request["kwargs"]))
            elif operation == "attr" and type(request.get("name")) is str and not request["name"].startswith("_"):
                value = getattr(target, request["name"])
            elif operation == "item":
                value = target[self.decode(request["key"])]
            elif operation == "len":
                value = len(target)
            else:
                raise TypeError(f"a {type(target).__name__} of the test cell cannot do that")
            return {"returned": self.send(value)}
        except Malformed:
            raise
        except Exception as error:
            return {"raised": {"type": type(error).__name__, "message": str(error)[:10_000]}}

    def take_files(self, files):
        """Write the files the student's code wrote into the judge's folder (data files only: folder.py)."""
        if not files:
            return
        changed = {name: self.decode(data) for name, data in files["changed"].items()}
        folder.write_folder(
            {name: data for name, data in changed.items() if folder.is_data(name) and type(data) is bytes}, os.getcwd()
        )
        for name in files["removed"]:
            path = folder.is_data(name) and folder.inside(os.getcwd(), name)
            if path and os.path.isfile(path) and not os.path.islink(path):
                os.unlink(path)


def _named(value):
    """[module, name] of a class or a torch dtype that a loaded module holds under that name (``np.float32``,
    ``int``, ``torch.float64``): the student's process takes its own, as in one process. None for anything else."""
    if isinstance(value, type):
        module, name = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    elif type(value).__module__ == "torch" and type(value).__name__ == "dtype":
        module, name = "torch", str(value).removeprefix("torch.")
    else:
        return None
    shared = type(module) is str and type(name) is str and not UNSHARED_MODULES.fullmatch(module)
    found = sys.modules.get(module) if shared else None  # a class of the test cell's own (__main__) is lent
    for part in name.split(".") if found is not None else ():
        found = getattr(found, part, None)
    return [module, name] if found is value else None


def _loaded_module(name):
    """The judge's own copy of a module the student's value is, when the judge has it loaded already (nothing is
    imported on the student's word); None for the kit's own modules and ``__main__``."""
    if type(name) is not str or UNSHARED_MODULES.fullmatch(name):
        return None
    module = sys.modules.get(name)
    return module if type(module).__name__ == "module" else None


def _error(raised):
    """The exception the student's code raised, rebuilt here from its type's name, message and traceback: a
    built-in exception type by its name, any other as a StudentCodeError."""
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


class TestCellNames(dict):
    """The test cells' namespace. A name it does not hold is Python's builtin, else the student's (asked for as
    the cell reads it, again after the student's code runs); what the cell assigns or deletes at its top level is
    assigned or deleted in the student's namespace before the student's code next runs."""

    def __init__(self, student, *args):
        super().__init__(*args)
        self.student, self.seen = student, {}
        student.names = self

    def __missing__(self, name):
        if name in BUILTINS:
            return BUILTINS[name]
        if name not in self.seen:
            self.seen[name] = self.student.ask({"lookup": name})
        if self.seen[name] is crossing.MISSING:
            raise KeyError(name)
        return self.seen[name]

    def __setitem__(self, name, value):
        super().__setitem__(name, value)
        if type(name) is str and not IPYTHON_NAMES.fullmatch(name):
            self.seen.pop(name, None)
            self.student.changed[name] = "set"

    def __delitem__(self, name):
        if dict.__contains__(self, name):
            super().__delitem__(name)
            self.student.changed[name] = "unset"
        else:
            self.student.ask({"delete": name})  # the student's own name; NameError when there is none
        self.seen[name] = crossing.MISSING

    # The namespace as a whole (``'f' in globals()``, ``globals().get('f')``, ``dir()``, ``vars()``): the test
    # cells' names and the student's, as one namespace.
    def __contains__(self, name):
        if dict.__contains__(self, name):
            return True
        try:
            return name not in BUILTINS and self.__missing__(name) is not crossing.MISSING
        except KeyError:
            return False

    def get(self, name, default=None):
        return self[name] if name in self else default

    def keys(self):
        theirs = [name for name in self.student.ask({"names": True}) if self.seen.get(name) is not crossing.MISSING]
        return list(dict.fromkeys([*dict.keys(self), *theirs]))

    def __iter__(self):
        return iter(self.keys())


class Proxy:
    """An object of the student's process, held by number: what the test cell does with it runs there."""

    __slots__ = ("_student", "_number", "_kind", "_callable")

    def __init__(self, student, number, kind, can_call):
        for name, value in (("_student", student), ("_number", number), ("_kind", kind), ("_callable", can_call)):
            object.__setattr__(self, name, value)

    def _ask(self, operation, **details):
        return object.__getattribute__(self, "_student").do(self, operation, **details)

    def _send(self, value):
        return object.__getattribute__(self, "_student").send(value)

    def __call__(self, *args, **kwargs):
        if not object.__getattribute__(self, "_callable"):
            raise TypeError(f"'{object.__getattribute__(self, '_kind')}' object is not callable")
        return self._ask("call", args=self._send(args), kwargs=self._send(kwargs))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._ask("attr", name=name)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            raise AttributeError(f"a test cell judged outside the student's process cannot set {name}")
        self._ask("setattr", name=name, value=self._send(value))

    def __getitem__(self, key):
        return self._ask("item", key=self._send(key))

    def __setitem__(self, key, value):
        self._ask("setitem", key=self._send(key), value=self._send(value))

    def __delitem__(self, key):
        self._ask("delitem", key=self._send(key))

    def __len__(self):
        length = self._ask("len")
        if type(length) is not int:
            raise TypeError("the length the student's object gave is not a whole number")
        return length

    def __contains__(self, item):
        found = self._ask("contains", item=self._send(item))
        if type(found) is not bool:
            raise TypeError("the student's object said neither True nor False")
        return found

    def __iter__(self):
        iterator = self._ask("iter")
        if not isinstance(iterator, Proxy):
            raise TypeError("the student's object did not give an iterator")
        while (item := iterator._ask("next")) is not crossing.MISSING:
            yield item

    def __array__(self, dtype=None, copy=None):
        array = self._ask("array")
        if not isinstance(array, np.ndarray):
            raise TypeError(
                f"a {object.__getattribute__(self, '_kind')} made by the student's code could not be read as numbers"
            )
        return array if dtype is None else array.astype(dtype)

    def __bool__(self):
        raise TypeError(
            f"a {object.__getattribute__(self, '_kind')} made by the student's code has no truth value "
            "the grader can trust: a test cell judged outside the student's process compares numbers, "
            "strings, lists, arrays and tensors"
        )

    def __repr__(self):
        return f"<{object.__getattribute__(self, '_kind')} made by the student's code>"

    __eq__, __hash__ = object.__eq__, object.__hash__


def _binary(op, reflected=False):
    def method(self, other):
        return self._ask("binary", op=op, other=self._send(other), reflected=reflected)

    return method


def _unary(op, result_type=None):
    def method(self, *args):
        value = self._ask("unary", op=op, args=self._send(args))
        if result_type is not None and type(value) is not result_type:
            raise TypeError(f"{op}() of the student's object did not give a {result_type.__name__}")
        return value

    return method


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lshift", "rshift", "xor"):
    setattr(Proxy, f"__{_name}__", _binary(_name))
    setattr(Proxy, f"__r{_name}__", _binary(_name, reflected=True))
for _name, _op in (("and", "and_"), ("or", "or_")):
    setattr(Proxy, f"__{_name}__", _binary(_op))
    setattr(Proxy, f"__r{_name}__", _binary(_op, reflected=True))
for _name in ("lt", "le", "gt", "ge"):
    setattr(Proxy, f"__{_name}__", _binary(_name))
Proxy.__divmod__, Proxy.__rdivmod__ = _binary("divmod"), _binary("divmod", reflected=True)
for _name in ("neg", "pos", "abs", "invert", "round"):
    setattr(Proxy, f"__{_name}__", _unary(_name))
for _name, _type in (("float", float), ("int", int), ("index", int), ("complex", complex)):
    setattr(Proxy, f"__{_name}__", _unary(_name, _type))


@functools.lru_cache(maxsize=MAX_PROXY_CLASSES)
def _proxy_class(kind):
    """A Proxy class named after the student's type, so that an error names it as stock Python would (the name is
    only a label: no code is looked up by it)."""
    return type(kind[:100] or "object", (Proxy,), {"__slots__": (), "__module__": "student"})


class Generators:
    """The random generators a test cell and the student's code share in one process (Python's, NumPy's global
    one, torch's CPU one): when the test cell seeded or drew from one, its state goes to the student's process
    before the student's code next runs, so the student's code draws what it would draw after the test cell's
    draws in one process."""

    def __init__(self):
        self.synced = self.states()

    @staticmethod
    def states():
        import random

        import torch

        return {"random": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}

    def changed(self):
        """The states changed since the last call, or None."""
        now = self.states()
        changed = {name: state for name, state in now.items() if not _same_state(state, self.synced[name])}
        self.synced = now
        return changed or None


def _same_state(one, other):
    if isinstance(one, (tuple, list)):
        return len(one) == len(other) and all(_same_state(a, b) for a, b in zip(one, other))
    if hasattr(one, "shape"):
        return np.array_equal(np.asarray(one), np.asarray(other))
    return one == other


def judge_main(fd, server):
    """In a fresh fork of the clean fork server: run the test cells the worker sends, one at a time."""
    isolation.die_with_parent(server)
    isolation.isolate_fds(fd)
    shell = SandboxShell.instance()
    shell.hidden_files = frozenset({__file__, crossing.__file__})  # tracebacks show the cell, not the judge
    student = Student(fd, shell)
    names = TestCellNames(student, {k: v for k, v in shell.user_ns.items()})
    names["__builtins__"] = builtins
    shell.user_module, shell.user_ns = shell.prepare_user_module(user_ns=names)
    sys.modules["__main__"] = shell.user_module  # ``from __main__ import f``: the notebook's names, as in a kernel
    shell.ns_table.update(user_global=names, user_local=names)
    student.changed.clear()
    while True:
        try:
            request = protocol.read(fd, MAX_MESSAGE_BYTES)
        except protocol.ProtocolError:
            os._exit(0)
        if "folder" in request:
            os.chdir(request["folder"])
            sys.path.insert(0, request["folder"])
        names.seen.clear()
        student.take_files(request.get("files"))
        shell.execution_count = request["count"]
        outputs, count = shell.run(request["cell"], request["limit"], test=True)
        with contextlib.suppress(Exception):
            student.push()  # what the cell assigned last is in the student's namespace for the next cell
        reply = {"malformed": student.malformed} if student.malformed else {"outputs": outputs, "count": count}
        protocol.write(fd, reply)
