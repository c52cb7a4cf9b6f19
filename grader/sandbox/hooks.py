"""What decides how a cell is read and run and how its outcome shows, kept from before any student code ran and
put back before each instructor's test cell: no cell of a submission rewrites, replaces or silences a test cell.

Put back: every loaded module's functions, classes and submodules (IPython's, the standard library's, NumPy's,
torch's, builtins, ``sys.displayhook`` and ``sys.excepthook``), its classes' methods and descriptors, their code;
``sys.modules``; the shell's class, its own attributes and trait values and those of
the objects it runs cells with (display hook, display publisher, traps, compiler and its ``__future__`` flags,
tracebacks, custom exception handler), the contents of its hook tables (input transformers, AST transformers,
events, formatters, magics, prefilters); signal handlers and timers; garbage-collector callbacks; threading's
trace and profile functions. ``restore`` returns the student's values, and ``undo`` puts them back after the
test cell: the student's own later cells run with their hooks, as in Jupyter.

``restore`` runs while the student's hooks are still in place: it puts builtins back first, with no builtin,
and calls the library functions it needs through names bound when this module was imported. Names a student
adds that hide nothing (a builtin, a base class's attribute) stay: they are the student's, not hooks.
"""

import builtins
import sys
import threading
import types
from gc import callbacks as gc_callbacks
from gc import collect
from itertools import repeat
from operator import attrgetter, is_
from signal import ITIMER_PROF, ITIMER_REAL, ITIMER_VIRTUAL, getsignal, setitimer, valid_signals
from signal import signal as set_handler

MISSING = object()
BUILTINS = vars(builtins)
SHELL_STATE = {"outputs", "cell_count"}  # the kit's record of the cell that runs now
COUNTERS = {"execution_count", "last_execution_succeeded", "last_execution_result"}
TIMERS = (ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF)
STUDENTS_OWN = {"warnings"}  # silencing warnings (often by replacing warnings.warn) only hides stderr, worth 0
BUILTIN_NAMES = frozenset(BUILTINS)


def _refuse(event, args):
    if event == "sys.addaudithook":
        raise RuntimeError("no audit hooks in the sandbox")


def refuse_audit_hooks():
    """From now on, no audit hook can be added: one would run inside every test cell and cannot be removed."""
    sys.addaudithook(_refuse)


def _is_code(value):
    """A value that runs or finds code: a function, a class, a descriptor, a module."""
    kind = type(value)
    return callable(value) or issubclass(kind, types.ModuleType) or hasattr(kind, "__get__")


def _shell_objects(shell):
    """The shell and the objects it reads and runs cells with (its attributes, trait values, formatters and
    prefilters)."""
    found = {id(shell): shell}
    prefilter = shell.prefilter_manager
    for value in [
        *(v for k, v in vars(shell).items() if k not in SHELL_STATE),
        *shell._trait_values.values(),
        *shell.display_formatter.formatters.values(),
        *prefilter._checkers,
        *prefilter._transformers,
        *prefilter._handlers.values(),
    ]:
        if hasattr(value, "__dict__") and not isinstance(
            value, (type, types.ModuleType, types.FunctionType, types.MethodType)
        ):
            found.setdefault(id(value), value)
    return list(found.values())


def _tables(shell):
    """The lists and dicts of hooks that a cell can fill in place."""
    transformers = shell.input_transformer_manager
    formatters = shell.display_formatter.formatters
    prefilter = shell.prefilter_manager
    tables = [
        shell.ast_transformers,
        shell.input_transformers_post,
        transformers.cleanup_transforms,
        transformers.line_transforms,
        transformers.token_transformers,
        shell.events.callbacks,
        *shell.events.callbacks.values(),
        formatters,
        shell.magics_manager.magics,
        *shell.magics_manager.magics.values(),
        shell.magics_manager.registry,
        prefilter._transformers,
        prefilter._checkers,
        prefilter._handlers,
        prefilter._esc_handlers,
        gc_callbacks,
        shell.builtin_trap.auto_builtins,
    ]
    for formatter in formatters.values():
        tables += [formatter.type_printers, formatter.deferred_printers, formatter.singleton_printers]
    return tables


