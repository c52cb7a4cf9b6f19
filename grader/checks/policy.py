"""Rules about how an answer is written, decided from the notebook's source, never by running it.

:func:`source_outcome` reads the code cells that ran before a test cell, finds the exercise's
definition, and follows every name it reaches (helpers, closures, aliases, default arguments,
decorators) to the imports they come from. It returns plain data, like a probe's outcome, for
the checks' judges: what the answer uses, whatever the spelling.
"""

import ast
import builtins

from .source import python_lines

# Names that look things up at run time, where reading the source cannot follow them.
DYNAMIC = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "globals",
        "vars",
        "locals",
        "__builtins__",
        "__dict__",
        "__globals__",
        "__closure__",
        "modules",
        "__code__",
    }
)
ATTRIBUTE_CALLS = frozenset({"getattr", "setattr", "hasattr", "delattr", "__getattribute__"})
IMPORTERS = frozenset({"__import__", "importlib.import_module", "importlib.__import__", "builtins.__import__"})


def parse_cell(source):
    """A cell's module, or None if the cell is not valid Python even after IPython's transformations.

    Line magics and shell escapes bind nothing a rule needs, so they are blanked out (fast); a cell
    that still does not parse (a cell magic, ``files = !ls``) goes through IPython's own transformer.
    """
    if not source.lstrip().startswith("%%"):
        try:
            return ast.parse(python_lines(source))
        except (SyntaxError, ValueError):
            pass
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        return ast.parse(TransformerManager().transform_cell(source))
    except Exception:  # no IPython, or a cell it cannot read: the cell did not run as Python either
        return None


class _Binding:
    """What one statement binds a name to: a module path, or a node to read (with when it was bound)."""

    def __init__(self, index, module=None, node=None):
        self.index, self.module, self.node = index, module, node


class _Namespace:
    """The notebook's global names, statement by statement: each name's bindings and when they happened."""

    def __init__(self, modules):
        self.bindings, self.stars, self.index = {}, [], 0
        for module in modules:
            for statement in module.body:
                self.index += 1
                self._bind(statement, conditional=False)

    def _add(self, name, binding, conditional):
        self.bindings.setdefault(name, []).append((binding, conditional))

    def _bind(self, statement, conditional):
        index = self.index
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    self._add(alias.asname, _Binding(index, module=alias.name), conditional)
                else:
                    root = alias.name.split(".")[0]
                    self._add(root, _Binding(index, module=root), conditional)
        elif isinstance(statement, ast.ImportFrom):
            base = "." * statement.level + (statement.module or "")
            for alias in statement.names:
                if alias.name == "*":
                    self.stars.append(_Binding(index, module=base))
                else:
                    self._add(alias.asname or alias.name, _Binding(index, module=f"{base}.{alias.name}"), conditional)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._add(statement.name, _Binding(index, node=statement), conditional)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            for target in targets:
                for name, whole in _target_names(target):
                    # x = ... replaces x; x.attr = ..., x[i] = ..., x += ... change what x holds
                    self._add(
                        name,
                        _Binding(index, node=value if value is not None else statement),
                        conditional or not whole or isinstance(statement, ast.AugAssign),
                    )
        elif isinstance(statement, ast.Expr):
            for call in ast.walk(statement):  # setattr(np, "exp", ...) and np.__dict__.update(...) change np
                func = _dotted(call.func) if isinstance(call, ast.Call) else None
                if func in ("setattr", "builtins.setattr") and call.args and isinstance(call.args[0], ast.Name):
                    self._add(call.args[0].id, _Binding(index, node=call), True)
                elif func and ".__dict__." in func:
                    self._add(func.split(".")[0], _Binding(index, node=call), True)
            for node in ast.walk(statement):  # (x := ...) inside an expression
                if isinstance(node, ast.NamedExpr):
                    self._add(node.target.id, _Binding(index, node=node.value), True)
        elif isinstance(
            statement,
            (
                ast.Delete,
                ast.Global,
                ast.Nonlocal,
                ast.Pass,
                ast.Return,
                ast.Raise,
                ast.Assert,
                ast.Break,
                ast.Continue,
            ),
        ):
            return
        else:  # if, for, while, try, with, match: whatever they bind may or may not have happened
            for name, node in _compound_targets(statement):
                self._add(name, _Binding(index, node=node), True)
            for child in ast.iter_child_nodes(statement):
                if isinstance(child, ast.stmt):
                    self._bind(child, conditional=True)
                elif isinstance(child, (ast.excepthandler, ast.match_case)):
                    for inner in child.body:
                        self._bind(inner, conditional=True)

    def lookup(self, name, before=None):
        """The bindings of ``name`` that can be in effect after everything ran, or before statement ``before``."""
        found = []
        for binding, conditional in self.bindings.get(name, []):
            if before is not None and binding.index >= before:
                break
            found = [*found, binding] if conditional else [binding]
        return found


