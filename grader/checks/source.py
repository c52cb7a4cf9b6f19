"""Notebook cell source as plain Python."""


def python_lines(source):
    """The cell without IPython magics and shell escapes, which plain Python cannot run."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())
