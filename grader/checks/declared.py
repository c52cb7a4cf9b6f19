"""What the exercise modules declare, read from their source without running them: each one's notebook
(``NOTEBOOK``), its exercises (``PARTS``' keys) and the words of its misconceptions (``MISCONCEPTIONS``), as the
release's compiler reads them (grader/release/compile.py).

Running an exercise module imports PyTorch (seconds of CPU); the feedback pages, the export and the report need the
names and the words only. Reading every module takes about 0.1 s, so a process that has imported the modules asks
them instead (grader/checks/registry.py, grader/checks/misconceptions.py). Where a module is not plain source, or
the reading cannot be sure of what running it would give, :func:`declarations` says so, and the modules are imported.
"""

import ast
import collections
import functools
import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass

NAMES = ("NOTEBOOK", "PARTS", "MISCONCEPTIONS")


@dataclass(frozen=True)
class Declared:
    notebook: str
    exercises: tuple  # PARTS' keys, in order
    misconceptions: tuple  # the arguments of each ``Misconception(...)``, in order


@functools.cache
def declarations(package):
    """[Declared] of ``package``'s exercise modules (those that bind NOTEBOOK and PARTS), in their notebooks'
    order; None where the reading cannot be sure of one of them."""
    found = []
    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        spec = importlib.util.find_spec(f"{package}.{info.name}")
        source = spec.loader.get_source(spec.name) if hasattr(spec.loader, "get_source") else None
        declared = _read(source) if source is not None else None
        if declared is None:
            return None
        if declared is not False:
            found.append(declared)
    return sorted(found, key=lambda declared: declared.notebook)


def _read(source):
    """The module's Declared; False for a module that names neither NOTEBOOK nor PARTS; None unless each name is
    bound once, at the top level, to a literal (NOTEBOOK a string, PARTS a dict with string keys, MISCONCEPTIONS, if
    any, a tuple of ``Misconception`` calls with string arguments), none is imported, and PARTS and MISCONCEPTIONS
    are named nowhere else (no ``PARTS.update``)."""
    tree = ast.parse(source)
    named, stored, imported = collections.Counter(), collections.Counter(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            named[node.id] += 1
            stored[node.id] += isinstance(node.ctx, ast.Store)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.update(alias.asname or alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            named[node.name] += 1  # a def or class of one of the names binds it too
            stored[node.name] += 1
    if imported & {"*", *NAMES}:
        return None
    if not named["NOTEBOOK"] and not named["PARTS"]:
        return False
    values = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in NAMES
    }
    if (
        any(stored[name] != (name in values) for name in NAMES)
        or named["PARTS"] != 1
        or named["MISCONCEPTIONS"] > 1
        or "NOTEBOOK" not in values
        or "PARTS" not in values
    ):
        return None
    notebook, exercises = _string(values["NOTEBOOK"]), _string_keys(values["PARTS"])
    misconceptions = _calls(values["MISCONCEPTIONS"], "Misconception") if "MISCONCEPTIONS" in values else ()
    if notebook is None or exercises is None or misconceptions is None:
        return None
    return Declared(notebook, exercises, misconceptions)


def _string(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _string_keys(node):
    keys = tuple(map(_string, node.keys)) if isinstance(node, ast.Dict) else (None,)
    return None if None in keys else keys


def _calls(node, function):
    """The string arguments of each ``function(...)`` call of a tuple or list literal; None for anything else."""
    if not isinstance(node, (ast.Tuple, ast.List)):
        return None
    found = []
    for call in node.elts:
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == function
            and not call.keywords
        ):
            return None
        arguments = tuple(map(_string, call.args))
        if None in arguments:
            return None
        found.append(arguments)
    return tuple(found)
