"""What decides how a cell is read and run and how its outcome shows, kept from before any student code ran and
put back before each instructor's test cell: no cell of a submission rewrites, replaces or silences a test cell.

Put back: every loaded module's functions, classes and submodules (IPython's, the standard library's, NumPy's,
torch's, builtins, ``sys.displayhook`` and ``sys.excepthook``), its classes' methods and descriptors, their code;
``sys.modules``, the import path and finders; the shell's class, its own attributes and trait values and those of
the objects it runs cells with (display hook, display publisher, traps, compiler and its ``__future__`` flags,
tracebacks, custom exception handler), the contents of its hook tables (input transformers, AST transformers,
events, formatters, magics, prefilters); signal handlers and timers; garbage-collector callbacks; threading's
trace and profile functions. ``restore`` returns the student's values, and ``undo`` puts them back after the
test cell: the student's own later cells run with their hooks, as in Jupyter.
"""
import builtins
import gc
import operator
import signal
import sys
import threading
import types
from itertools import repeat

MISSING = object()
SHELL_STATE = {"outputs", "cell_count"}  # the kit's record of the cell that runs now
COUNTERS = {"execution_count", "last_execution_succeeded", "last_execution_result"}
TIMERS = (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF)
BUILTIN_NAMES = frozenset(vars(builtins))


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
    for value in [*(v for k, v in vars(shell).items() if k not in SHELL_STATE), *shell._trait_values.values(),
                  *shell.display_formatter.formatters.values(), *prefilter._checkers, *prefilter._transformers,
                  *prefilter._handlers.values()]:
        if hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType, types.FunctionType,
                                                                 types.MethodType)):
            found.setdefault(id(value), value)
    return list(found.values())


def _tables(shell):
    """The lists and dicts of hooks that a cell can fill in place."""
    transformers = shell.input_transformer_manager
    formatters = shell.display_formatter.formatters
    prefilter = shell.prefilter_manager
    tables = [shell.ast_transformers, shell.input_transformers_post, transformers.cleanup_transforms,
              transformers.line_transforms, transformers.token_transformers, shell.events.callbacks,
              *shell.events.callbacks.values(), formatters, shell.magics_manager.magics,
              *shell.magics_manager.magics.values(), shell.magics_manager.registry, prefilter._transformers,
              prefilter._checkers, prefilter._handlers, prefilter._esc_handlers, gc.callbacks, sys.meta_path,
              sys.path, sys.path_hooks, sys.path_importer_cache, shell.builtin_trap.auto_builtins]
    for formatter in formatters.values():
        tables += [formatter.type_printers, formatter.deferred_printers, formatter.singleton_printers]
    return tables


def _copy(table):
    return dict(table) if isinstance(table, dict) else list(table)


class Changes:
    """What ``Snapshot.restore`` replaced: the student's values, put back by ``undo``."""

    def __init__(self):
        self.entries, self.tables, self.signals, self.timers = [], [], [], []

    def undo(self):
        for kind, namespace, key, value in reversed(self.entries):
            _put(kind, namespace, key, value)
        for table, saved in self.tables:
            _fill(table, saved)
        for number, handler in self.signals:
            signal.signal(number, handler)
        for which, saved in self.timers:
            signal.setitimer(which, *saved)


def _live(kind, namespace):
    """The mapping behind a namespace: a dict itself, a class's __dict__, an object's own __dict__."""
    return namespace if kind == "dict" else namespace.__dict__ if kind == "class" else \
        object.__getattribute__(namespace, "__dict__")


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
        self.namespaces = []  # (kind, namespace, {key: value} put back, rule for keys added later, keys known)
        modules, code = dict(sys.modules), {}
        self.namespaces.append(("dict", sys.modules, modules, None, ()))
        for module in modules.values():
            found = getattr(module, "__dict__", None)
            if isinstance(found, dict):
                kept = {key: value for key, value in found.items() if _is_code(value)}
                self.namespaces.append(("dict", found, kept, "builtins", found.keys() & BUILTIN_NAMES))
                code.update((id(value), value) for value in kept.values())
        for cls in [value for value in code.values() if isinstance(value, type)]:
            found = dict(cls.__dict__)
            kept = {key: value for key, value in found.items() if _is_code(value)}
            self.namespaces.append(("class", cls, kept, "code", frozenset(found)))
            code.update((id(value), value.__func__ if isinstance(value, (staticmethod, classmethod)) else value)
                        for value in kept.values())
        functions = tuple(f for f in code.values() if isinstance(f, types.FunctionType))
        objects = (*modules.values(), *_shell_objects(shell))
        self.attributes = [(key, owners, tuple(map(_getter(key), owners))) for key, owners in (
            ("__class__", objects), ("__code__", functions), ("__defaults__", functions),
            ("__kwdefaults__", functions))]
        for obj in _shell_objects(shell):
            own = vars(obj)
            kept = {key: value for key, value in own.items() if obj is not shell or key not in SHELL_STATE}
            self.namespaces.append(("object", obj, kept, "shadowing", frozenset(own)))
            traits = own.get("_trait_values")
            if isinstance(traits, dict):
                kept = {key: value for key, value in traits.items() if obj is not shell or key not in COUNTERS}
                self.namespaces.append(("dict", traits, kept, "traits", frozenset(traits) | COUNTERS))
        hooks = {key: getattr(threading, key) for key in ("_trace_hook", "_profile_hook")}  # threading.settrace
        self.namespaces.append(("dict", vars(threading), hooks, None, ()))
        self.tables = [(table, _copy(table)) for table in _tables(shell)]
        self.signals = {number: signal.getsignal(number) for number in signal.valid_signals()}

    def restore(self):
        """Put everything back as captured; returns the Changes that undo it."""
        changes = Changes()
        for which in TIMERS:
            old = signal.setitimer(which, 0)
            if old != (0.0, 0.0):
                changes.timers.append((which, old))
        gc.collect()  # finalizers of the student's garbage run now, before the hooks are put back
        for number, handler in self.signals.items():
            current = signal.getsignal(number)
            if handler is not None and current is not handler:
                try:
                    signal.signal(number, handler)
                except (OSError, ValueError, TypeError):
                    continue
                changes.signals.append((number, current))
        for key, owners, values in self.attributes:
            current = tuple(map(_getter(key), owners))
            if not all(map(operator.is_, current, values)):
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


def _getter(key):
    """How an attribute is read: an object's class as the interpreter sees it, past any __class__ property."""
    return type if key == "__class__" else operator.attrgetter(key)


def _restore(kind, namespace, kept, rule, known, changes):
    live = _live(kind, namespace)
    if not all(map(operator.is_, map(live.get, kept, repeat(MISSING)), kept.values())):  # the usual case, fast
        for key, value in kept.items():
            found = live.get(key, MISSING)
            if found is not value:
                changes.entries.append((kind, namespace, key, found))
                _put(kind, namespace, key, value)
    if rule is None:
        return
    added = (live.keys() & BUILTIN_NAMES if rule == "builtins" else live.keys()) - known
    for key in added:
        if _removed(kind, namespace, key, live[key], rule):
            changes.entries.append((kind, namespace, key, live[key]))
            _put(kind, namespace, key, MISSING)


def _removed(kind, namespace, key, value, rule):
    """Whether a key added since the capture goes while a test cell runs."""
    if rule == "code":  # a method added to a class, hiding its base's
        return _is_code(value)
    if rule == "shadowing":  # an instance attribute hiding its class's method
        return hasattr(type(namespace), key)
    return True  # a module global hiding a builtin its code calls (exec, compile...); a trait value
