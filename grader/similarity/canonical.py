"""An answer's statements in a canonical form, so that a copy rewritten to look different compares as the same code.

The syntax tree of the answer is hashed statement by statement, names abstracted, as in AST clone detection
(Baxter, Yahin, Moura, Sant'Anna and Bier 1998, "Clone detection using abstract syntax trees"), after three
rewrites that a copier's edits do not survive:

- every name the answer binds (variables, loop variables, parameters) is written ``_``;
- a list filled by a loop (``xs = []`` then ``for t in it: [if c:] xs.append(e)``, loops nested or not) is the
  list comprehension ``xs = [e for t in it if c]``;
- the statements of each block are put in one order: the smallest in sort order of those whose predecessors
  are placed, where a statement precedes another if one assigns, or may change, what the other uses or assigns;
  statements that can be swapped without changing the program land in the same order whatever order they
  were written in. ``return``, ``raise``, ``break`` and the like stay where they are.

Docstrings and ``pass`` are left out. Each statement (a loop or a function with everything in it, and each
statement inside) is one form; it keeps the spans of the text it came from, to mark it on the page.
"""

import ast
import dataclasses
import heapq
import re

from .tokens import bound_names

PLACEHOLDER = "_"
BLOCKS = ("body", "orelse", "finalbody")
IGNORED = ("ctx", "type_comment")
BARRIERS = (ast.Return, ast.Raise, ast.Break, ast.Continue, ast.Global, ast.Nonlocal, ast.Delete)
EVERYTHING = "*"  # what a barrier reads and writes
NEWLINE = re.compile(r"\r\n|\r|\n")


@dataclasses.dataclass(frozen=True)
class Statement:
    form: str  # the canonical statement, written out
    spans: tuple  # (start, end) offsets into the answer's text that it came from


def statements(code):
    """The :class:`Statement` of every statement of ``code``, innermost first; None if it does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return None
    starts = _line_starts(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            start = _offset(code, starts, node.lineno, node.col_offset)
            node.spans = ((start, _offset(code, starts, node.end_lineno, node.end_col_offset)),)
    bound = bound_names(tree)
    Comprehended().visit(tree)
    found = []
    _block(tree.body, bound, found)
    return found


def _line_starts(code):
    """The offset of each line's start, lines ending as Python's tokenizer ends them."""
    return [0] + [m.end() for m in NEWLINE.finditer(code)]


def _offset(code, starts, line, column):
    """The text offset of ``column`` (in UTF-8 bytes, as ast counts them) on ``line``."""
    text = code[starts[line - 1] : starts[line] if line < len(starts) else len(code)]
    return starts[line - 1] + len(text.encode()[:column].decode(errors="ignore"))


class Comprehended(ast.NodeTransformer):
    """``xs = []`` and a loop that only appends to ``xs``, later in the same block with nothing using ``xs``
    between them, become ``xs = [...]`` where the loop was."""

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in BLOCKS:
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, _comprehended(block))
        return node


def _comprehended(block):
    out = []
    for statement in block:
        if isinstance(statement, ast.Pass) or (
            isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        ):
            continue  # a docstring, or nothing
        found = _appends(statement)
        start = _empty_list(out, found[0]) if found else None
        if start is None:
            out.append(statement)
            continue
        name, element, generators = found
        made = ast.Assign([ast.Name(name, ast.Store())], ast.ListComp(element, generators))
        made.spans = out[start].spans + statement.spans
        del out[start]
        out.append(ast.fix_missing_locations(ast.copy_location(made, statement)))
    return out


def _appends(loop):
    """(list name, element, comprehension generators) of ``for ...: [if ...:] xs.append(e)``, loops nested or not,
    else None."""
    if not (isinstance(loop, ast.For) and len(loop.body) == 1 and not loop.orelse):
        return None
    tests, inner = [], loop.body[0]
    while isinstance(inner, ast.If) and len(inner.body) == 1 and not inner.orelse:
        tests.append(inner.test)
        inner = inner.body[0]
    found = _appends(inner) if isinstance(inner, ast.For) else _appended(inner)
    if not found or found[0] in set().union(*(_names(n) for n in (loop.target, loop.iter, *tests))):
        return None
    name, element, generators = found
    return name, element, [ast.comprehension(loop.target, loop.iter, tests, 0), *generators]


def _appended(statement):
    """(list name, element, []) of ``xs.append(element)``, else None."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and isinstance(call.func.value, ast.Name)
        and len(call.args) == 1
        and not call.keywords
    ):
        return call.func.value.id, call.args[0], []
    return None


def _empty_list(out, name):
    """The index in ``out`` of ``name = []``, if nothing after it uses ``name``."""
    for n in range(len(out) - 1, -1, -1):
        statement = out[n]
        if (
            isinstance(statement, ast.Assign)
            and [getattr(t, "id", None) for t in statement.targets] == [name]
            and isinstance(statement.value, ast.List)
            and not statement.value.elts
        ):
            return n
        if name in _names(statement):
            return None
    return None


