"""``release``: the student bundle holds the exercises and the student package (a wheel), and nothing hidden;
the wheel, installed alone in a clean virtual environment, runs a notebook's test cells and lets pytest check
a notebook in a folder of its own."""
import json
import os
import shutil
import subprocess
import venv
import zipfile

import nbformat
import pytest

from grader.api import release
from grader.checks.registry import notebooks
from grader.demo.fill import fill, reference_answers
from grader.release.wheel import wheel_name

from .conftest import EXERCISES, ROOT, SOLUTIONS
from .hidden_lines import hidden_test_lines, solution_lines, text_files

pytestmark = pytest.mark.slow

TOP = "self_attention-student"
STEPS = "02_self_attention_step_by_step.ipynb"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copytree(SOLUTIONS, course / "solutions" / "self_attention")
    path = release(course, "self_attention")
    unzipped = tmp_path_factory.mktemp("student")
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        archive.extractall(unzipped)
    wheel_dir = tmp_path_factory.mktemp("wheel")
    with zipfile.ZipFile(course / "downloads" / wheel_name()) as archive:
        archive.extractall(wheel_dir)
    return course, path, names, unzipped / TOP, wheel_dir


def test_bundle_and_wheel_are_in_downloads_with_every_released_notebook(bundle):
    course, path, names, _, _ = bundle
    assert path == course / "downloads" / "self_attention-student.zip"
    assert (course / "downloads" / wheel_name()).exists()
    assert all(name.startswith(f"{TOP}/") for name in names)
    for notebook in notebooks():
        assert f"{TOP}/exercises/self_attention/{notebook}" in names
    assert {f"{TOP}/README.md", f"{TOP}/{wheel_name()}"} <= set(names)
    assert f"{TOP}/conftest.py" not in names  # the wheel's pytest plugin does its job


def test_wheel_holds_only_student_safe_modules_and_the_plugin_entry_point(bundle):
    *_, wheel_dir = bundle
    modules = sorted(p.relative_to(wheel_dir).as_posix() for p in wheel_dir.rglob("*.py"))
    assert modules and all(m == "grader/__init__.py" or m.startswith(("grader/checks/", "grader/selfcheck/"))
                           for m in modules)
    entry_points = next(wheel_dir.glob("*.dist-info/entry_points.txt")).read_text()
    assert "[pytest11]\ngrader.selfcheck.plugin = grader.selfcheck.plugin" in entry_points


def test_bundle_and_wheel_hold_no_solution_and_no_hidden_test(bundle):
    *_, root, wheel_dir = bundle
    secrets = solution_lines() | hidden_test_lines()
    assert len(secrets) > 50  # the scan below has something to find
    for folder in (root, wheel_dir):
        for path, text in text_files(folder).items():
            for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "grader.hidden", "grader.reference"):
                assert marker not in text, (path, marker)
            leaked = [line for line in secrets if line in text]
            assert leaked == [], (path, leaked[:3])


def test_wheel_requires_the_kit_pins(bundle):
    *_, wheel_dir = bundle
    metadata = next(wheel_dir.glob("*.dist-info/METADATA")).read_text().splitlines()
    pins = {line.split(": ", 1)[1] for line in metadata if line.startswith("Requires-Dist:") and "extra" not in line}
    assert {"torch==2.13.0", "numpy==2.4.6", "pytest==9.2.0", "nbformat==5.11.1"} <= pins
    assert pins <= set((ROOT / "requirements.txt").read_text().split())


@pytest.fixture(scope="module")
def clean_python(bundle, tmp_path_factory):
    """A virtual environment with nothing but the student wheel and its dependencies (one per session: slow)."""
    course, *_ = bundle
    folder = tmp_path_factory.mktemp("clean-venv")
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(course / "downloads" / wheel_name())],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return python


def run_clean(python, *arguments, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{python.parent}{os.pathsep}/usr/bin:/bin"
    return subprocess.run([str(python), *arguments], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=600)


# Every code cell in order, as a kernel would run them (IPython magics such as %matplotlib left out).
RUN_CELLS = """
import json, sys
from IPython.terminal.interactiveshell import TerminalInteractiveShell
shell = TerminalInteractiveShell.instance()  # as a kernel runs them, with IPython's history
for cell in json.load(open(sys.argv[1]))["cells"]:
    if cell["cell_type"] == "code":
        result = shell.run_cell("".join(cell["source"]), store_history=True)
        if not result.success:
            sys.exit(f"a cell failed: {result.error_in_exec or result.error_before_exec!r}")
import grader
print("grader from", grader.__file__)
"""


def test_clean_environment_runs_a_fetched_notebooks_test_cells(clean_python, tmp_path):
    answers = reference_answers(nbformat.read(SOLUTIONS / STEPS, as_version=4))
    nbformat.write(fill(nbformat.read(EXERCISES / STEPS, as_version=4), answers), tmp_path / STEPS)
    run = run_clean(clean_python, "-c", RUN_CELLS, str(tmp_path / STEPS), cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert f"grader from {clean_python.parent.parent}" in run.stdout  # the wheel's copy, not the kit's


def test_clean_environment_checks_a_notebook_with_pytest_in_a_folder_of_its_own(clean_python, tmp_path):
    answers = reference_answers(nbformat.read(SOLUTIONS / STEPS, as_version=4))
    (tmp_path / "done").mkdir()
    nbformat.write(fill(nbformat.read(EXERCISES / STEPS, as_version=4), answers), tmp_path / "done" / STEPS)
    passed = run_clean(clean_python, "-m", "pytest", STEPS, cwd=tmp_path / "done")
    assert passed.returncode == 0, passed.stdout[-3000:]
    assert "passed" in passed.stdout and "failed" not in passed.stdout
    (tmp_path / "fresh").mkdir()
    shutil.copy(EXERCISES / STEPS, tmp_path / "fresh")
    stubs = run_clean(clean_python, "-m", "pytest", STEPS, cwd=tmp_path / "fresh")
    assert stubs.returncode == 1 and "not implemented yet" in stubs.stdout
    assert not list((tmp_path / "fresh").glob("conftest.py"))
    json.loads((tmp_path / "fresh" / STEPS).read_text())  # the notebook is untouched
