"""Where an instructor's plain test cell is judged: by the judge, outside the student's process (see
grader/sandbox/judge.py), unless the cell reaches into that process in a way no value can cross for.

Such a cell uses IPython's shell (a magic, ``get_ipython()``, ``In`` or ``Out``) or inspects code (``inspect``:
the student's functions are objects in the sandbox, their source is not the judge's to read). It runs in the
student's process, as before the judge: with IPython's hooks put back (grader/sandbox/hooks.py), and open to code
that runs inside it. The decision reads the instructor's source only (nbgrader restores it before grading), so a
submission cannot choose it.
"""

import ast

from IPython.core.inputtransformer2 import TransformerManager

from ..checks.cells import kit_exercise

INSIDE_ONLY = frozenset({"get_ipython", "In", "Out", "inspect"})
JUDGED_INSIDE = (
    "judged in the student's process: this test cell uses {name}, which needs the student's own "
    "process, so code in the notebook could change its outcome"
)


def reaches_inside(source):
    """The first name in ``source`` that makes it run in the student's process, or None."""
    try:
        tree = ast.parse(TransformerManager().transform_cell(source))
    except (SyntaxError, ValueError):
        return None  # the judge shows the error, as the student's process would
    for node in ast.walk(tree):
        names = (
            [node.id]
            if isinstance(node, ast.Name)
            else [node.attr]
            if isinstance(node, ast.Attribute)
            else [alias.name.partition(".")[0] for alias in node.names]
            if isinstance(node, (ast.Import, ast.ImportFrom))
            else []
        )
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module.partition(".")[0])
        found = next((name for name in names if name in INSIDE_ONLY), None)
        if found:
            return found
    return None


def judged_inside_note(source):
    """What the record and the feedback say of a test cell judged in the student's process, or None."""
    name = reaches_inside(source)
    if name is None:
        return None
    if name == "get_ipython" and name not in source:
        return JUDGED_INSIDE.format(name="an IPython magic or shell command")
    return JUDGED_INSIDE.format(name=f"{name}()" if name == "get_ipython" else name)


def judged_inside(notebooks):
    """[(notebook name, grade_id, the name that makes it run there)] of the plain test cells judged in the student's
    process, in ``notebooks`` ({name: notebook}): what ``release`` tells the instructor."""
    found = []
    for name, nb in notebooks.items():
        for cell in nb.cells:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
                reason = reaches_inside(cell.source)
                if reason and not kit_exercise(cell):
                    found.append((name, meta.get("grade_id"), reason))
    return found
