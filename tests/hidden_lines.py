"""What must never reach a student: the lines of the hidden tests and of the solutions."""

import pathlib

import nbformat

from .conftest import ROOT, SOLUTIONS

SHIPPED = [ROOT / "grader" / "checks", ROOT / "grader" / "selfcheck"]


def _solution_notebook_lines():
    """{marker or None: the non-trivial lines of solutions/ inside ``### BEGIN <marker>`` blocks, or outside any}."""
    lines = {None: set(), "SOLUTION": set(), "HIDDEN TESTS": set()}
    for path in sorted(SOLUTIONS.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            inside = None
            for line in cell.source.splitlines():
                if "### BEGIN " in line:
                    inside = line.split("### BEGIN ")[1].strip()
                elif "### END " in line:
                    inside = None
                elif _non_trivial(line):
                    lines[inside].add(line.strip())
    return lines


def _public_lines():
    """What students see anyway: the notebooks outside the markers, and the shipped checks."""
    shipped = {
        line.strip() for folder in SHIPPED for path in folder.glob("*.py") for line in path.read_text().splitlines()
    }
    return shipped | _solution_notebook_lines()[None]


def _secret(lines):
    """The lines that are not part of something students see anyway."""
    public = "\n".join(_public_lines())
    return {line for line in lines if line not in public}


def solution_lines():
    return _secret(_solution_notebook_lines()["SOLUTION"])


def hidden_test_lines():
    """The notebooks' hidden tests and the lines of grader/hidden, but for those students see anyway."""
    module_lines = {
        line.strip()
        for path in (ROOT / "grader" / "hidden").glob("*.py")
        for line in path.read_text().splitlines()
        if _non_trivial(line)
    }
    return _secret(_solution_notebook_lines()["HIDDEN TESTS"] | module_lines)


def _non_trivial(line):
    text = line.strip()
    return len(text) >= 16 and not text.startswith(("#", '"""'))


def text_files(folder):
    """{path: text} of every file under ``folder``; a notebook's text includes its cells unquoted from JSON."""
    return {path: _text(path) for path in pathlib.Path(folder).rglob("*") if path.is_file()}


def _text(path):
    text = path.read_text(errors="replace")
    if path.suffix == ".ipynb":
        text += "\n".join(cell.source for cell in nbformat.reads(text, as_version=4).cells)
    return text
