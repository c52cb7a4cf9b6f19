"""What would give students answers, and where it is in what they get: a definition of an exercise (as code or
as source in a string), a line of the hidden checks or of the references, a line of a solution.

The secrets are read from the instructor's files (the solution notebooks, ``grader/hidden/``,
``grader/reference/``, and each exercise module's hidden half: from its first ``# ---- hidden`` line to
``PARTS``, and the parts marked ``hidden=True``), less the lines that students are shown anyway, read from the
instructor's files as written: the released notebooks, the exercise modules' visible halves and the shipped
checks (``grader/checks``, ``grader/selfcheck``). Nothing in the student package can excuse itself.
"""

import ast
import io
import pathlib
import re
import zipfile

import nbformat

from ..conftest import EXERCISES, ROOT, SOLUTIONS

HIDDEN = ("grader/hidden", "grader/reference")
HIDDEN_LINE = 30  # the shortest line of the hidden checks that is their own
SOLUTION_LINE = 16  # the shortest line of a solution that is one
BOILERPLATE = ("#", "import ", "from ", '"""', "'''", "super().__init__()")


def _notebooks(folder):
    return [nbformat.read(path, as_version=4) for path in sorted(pathlib.Path(folder).glob("*.ipynb"))]


def exercises():
    """The exercises' names: the grade_ids of the solution notebooks' answer cells."""
    return {
        cell.metadata.nbgrader.grade_id
        for nb in _notebooks(SOLUTIONS)
        for cell in nb.cells
        if cell.metadata.get("nbgrader", {}).get("solution")
    }


def _own(line, shortest):
    """A stripped line that says something of its own: long enough; not a comment, an import, a docstring's
    opening quotes or ``super().__init__()``."""
    return len(line) >= shortest and not line.startswith(BOILERPLATE)


def _released():
    """The stripped lines of the released notebooks, which students see anyway."""
    return {line.strip() for nb in _notebooks(EXERCISES) for cell in nb.cells for line in cell.source.splitlines()}


def _hidden_half(text):
    """The numbers of an exercise module's hidden lines: from its first ``# ---- hidden`` line to ``PARTS``, and
    the lines of the parts marked ``hidden=True`` in ``PARTS``."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines, 1) if line.startswith("# ---- hidden"))
    parts = next(n for n, line in enumerate(lines, 1) if line.startswith("PARTS = {"))
    marked = {
        n
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.Call, ast.Starred))
        and "hidden=True" in ast.unparse(node)
        and "Part(" in ast.unparse(node)[:30]
        for n in range(node.lineno, node.end_lineno + 1)
    }
    return set(range(start, parts)) | marked


def _visible(modules):
    """The stripped lines of the exercise modules' visible halves and of the shipped checks, as written."""
    shipped = [path for folder in ("checks", "selfcheck") for path in (ROOT / "grader" / folder).glob("*.py")]
    found = {line.strip() for path in shipped for line in path.read_text().splitlines()}
    for path in modules:
        text = path.read_text()
        hidden = _hidden_half(text)
        found |= {line.strip() for n, line in enumerate(text.splitlines(), 1) if n not in hidden}
    return found


def hidden_lines():
    """{line: where}: the lines of ``grader/hidden/``, ``grader/reference/`` and the exercise modules' hidden halves
    of ``HIDDEN_LINE`` characters or more that the released notebooks do not hold, boilerplate (``_own``) and
    import statements left out."""
    modules = sorted((ROOT / "grader" / "exercises").glob("[!_]*.py"))
    released, found = _released() | _visible(modules), {}
    for path in sorted(path for folder in HIDDEN for path in (ROOT / folder).rglob("*.py")) + modules:
        text = path.read_text()
        imports = {
            n
            for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.Import, ast.ImportFrom))
            for n in range(node.lineno, node.end_lineno + 1)
        }
        hidden = _hidden_half(text) if path in modules else None
        for number, line in enumerate(text.splitlines(), 1):
            if hidden is not None and number not in hidden:
                continue
            if number not in imports and _own(line.strip(), HIDDEN_LINE) and line.strip() not in released:
                found.setdefault(line.strip(), f"{path.relative_to(ROOT)}:{number}")
    return found


def solution_lines():
    """{line: where}: the lines between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` in the solution notebooks
    that the released notebooks (the stubs) do not hold."""
    released, found = _released(), {}
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            inside = False
            for line in cell.source.splitlines():
                inside = (inside or "### BEGIN SOLUTION" in line) and "### END SOLUTION" not in line
                text = line.strip()
                if inside and "### BEGIN SOLUTION" not in text and _own(text, SOLUTION_LINE) and text not in released:
                    found.setdefault(text, path.name)
    return found


def files_of(archive):
    """{name: text} of the files in a zip (a wheel, the student zip), with those of a wheel or zip inside it."""
    files = {}
    with zipfile.ZipFile(archive) as opened:
        for name in opened.namelist():
            data = opened.read(name)
            if name.endswith((".whl", ".zip")):
                files.update({f"{name}/{inner}": text for inner, text in files_of(io.BytesIO(data)).items()})
            elif not name.endswith("/"):
                files[name] = data.decode(errors="replace")
    return files


def sources(name, text):
    """(Python sources, other text) of a file: a module is one source, a notebook's code cells are each one."""
    if name.endswith(".py"):
        return [text], []
    if name.endswith(".ipynb"):
        cells = nbformat.reads(text, as_version=4).cells
        return (
            [cell.source for cell in cells if cell.cell_type == "code"],
            [cell.source for cell in cells if cell.cell_type != "code"],
        )
    return [], [text]


def _tree(source):
    """The syntax tree of a module or a code cell, its IPython magics and shell commands left out."""
    return ast.parse(
        "\n".join("#" + line if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
    )


def _stub(node):
    """A released stub: every body in it (a function's, or each method's) is ``raise NotImplementedError()``."""
    body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if isinstance(node, ast.ClassDef):
        return all(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and _stub(n) for n in body)
    return len(body) == 1 and ast.unparse(body[0]) in ("raise NotImplementedError()", "raise NotImplementedError")


def leaks(files):
    """What in ``files`` ({name: text}) would give students answers, each as ``(name, kind, what)``."""
    names = exercises()
    written = re.compile(rf"\b(?:def|class)\s+(?:{'|'.join(map(re.escape, sorted(names)))})\b")
    secrets = [("hidden line", hidden_lines()), ("solution line", solution_lines())]
    found = []
    for name, text in files.items():
        code, prose = sources(name, text)
        lines = {line.strip() for part in code + prose for line in part.splitlines()}
        for source in code:
            for node in ast.walk(_tree(source)):
                if (
                    isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                    and node.name in names
                    and not _stub(node)
                ):
                    found.append((name, "definition", node.name))
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    prose.append(node.value)
                    lines |= {line.strip() for line in node.value.splitlines()}
        found += [(name, "source in a string", match) for part in prose for match in written.findall(part)]
        found += [
            (name, kind, f"{line!r} ({where})")
            for kind, secret in secrets
            for line, where in secret.items()
            if line in lines
        ]
    return found
