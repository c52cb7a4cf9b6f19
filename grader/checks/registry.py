"""Where each exercise's checks live, found rather than listed: every module of ``grader.exercises`` that names
its notebook (``NOTEBOOK``) and gives its exercises' parts (``PARTS``).

The kit's modules hold the hidden parts too; the student's copies, which the release compiles
(grader/release/compile.py), hold the visible parts only, and what each exercise is worth (``POINTS``), which the
build reads from the test cells' metadata (grader/checks/notebook.py reads it in the kit).
"""
import ast
import functools
import importlib
import importlib.util
import pathlib
import pkgutil

PACKAGE = "grader.exercises"
SOLUTIONS = pathlib.Path(__file__).resolve().parents[2] / "solutions"  # the kit's own, beside the package


@functools.cache
def modules():
    """{module name: module} of the exercise modules, in their notebooks' order."""
    package = importlib.import_module(PACKAGE)
    found = [importlib.import_module(f"{PACKAGE}.{info.name}") for info in pkgutil.iter_modules(package.__path__)]
    found = sorted((m for m in found if hasattr(m, "NOTEBOOK") and hasattr(m, "PARTS")), key=lambda m: m.NOTEBOOK)
    return {module.__name__.rpartition(".")[2]: module for module in found}


@functools.cache
def _parts():
    return {name: (module, parts) for module in modules().values() for name, parts in module.PARTS.items()}


@functools.cache
def _declared():
    """{exercise: its notebook}, in the notebooks' order, read from the exercise modules' source (``NOTEBOOK`` and
    ``PARTS``' keys, which the release's compiler reads too) without running them: they import PyTorch, and a
    verb that only needs the names (feedback, export, the report) should not. Where a module is not plain source,
    or the reading cannot be sure of the names, the modules are imported instead."""
    declared = []
    for info in pkgutil.iter_modules(importlib.import_module(PACKAGE).__path__):
        spec = importlib.util.find_spec(f"{PACKAGE}.{info.name}")
        source = spec.loader.get_source(spec.name) if hasattr(spec.loader, "get_source") else None
        found = _literals(source) if source is not None else None
        if found is None:
            return {name: module.NOTEBOOK for name, (module, _) in _parts().items()}
        if found:
            notebook, names = found
            declared += [(notebook, name) for name in names]
    return {name: notebook for notebook, name in sorted(declared, key=lambda entry: entry[0])}


def _literals(source):
    """(NOTEBOOK, PARTS' keys) of a module's source; () for a module that names neither; None unless each is bound
    once, to a literal (string keys for PARTS), and PARTS is named nowhere else (no ``PARTS.update``, no import)."""
    tree = ast.parse(source)
    names = [node.id for node in ast.walk(tree) if isinstance(node, ast.Name)]
    imported = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    if imported & {"*", "NOTEBOOK", "PARTS"}:
        return None
    if "NOTEBOOK" not in names and "PARTS" not in names:
        return ()
    bound = [(node.targets[0].id, node.value) for node in tree.body if isinstance(node, ast.Assign)
             and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)]
    notebooks = [value for name, value in bound if name == "NOTEBOOK"]
    parts = [value for name, value in bound if name == "PARTS"]
    if len(notebooks) != 1 or len(parts) != 1 or names.count("PARTS") != 1:
        return None
    notebook, parts = notebooks[0], parts[0]
    if not (isinstance(notebook, ast.Constant) and isinstance(notebook.value, str) and isinstance(parts, ast.Dict)
            and all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in parts.keys)):
        return None
    return notebook.value, [key.value for key in parts.keys]


def notebooks():
    """The notebooks that have kit exercises, in order."""
    return sorted(set(_declared().values()))


def visible_parts(name):
    """The checks a student may see and run, for one exercise."""
    return [part for part in _parts()[name][1] if not part.hidden]


def hidden_parts(name):
    """The hidden checks of one exercise (none in the student's copy, or for an exercise with visible ones only)."""
    found = _parts().get(name)
    return [part for part in found[1] if part.hidden] if found else []


def exercise_names():
    return list(_declared())


def module_of(name):
    """The exercise module that holds exercise ``name``'s parts."""
    return _parts()[name][0]


def notebook_of(name):
    return _declared()[name]


def exercise_of_grade_id(grade_id):
    """The exercise a test cell grades: its grade_id is the exercise name followed by ``_test``."""
    name = grade_id.removesuffix("_test")
    return name if name in _declared() else None
