"""The student's copy of an exercise module: its visible parts and what they use, nothing else.

An exercise module (grader/exercises/) holds its exercises' visible and hidden parts, known outputs,
misconceptions' words and wrong answers. A part is hidden where it stands in ``PARTS``
(``Part(..., hidden=True)``), as otter's ``@test_case(hidden=True)`` is. The compiler takes the hidden parts'
lines out of ``PARTS``, then keeps only the top-level statements that the names the student's side reads
(``STUDENT_NAMES``) reach, name by name. What only the hidden parts use (their cases, the known values they
compare with, the references, the wrong answers, and the imports of any of these) is not written.
"""

import ast
import re
from dataclasses import dataclass

# What the student's side reads of an exercise module (grader/checks/registry.py, misconceptions.py).
STUDENT_NAMES = ("NOTEBOOK", "PARTS", "MISCONCEPTIONS")
POINTS = """

# What each exercise is worth: its test cell's points, from the notebook's metadata (written by the build).
POINTS = {points!r}
"""
HEADER = (
    "# The student's copy of the kit's exercise module {name}: its visible parts only (grader/release/compile.py).\n"
)


@dataclass(eq=False)
class Statement:
    node: ast.stmt
    before: str  # the blank and comment lines between it and the statement before
    text: str


def student_module(source, name="<exercise module>", points=None):
    """The source of ``source``'s student copy; ``points`` ({exercise: points}, of every exercise) gives its
    exercises' worth, written as ``POINTS``."""
    statements = _statements(source)
    kept, reached, gap = [], list(_reached(statements)), ""
    for statement in statements:
        if statement in reached:
            kept.append((gap if not statement.before.strip("\n") else "") + statement.before + statement.text)
            gap = ""
        elif not statement.before.strip("\n"):
            gap = max(gap, statement.before)  # the blank lines before a statement not kept stay
    kept = re.sub(r"\n{4,}", "\n\n\n", "".join(kept)).rstrip("\n") + "\n"
    if points is not None:
        kept += POINTS.format(points={e: _number(points[e]) for e in _exercises(statements)})
    return HEADER.format(name=name) + kept


def _exercises(statements):
    """The exercises' names: PARTS' keys."""
    node = next(s.node for s in statements if _binds(s.node) == {"PARTS"})
    return [key.value for key in node.value.keys]


def _number(points):
    return int(points) if float(points).is_integer() else float(points)


def _statements(source):
    """The module's top-level statements, with the hidden parts' lines taken out of PARTS."""
    lines = source.splitlines(keepends=True)
    found, start = [], 0
    for node in ast.parse(source).body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
        own = lines[first : node.end_lineno]
        if _binds(node) == {"PARTS"}:
            hidden = _hidden_lines(node, lines)
            own = [line for n, line in enumerate(own, first) if n not in hidden]
            node_end, node = node.end_lineno, ast.parse("".join(own)).body[0]
        else:
            node_end = node.end_lineno
        found.append(Statement(node, "".join(lines[start:first]), "".join(own)))
        start = node_end
    return found


def _hidden_lines(statement, lines):
    """The indices of the lines of PARTS' hidden parts. Each hidden part has lines of its own: it starts its first
    line and ends its last (a comma may follow), so that taking out its lines leaves the rest as written."""
    found = set()
    for node in ast.walk(statement):
        for element in filter(_is_hidden_part, node.elts if isinstance(node, ast.List) else []):
            first, last = element.lineno - 1, element.end_lineno - 1
            if lines[first][: element.col_offset].strip() or lines[last][element.end_col_offset :].strip() not in (
                "",
                ",",
            ):
                raise ValueError(f"line {first + 1}: a hidden part must have lines of its own")
            found.update(range(first, last + 1))
    return found


def _is_hidden_part(node):
    """``Part(..., hidden=True)``, or ``*parts(..., hidden=True)``."""
    call = node.value if isinstance(node, ast.Starred) else node
    return isinstance(call, ast.Call) and any(
        k.arg == "hidden" and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords
    )


def _reached(statements):
    """The statements, in order, that the student names reach; an import keeps only the names reached."""
    wanted, changed = set(STUDENT_NAMES), True
    while changed:
        changed = False
        for statement in statements:
            node = statement.node
            if isinstance(node, (ast.Import, ast.ImportFrom)) or not _kept(node, wanted):
                continue
            new = _uses(node) - wanted
            wanted |= new
            changed = changed or bool(new)
    for statement in statements:
        node = statement.node
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a for a in node.names if _bound_by(a, node) in wanted]
            if names and len(names) < len(node.names):
                node.names = names
                statement.text = ast.unparse(node) + "\n"
            if names:
                yield statement
        elif _kept(node, wanted):
            yield statement


def _kept(node, wanted):
    """A statement binding a wanted name, or none at all (the docstring, an expression): conservatively kept."""
    return not _binds(node) or bool(_binds(node) & wanted)


def _bound_by(alias, node):
    if isinstance(node, ast.Import) and alias.asname is None:
        return alias.name.partition(".")[0]
    return alias.asname or alias.name


def _binds(node):
    """The module-level names a statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {_bound_by(a, node) for a in node.names}
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, (ast.AnnAssign, ast.AugAssign))
        else []
    )
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _uses(node):
    """Every name the statement reads, anywhere inside it (its functions' bodies included)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