def _copy(table):
    return dict(table) if isinstance(table, dict) else list(table)


class Changes:
    """What ``Snapshot.restore`` replaced: the student's values, put back by ``undo``."""

    def __init__(self):
        self.builtins, self.entries, self.tables, self.signals, self.timers = [], [], [], [], []

    def undo(self):
        for kind, namespace, key, value in reversed(self.entries):
            _put(kind, namespace, key, value)
        for table, saved in self.tables:
            _fill(table, saved)
        for number, handler in self.signals:
            set_handler(number, handler)
        for which, saved in self.timers:
            setitimer(which, *saved)
        for key, value in self.builtins:
            if value is MISSING:
                BUILTINS.pop(key, None)
            else:
                BUILTINS[key] = value


def _live(kind, namespace):
    """The mapping behind a namespace: a dict itself, a class's __dict__, an object's own __dict__."""
    return (
        namespace
        if kind == "dict"
        else namespace.__dict__
        if kind == "class"
        else object.__getattribute__(namespace, "__dict__")
    )


def _put(kind, namespace, key, value):
    """Set (or, for MISSING, remove) ``key``: past any __setattr__ of the student's making."""
    if kind == "class":
        if value is MISSING:
            type.__delattr__(namespace, key)
        else:
            type.__setattr__(namespace, key, value)
    elif kind == "attribute":  # __class__ of an object or a module; __code__ and defaults of a function
        object.__setattr__(namespace, key, value)
    elif value is MISSING:
        _live(kind, namespace).pop(key, None)
    else:
        _live(kind, namespace)[key] = value


def _fill(table, saved):
    if isinstance(table, dict):
        table.clear()
        table.update(saved)
    else:
        table[:] = saved


class Snapshot:
    """The state that decides how cells run, captured once, before any student code."""

    def __init__(self, shell):
        self.builtins = BUILTINS.copy()
        objects = _shell_objects(shell)
        self.namespaces = _module_namespaces(shell) + _shell_namespaces(shell, objects)
        code = {}  # the classes, then the functions, found so far, by id
        for _, _, kept, _, _ in self.namespaces:
            code.update((id(value), value) for value in kept.values() if isinstance(value, type))
        for cls in list(code.values()):
            found = dict(cls.__dict__)
            kept = {key: value for key, value in found.items() if _is_code(value)}
            self.namespaces.append(("class", cls, kept, "code", frozenset(found)))
            code.update(
                (id(value), value.__func__ if isinstance(value, (staticmethod, classmethod)) else value)
                for value in kept.values()
            )
        for _, _, kept, _, _ in self.namespaces:
            code.update((id(value), value) for value in kept.values() if isinstance(value, types.FunctionType))
        functions = tuple(value for value in code.values() if isinstance(value, types.FunctionType))
        self.attributes = [
            (key, owners, tuple(map(_getter(key), owners)))
            for key, owners in (
                ("__class__", (*sys.modules.values(), *objects)),
                ("__code__", functions),
                ("__defaults__", functions),
                ("__kwdefaults__", functions),
            )
        ]
        self.tables = [(table, _copy(table)) for table in _tables(shell)]
        self.signals = {number: getsignal(number) for number in valid_signals()}

    def restore(self):
        """Put everything back as captured; returns the Changes that undo it."""
        changes = Changes()
        for key, value in self.builtins.items():  # first, and with no builtin: they may be the student's
            found = BUILTINS.get(key, MISSING)
            if found is not value:
                changes.builtins.append((key, found))
                BUILTINS[key] = value
        for which in TIMERS:
            old = setitimer(which, 0)
            if old != (0.0, 0.0):
                changes.timers.append((which, old))
        collect()  # finalizers of the student's garbage run now, before the hooks are put back
        for number, handler in self.signals.items():
            current = getsignal(number)
            if handler is not None and current is not handler:
                try:
                    set_handler(number, handler)
                except (OSError, ValueError, TypeError):
                    continue
                changes.signals.append((number, current))
        for key, owners, values in self.attributes:
            current = tuple(map(_getter(key), owners))
            if not all(map(is_, current, values)):
                for owner, found, value in zip(owners, current, values):
                    if found is not value:
                        changes.entries.append(("attribute", owner, key, found))
                        _put("attribute", owner, key, value)
        for kind, namespace, kept, rule, known in self.namespaces:
            _restore(kind, namespace, kept, rule, known, changes)
        for table, saved in self.tables:
            changes.tables.append((table, _copy(table)))
            _fill(table, saved)
        return changes