def _names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _path(node):
    """``a.b.c`` of a chain of attributes on a name, ``a`` of a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _stored(target):
    """What an assignment to ``target`` changes: ``out`` of ``out[b] = ...``, ``self.key`` of ``self.key = ...``."""
    while isinstance(target, ast.Subscript | ast.Starred):
        target = target.value
    if isinstance(target, ast.Tuple | ast.List):
        return {p for element in target.elts for p in _stored(element)}
    path = _path(target)
    return {path} if path else set()


def _uses(statement):
    """(what ``statement`` reads, what it may change), as dotted paths."""
    if isinstance(statement, BARRIERS) or any(
        isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in ast.walk(statement)
    ):
        return {EVERYTHING}, {EVERYTHING}
    writes = {path for node in ast.walk(statement) for target in _assigned(node) for path in _stored(target)}
    reads = _reads(statement)
    if isinstance(statement, ast.AugAssign):
        reads |= writes
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value  # its result unused: it is called for what it changes (xs.append(x), w.fill_(0))
        owner = _path(call.func.value) if isinstance(call.func, ast.Attribute) else None
        writes |= {owner} if owner else set()
        writes |= {p for argument in call.args for p in [_path(argument)] if p}
    return reads, writes


def _reads(node, in_target=False):
    """The paths ``node`` reads: ``self.key`` of ``self.key(x)``; in ``out[t] = x``, ``t`` and ``x``, not ``out``."""
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) and not in_target else set()
    if isinstance(node, ast.Attribute):
        path = _path(node) if isinstance(node.ctx, ast.Load) and not in_target else None
        return {path} if path else _reads(node.value, in_target or not isinstance(node.ctx, ast.Load))
    if isinstance(node, ast.Subscript) and (in_target or not isinstance(node.ctx, ast.Load)):
        return _reads(node.value, True) | _reads(node.slice)
    return set().union(*(_reads(child, in_target) for child in ast.iter_child_nodes(node)))


def _assigned(node):
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.comprehension):
        return [node.target]
    if isinstance(node, ast.With):
        return [item.optional_vars for item in node.items if item.optional_vars]
    if isinstance(node, ast.NamedExpr):
        return [node.target]
    return []


def _touches(first, second):
    """Whether paths ``first`` and ``second`` overlap: the same, or one inside the other (``self`` and ``self.key``)."""
    return (
        first == second
        or EVERYTHING in (first, second)
        or first.startswith(second + ".")
        or second.startswith(first + ".")
    )


def _depends(earlier, later):
    return any(
        _touches(a, b)
        for mine, theirs in (
            (earlier.writes, later.reads),
            (earlier.reads, later.writes),
            (earlier.writes, later.writes),
        )
        for a in mine
        for b in theirs
    )


def _block(block, bound, found):
    """Put ``block``'s statements, and the blocks inside them, in canonical order (in place); add the
    :class:`Statement` of each to ``found``; return their forms."""
    forms = [_statement(statement, bound, found) for statement in block]
    after = {n: [m for m in range(n + 1, len(block)) if _depends(block[n], block[m])] for n in range(len(block))}
    waiting = dict.fromkeys(range(len(block)), 0)
    for n in after:
        for m in after[n]:
            waiting[m] += 1
    ready = [(forms[n], n) for n in waiting if not waiting[n]]
    heapq.heapify(ready)
    order = []
    while ready:
        _, n = heapq.heappop(ready)
        order.append(n)
        for m in after[n]:
            waiting[m] -= 1
            if not waiting[m]:
                heapq.heappush(ready, (forms[m], m))
    block[:] = [block[n] for n in order]
    return [forms[n] for n in order]


def _statement(statement, bound, found):
    statement.reads, statement.writes = _uses(statement)
    for field in BLOCKS:
        inner = getattr(statement, field, None)
        if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
            _block(inner, bound, found)
    for handler in getattr(statement, "handlers", []):
        _block(handler.body, bound, found)
    statement.form = _form(statement, bound)
    found.append(Statement(statement.form, statement.spans))
    return statement.form


def _form(node, bound):
    """``node`` written out as ast.dump would, without field names and contexts, every name in ``bound`` as ``_``
    (a statement whose form is made: that form)."""
    if isinstance(node, list):
        return "[" + ",".join(_form(n, bound) for n in node) + "]"
    if not isinstance(node, ast.AST):
        return repr(node)
    if isinstance(node, ast.stmt) and "form" in node.__dict__:
        return node.form
    if isinstance(node, ast.Name):
        return f"Name({PLACEHOLDER if node.id in bound else node.id!r})"
    if isinstance(node, ast.arg):
        return f"arg({PLACEHOLDER})"
    fields = ",".join(_form(getattr(node, f, None), bound) for f in node._fields if f not in IGNORED)
    return f"{type(node).__name__}({fields})"