def _target_names(target):
    """(name, whether the name itself is rebound) for each name an assignment target touches."""
    if isinstance(target, ast.Name):
        return [(target.id, True)]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [pair for element in target.elts for pair in _target_names(element)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    base = target
    while isinstance(base, (ast.Attribute, ast.Subscript)):
        base = base.value
    return [(base.id, False)] if isinstance(base, ast.Name) else []


def _compound_targets(statement):
    """Names bound by a compound statement's own header: for targets, with ... as, except ... as."""
    found = []
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        found += [(name, statement.iter) for name, _ in _target_names(statement.target)]
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        for item in statement.items:
            if item.optional_vars is not None:
                found += [(name, item.context_expr) for name, _ in _target_names(item.optional_vars)]
    return found


def _dotted(node):
    """``a.b.c`` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _docstrings(node):
    """The docstring constants of every function, class and module inside ``node``."""
    found = set()
    for inner in ast.walk(node):
        if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)) and inner.body:
            first = inner.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _local_names(node):
    """Names bound inside a function, class or lambda (its own scope and the scopes nested in it)."""
    found = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.arg):
            found.add(inner.arg)
        elif isinstance(inner, ast.Name) and isinstance(inner.ctx, (ast.Store, ast.Del)):
            found.add(inner.id)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and inner is not node:
            found.add(inner.name)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in inner.names if a.name != "*")
        elif isinstance(inner, ast.ExceptHandler) and inner.name:
            found.add(inner.name)
    declared_global = {n for inner in ast.walk(node) if isinstance(inner, ast.Global) for n in inner.names}
    return found - declared_global


def _local_imports(node):
    """Imports inside a function: local name -> module path; and the modules of star imports there."""
    found, stars = {}, []
    for inner in ast.walk(node):
        if isinstance(inner, ast.Import):
            for alias in inner.names:
                root = alias.name.split(".")[0]
                found[alias.asname or root] = alias.name if alias.asname else root
        elif isinstance(inner, ast.ImportFrom):
            base = "." * inner.level + (inner.module or "")
            for alias in inner.names:
                if alias.name == "*":
                    stars.append(base)
                else:
                    found[alias.asname or alias.name] = f"{base}.{alias.name}"
    return found, stars


class _Reader:
    """Follows names from one definition to everything it reaches, collecting what it uses."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.uses, self.attributes, self.strings, self.dynamic, self.unresolved = set(), set(), set(), set(), set()
        self.seen, self.reaches = set(), set()

    def resolve(self, name, suffix="", before=None):
        """Follow a global name (and the attributes read from it) to what it was bound to."""
        bindings = self.namespace.lookup(name, before)
        if not bindings:
            stars = [b for b in self.namespace.stars if before is None or b.index < before]
            if stars:
                for star in stars:
                    self.uses.add(f"{star.module}.{name}{suffix}")
            elif hasattr(builtins, name):
                self.uses.add(f"builtins.{name}{suffix}")
            else:
                self.unresolved.add(name)
            return
        for binding in bindings:
            if binding.module is not None:
                self.uses.add(binding.module + suffix)
            elif isinstance(binding.node, (ast.Name, ast.Attribute)) and _dotted(binding.node):
                base, _, rest = _dotted(binding.node).partition(".")
                key = (id(binding.node), suffix)
                if key not in self.seen:
                    self.seen.add(key)
                    self.resolve(base, (f".{rest}" if rest else "") + suffix, binding.index)
            else:
                if isinstance(binding.node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    self.reaches.add(binding.node.name)
                self.read(binding.node, binding.index)

    def read(self, node, index):
        """Everything a definition or an expression uses, at its statement ``index``."""
        if id(node) in self.seen:
            return
        self.seen.add(id(node))
        scoped = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
        local = _local_names(node) if scoped else set()
        imports, stars = _local_imports(node)
        docstrings, chains = _docstrings(node), _chains(node)
        if scoped:  # what runs when the definition runs: decorators, default values, base classes
            now = [
                *getattr(node, "decorator_list", []),
                *getattr(node, "bases", []),
                *[k.value for k in getattr(node, "keywords", [])],
            ]
            if not isinstance(node, ast.ClassDef):
                now += [*node.args.defaults, *[d for d in node.args.kw_defaults if d is not None]]
            later = [n for n in ast.walk(node) if n is not node]
            now_ids = {id(n) for root in now for n in ast.walk(root)}
        else:
            now_ids, later = set(), list(ast.walk(node))
        for inner in later:
            self._note(inner, docstrings)
            if not (isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Load)):
                continue
            suffix = chains.get(id(inner), inner.id)[len(inner.id) :]
            at_definition = id(inner) in now_ids or not scoped
            if inner.id in imports:
                self.uses.add(imports[inner.id] + suffix)
            elif inner.id in local and not at_definition:
                continue
            elif stars and inner.id not in self.namespace.bindings and not hasattr(builtins, inner.id):
                self.uses.update(f"{star}.{inner.id}{suffix}" for star in stars)
            else:
                self.resolve(inner.id, suffix, index if at_definition else None)

    def _note(self, inner, docstrings):
        """Attribute names, strings and run-time lookups seen anywhere in the code read."""
        if isinstance(inner, ast.Attribute):
            self.attributes.add(inner.attr)
            if inner.attr in DYNAMIC:
                self.dynamic.add(inner.attr)
        elif isinstance(inner, ast.Constant) and isinstance(inner.value, str) and id(inner) not in docstrings:
            self.strings.add(inner.value)
        elif isinstance(inner, ast.Name) and inner.id in DYNAMIC:
            self.dynamic.add(inner.id)
        if isinstance(inner, ast.Call):
            func = _dotted(inner.func) or ""
            name = func.rsplit(".", 1)[-1]
            if name in ATTRIBUTE_CALLS and len(inner.args) >= 2:
                attribute = inner.args[1]
                if isinstance(attribute, ast.Constant) and isinstance(attribute.value, str):
                    self.attributes.add(attribute.value)
                else:
                    self.dynamic.add(f"{name} with a computed name")
            if func in IMPORTERS or name in ("__import__", "import_module"):
                module = inner.args[0] if inner.args else None
                if isinstance(module, ast.Constant) and isinstance(module.value, str):
                    self.uses.add(module.value)
                else:
                    self.dynamic.add("an import of a computed module name")
        if (
            isinstance(inner, ast.Subscript)
            and isinstance(inner.slice, ast.Constant)
            and isinstance(inner.slice.value, str)
        ):
            self.attributes.add(inner.slice.value)


def _chains(root):
    """For each name that starts an attribute chain in ``root``: its longest chain, ``name.attr.attr``."""
    found = {}
    for inner in ast.walk(root):
        if isinstance(inner, ast.Attribute) and (dotted := _dotted(inner)):
            base = inner
            while isinstance(base, ast.Attribute):
                base = base.value
            if len(dotted) > len(found.get(id(base), "")):
                found[id(base)] = dotted
    return found


def _is_stub(binding):
    """A function whose body (its docstring aside) is only ``raise NotImplementedError()``."""
    node = binding.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def source_outcome(name, sources):
    """What exercise ``name`` uses, read from the code cells that ran before its test cell.

    ``sources`` is a list of cell sources, in the order they ran. The result is plain data:
    ``defined`` (whether any cell binds ``name``), ``stub`` (whether it is still the stub), ``uses`` (dotted names
    of imported things it reaches, such as ``torch.softmax`` or ``matplotlib.pyplot.show``; ``builtins.*`` for
    built-ins), ``attributes`` (attribute names it reads, including ``getattr``'s), ``strings`` (string
    constants, docstrings left out), ``dynamic`` (run-time lookups the reading cannot follow, such
    as ``eval``), ``unresolved`` (global names no cell binds), and ``reaches`` (the functions and
    classes of the notebook it reaches, itself left out: another exercise it calls, say).
    """
    modules = [m for m in (parse_cell(s) for s in sources if isinstance(s, str)) if m is not None]
    namespace = _Namespace(modules)
    reader = _Reader(namespace)
    bindings = namespace.lookup(name)
    if bindings:
        reader.resolve(name)
    return {
        "type": "source",
        "defined": bool(bindings),
        "stub": bool(bindings) and all(map(_is_stub, bindings)),
        "uses": sorted(reader.uses),
        "attributes": sorted(reader.attributes),
        "strings": sorted(text[:500] for text in reader.strings)[:200],
        "dynamic": sorted(reader.dynamic),
        "unresolved": sorted(reader.unresolved),
        "reaches": sorted(reader.reaches - {name}),
    }
