"""``release``: the student bundle holds the exercises and the student package (a wheel), and nothing hidden;
the wheel asks for minimum versions only. tests/test_student_install.py installs it into students' environments."""

import platform
import zipfile

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from grader.checks.registry import notebooks
from grader.release.wheel import wheel_name

from ..conftest import ROOT
from ..hidden_lines import hidden_test_lines, solution_lines, text_files

pytestmark = pytest.mark.slow

TOP = "self_attention-student"


@pytest.fixture(scope="module")
def bundle(student_release, tmp_path_factory):
    course = student_release
    path = course / "downloads" / "self_attention-student.zip"
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
    assert modules and all(
        m == "grader/__init__.py" or m.startswith(("grader/checks/", "grader/selfcheck/", "grader/exercises/"))
        for m in modules
    )
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


def test_wheel_requires_minimum_versions_that_the_kit_pins_meet(bundle):
    """No exact pin that would replace what a student's environment holds (tests/test_student_install.py)."""
    *_, wheel_dir = bundle
    metadata = next(wheel_dir.glob("*.dist-info/METADATA")).read_text().splitlines()
    required = [Requirement(line.split(": ", 1)[1]) for line in metadata if line.startswith("Requires-Dist:")]
    needed = {r.name: r.specifier for r in required if r.marker is None}
    assert sorted(needed) == ["ipython", "matplotlib", "numpy", "pytest", "torch"]  # never nbformat
    assert {spec.operator for r in required for spec in r.specifier} == {">="}
    pins = dict(line.split("==") for line in (ROOT / "requirements.txt").read_text().split() if "==" in line)
    for name, specifier in needed.items():
        assert specifier.contains(pins[name]), (name, specifier, pins[name])
    python = next(line.split(": ", 1)[1] for line in metadata if line.startswith("Requires-Python:"))
    assert SpecifierSet(python).contains(platform.python_version()) and SpecifierSet(python).contains("3.10")
