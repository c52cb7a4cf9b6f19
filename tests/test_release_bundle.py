"""``release``: the student bundle holds the exercises and the self-check, and nothing hidden."""
import shutil
import subprocess
import sys
import zipfile

import pytest

from grader.api import release
from grader.checks.registry import notebooks

from .conftest import ROOT, SOLUTIONS
from .hidden_lines import hidden_test_lines, solution_lines, text_files

TOP = "self_attention-student"


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
    return course, path, names, unzipped / TOP


def test_bundle_is_in_downloads_with_every_released_notebook(bundle):
    course, path, names, _ = bundle
    assert path == course / "downloads" / "self_attention-student.zip"
    assert all(name.startswith(f"{TOP}/") for name in names)
    for notebook in notebooks():
        assert f"{TOP}/exercises/self_attention/{notebook}" in names
        assert (course / "exercises" / "self_attention" / notebook).exists()
    for name in ["README.md", "requirements.txt", "pyproject.toml", "conftest.py", "grader/__init__.py",
                 "grader/checks/registry.py", "grader/selfcheck/plugin.py"]:
        assert f"{TOP}/{name}" in names


def test_bundle_holds_only_student_safe_files(bundle):
    _, _, names, _ = bundle
    for name in names:
        inside = name.removeprefix(f"{TOP}/")
        assert not inside.startswith(("grader/hidden", "grader/reference", "grader/autograde", "solutions"))
        assert inside.count("/") == 0 or inside.startswith(("grader/checks/", "grader/selfcheck/",
                                                            "grader/__init__.py", "exercises/self_attention/"))
        assert "__pycache__" not in name


def test_bundle_holds_no_solution_and_no_hidden_test(bundle):
    *_, root = bundle
    secrets = solution_lines() | hidden_test_lines()
    assert len(secrets) > 50  # the scan below has something to find
    for path, text in text_files(root).items():
        for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "grader.hidden", "grader.reference"):
            assert marker not in text, (path, marker)
        leaked = [line for line in secrets if line in text]
        assert leaked == [], (path, leaked[:3])


def test_student_requirements_are_the_kit_pins(bundle):
    *_, root = bundle
    kit = set((ROOT / "requirements.txt").read_text().split())
    pins = [line for line in (root / "requirements.txt").read_text().splitlines() if "==" in line
            and not line.startswith("#")]
    assert {"torch==2.13.0", "numpy==2.4.6", "pytest==9.2.0", "nbformat==5.11.1"} <= set(pins)
    assert set(pins) <= kit


def test_self_check_runs_from_the_unzipped_bundle(bundle):
    *_, root = bundle
    which = subprocess.run([sys.executable, "-c", "import grader.selfcheck; print(grader.selfcheck.__file__)"],
                           cwd=root, capture_output=True, text=True)
    assert which.stdout.startswith(str(root))  # the bundle's own copy, not the kit's
    run = subprocess.run([sys.executable, "-m", "pytest", "exercises/self_attention/01_attention_basics.ipynb"],
                         cwd=root, capture_output=True, text=True)
    assert run.returncode != 0
    assert "not implemented yet" in run.stdout
    assert "visible points" in run.stdout