def _module_namespaces(shell):
    """sys.modules, and the functions, classes and modules each loaded module names (but the student's
    namespace, __main__: what the student defines is the student's answer; and STUDENTS_OWN)."""
    namespaces = [("dict", sys.modules, dict(sys.modules), None, ())]
    for name, module in list(sys.modules.items()):
        found = getattr(module, "__dict__", None)
        if isinstance(found, dict) and found is not shell.user_ns and name not in STUDENTS_OWN:
            kept = {key: value for key, value in found.items() if _is_code(value)}
            namespaces.append(("dict", found, kept, "builtins", found.keys() & BUILTIN_NAMES))
    hooks = {key: getattr(threading, key) for key in ("_trace_hook", "_profile_hook")}  # threading.settrace
    return namespaces + [("dict", vars(threading), hooks, None, ())]


def _shell_namespaces(shell, objects):
    """The own attributes and trait values of the shell and of the objects it runs cells with; the builtins
    that the student's namespace gives the cells that run in it."""
    namespaces = [("dict", shell.user_ns, {"__builtins__": shell.user_ns["__builtins__"]}, None, ())]
    for obj in objects:
        own = vars(obj)
        kept = {key: value for key, value in own.items() if obj is not shell or key not in SHELL_STATE}
        namespaces.append(("object", obj, kept, "shadowing", frozenset(own)))
        traits = own.get("_trait_values")
        if isinstance(traits, dict):
            kept = {key: value for key, value in traits.items() if obj is not shell or key not in COUNTERS}
            namespaces.append(("dict", traits, kept, "traits", frozenset(traits) | COUNTERS))
    return namespaces


def _getter(key):
    """How an attribute is read: an object's class as the interpreter sees it, past any __class__ property."""
    return type if key == "__class__" else attrgetter(key)


def _restore(kind, namespace, kept, rule, known, changes):
    live = _live(kind, namespace)
    if not all(map(is_, map(live.get, kept, repeat(MISSING)), kept.values())):  # at C speed: usually all alike
        for key, value in kept.items():
            found = live.get(key, MISSING)
            if found is not value:
                changes.entries.append((kind, namespace, key, found))
                _put(kind, namespace, key, value)
    if rule is None:
        return
    added = (live.keys() & BUILTIN_NAMES if rule == "builtins" else live.keys()) - known
    for key in added:
        if _removed(namespace, key, live[key], rule):
            changes.entries.append((kind, namespace, key, live[key]))
            _put(kind, namespace, key, MISSING)


def _removed(namespace, key, value, rule):
    """Whether a name added since the capture goes while a test cell runs: one that hides a builtin (a module
    global such as ``exec``), a base class's attribute, or its class's; a trait value (its default comes back).
    A new name that hides nothing stays: the student's own helpers are not hooks."""
    if rule == "builtins":
        return value is not BUILTINS.get(key, value)
    if rule == "code":
        return any(key in base.__dict__ for base in namespace.__mro__[1:])
    if rule == "shadowing":
        return hasattr(type(namespace), key)
    return True
