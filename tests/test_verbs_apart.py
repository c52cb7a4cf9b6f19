"""No verb imports another: what two verbs share lives in a neutral module (grader/course.py, grader/gradebook.py...).

A verb is a package of ``python -m grader``'s commands. The drivers of verbs, the demo (every verb, end to end)
and Gradescope's run_autograder (autograde, on one submission), call them through :mod:`grader.api`, as
instructors do; no other verb imports :mod:`grader.api`.
"""
import ast
import pathlib

from grader.cli import VERBS

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "grader"
DRIVERS = {"grader.demo.run", "grader.gradescope.run"}


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
            anchor = package[:len(package) - node.level + 1] if node.level else []
            base = ".".join(anchor + ([node.module] if node.module else []))
            found |= {f"{base}.{alias.name}" for alias in node.names} if node.module is None else {base}
    return found


def crossings():
    """(module, what it imports) for every import of another verb, or of grader.api outside the drivers."""
    found = []
    for verb in VERBS:
        for path in sorted((PACKAGE / verb).rglob("*.py")):
            name = module_name(path)
            for target in sorted(imported(path)):
                parts = target.split(".")
                other_verb = parts[0] == "grader" and len(parts) > 1 and parts[1] in VERBS and parts[1] != verb
                api = target == "grader.api" and name not in DRIVERS
                if other_verb or api:
                    found.append((name, target))
    return found


def test_the_import_reader_resolves_relative_imports():
    assert imported(PACKAGE / "export" / "lms" / "__init__.py") >= {"grader.export.lms.sheet", "grader.export.lms.totals"}
    assert imported(PACKAGE / "export" / "lms" / "totals.py") >= {"dataclasses", "grader.gradebook"}


def test_no_verb_imports_another_verb():
    assert [f"{module} imports {target}" for module, target in crossings()] == []
