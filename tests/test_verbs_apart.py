"""No verb imports another: what two verbs share lives in a neutral module (grader/course/,
grader/records/...).

A verb is a package of ``python -m grader``'s commands. The drivers of verbs, the demo (every verb, end to end)
and Gradescope's run_autograder (autograde, on one submission), import the verbs they drive from the verbs' own
modules; no module of the kit imports :mod:`grader.api`, which gathers them for instructors, but the command line.
And no module imports itself back: the kit has no import cycle.
"""

import ast
import pathlib

from grader.cli import VERBS

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "grader"
DRIVERS = {"grader.demo.run", "grader.demo.lti", "grader.gradescope.run", "grader.regrade.run"}


def module_name(path):
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def imported(path):
    """Every module ``path`` imports, as absolute names (``from .. import api`` is ``grader.api``)."""
    package = module_name(path).split(".") if path.name == "__init__.py" else module_name(path).split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            anchor = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join(anchor + ([node.module] if node.module else []))
            found |= {f"{base}.{alias.name}" for alias in node.names} if node.module is None else {base}
    return found


def crossings():
    """(module, what it imports) for every import of another verb outside the drivers, or of grader.api outside the
    command line."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        verb = name.split(".")[1] if name.count(".") else None
        for target in sorted(imported(path)):
            parts = target.split(".")
            other_verb = (
                verb in VERBS
                and parts[0] == "grader"
                and len(parts) > 1
                and parts[1] in VERBS
                and parts[1] != verb
                and name not in DRIVERS
            )
            if other_verb or (target == "grader.api" and name != "grader.cli"):
                found.append((name, target))
    return found


def import_graph():
    """{module of the kit: the kit's modules it imports} (``from .x import y`` is module x, or x.y if a module)."""
    modules = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        graph[name] = set()
        for target in imported(path):
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def cycle(graph):
    """One import cycle of ``graph`` as a list of modules, or None."""
    state, path = {}, []

    def visit(module):
        state[module] = "open"
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                return path[path.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[module] = "done"
        path.pop()
        return None

    return next((found for module in sorted(graph) if module not in state and (found := visit(module))), None)


def test_the_import_reader_resolves_relative_imports():
    assert imported(PACKAGE / "export" / "lms" / "__init__.py") >= {
        "grader.export.lms.sheet",
        "grader.export.lms.totals",
    }
    assert imported(PACKAGE / "export" / "lms" / "totals.py") >= {"dataclasses", "grader.course.gradebook"}


def test_no_verb_imports_another_verb():
    assert [f"{module} imports {target}" for module, target in crossings()] == []


def test_the_cycle_finder_finds_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_the_kit_has_no_import_cycle():
    assert cycle(import_graph()) is None
