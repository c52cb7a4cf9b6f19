"""Wrong answers written as edits: the instructor's answer cell with the lines that make the mistake changed.

An answer cell leans on its notebook's imports, but a wrong answer also runs on its own
(``grader/hidden/catalogue.py``): :func:`with_imports` puts the imports it uses before its code.
"""

import ast
import functools

from ..checks import registry
from ..checks.notebook import read
from ..demo.fill import reference_answers

# The notebooks' imports, by the name each binds.
IMPORTS = {
    "plt": "import matplotlib.pyplot as plt",
    "np": "import numpy as np",
    "torch": "import torch",
    "nn": "import torch.nn as nn",
    "F": "import torch.nn.functional as F",
}


@functools.cache
def _reference_cells():
    """{exercise: its answer cell} from every solution notebook."""
    return {
        name: source
        for path in sorted(registry.SOLUTIONS.glob("*/*.ipynb"))
        for name, source in reference_answers(read(path)).items()
    }


def reference_cell(exercise):
    """The instructor's answer cell to ``exercise`` (the cell of that grade_id), without its solution markers; its
    imports are in another cell of the notebook."""
    return _reference_cells()[exercise] + "\n"


def edit(code, *changes):
    """``code`` with each ``(old, new)`` change made in turn. An ``old`` that is not in the code exactly once
    raises: no change is ever silently lost, or made in the wrong place."""
    for old, new in changes:
        found = code.count(old)
        if found != 1:
            raise ValueError(f"{old!r} is in the code {found} times, not once")
        code = code.replace(old, new)
    return code


def with_imports(code):
    """``code`` after the imports (``IMPORTS``) of the names it uses and does not import itself."""
    tree = ast.parse(code)
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used -= {
        alias.asname or alias.name.partition(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    lines = [line for name, line in IMPORTS.items() if name in used]
    return "\n".join(lines) + "\n\n\n" + code if lines else code
