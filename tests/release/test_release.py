"""The committed student notebooks are nbgrader's release of solutions/, and hold nothing hidden."""

import ast
import os
import shutil
import subprocess
import sys

import nbformat
import pytest

from grader.checks.registry import notebooks
from grader.release.wheel import student_sources

from ..conftest import EXERCISES, ROOT, SOLUTIONS

STUDENT_PACKAGES = ["grader/checks", "grader/selfcheck"]


def release_into(course):
    """Run nbgrader generate_assignment on a copy of the course; return the release folder."""
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copytree(SOLUTIONS, course / "solutions" / "self_attention")
    subprocess.run(
        [sys.executable, "-m", "nbgrader", "generate_assignment", "self_attention", "--force", "--log-level=ERROR"],
        cwd=course,
        check=True,
        capture_output=True,
    )
    return course / "exercises" / "self_attention"


@pytest.fixture(scope="module")
def fresh_release(tmp_path_factory):
    return release_into(tmp_path_factory.mktemp("course"))


@pytest.mark.slow
@pytest.mark.parametrize("notebook", notebooks())
def test_committed_exercises_are_the_current_release(fresh_release, notebook):
    fresh = nbformat.read(fresh_release / notebook, as_version=4)
    committed = nbformat.read(EXERCISES / notebook, as_version=4)
    assert committed == fresh, f"exercises/ is stale: run `python -m grader release` and commit {notebook}"


@pytest.mark.parametrize("notebook", notebooks())
def test_release_has_no_solution_and_no_hidden_test(notebook):
    text = (EXERCISES / notebook).read_text()
    code = "\n".join(c.source for c in nbformat.read(EXERCISES / notebook, as_version=4).cells if c.cell_type == "code")
    solution = nbformat.read(SOLUTIONS / notebook, as_version=4)
    for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "grader.hidden", "grader.reference", "check_hidden"):
        assert marker not in text
    assert "raise NotImplementedError()" in code
    for line in hidden_and_solution_lines(solution):
        assert line not in code, line


def hidden_and_solution_lines(nb):
    """The lines between BEGIN/END SOLUTION and BEGIN/END HIDDEN TESTS markers of a notebook."""
    lines, inside = set(), False
    for cell in nb.cells:
        for line in cell.source.splitlines():
            if "### BEGIN SOLUTION" in line or "### BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "### END SOLUTION" in line or "### END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) > 12:
                lines.add(line.strip())
    return lines


def student_modules():
    for package in STUDENT_PACKAGES:
        yield from sorted((ROOT / package).glob("*.py"))


@pytest.mark.parametrize("path", list(student_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_student_side_never_imports_hidden_checks_or_references(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not {m for m in imported if "hidden" in m or "reference" in m}


@pytest.mark.slow
def test_the_self_check_runs_on_the_student_package_alone(tmp_path):
    """The student package as the build writes it, and nothing else of the kit on the path: the self-check runs a
    notebook with it, and every module of the kit it loads is the package's."""
    package = tmp_path / "package"
    for name, data in student_sources().items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_bytes(data)
    code = (
        "import sys, pytest; pytest.main(['-q', '-p', 'no:cacheprovider', '-p', 'grader.selfcheck.plugin', "
        "sys.argv[1]]); print(sorted({m.__file__ for n, m in sys.modules.items() if n.split('.')[0] == 'grader'}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(EXERCISES / "01_attention_basics.ipynb")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(package)},
    )
    *report, loaded = done.stdout.strip().splitlines()
    assert "6 failed" in report[-1]  # the released stubs: every exercise checked, none passed
    files = ast.literal_eval(loaded)
    assert files and all(file.startswith(str(package)) for file in files), loaded
