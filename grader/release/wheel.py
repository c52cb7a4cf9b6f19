"""The student package: ``grader.checks`` and ``grader.selfcheck`` as a wheel, with the self-check as a pytest
plugin (``pytest11`` entry point), so that ``pytest <notebook>.ipynb`` works in any folder once it is installed.

Built from the kit's own files with the installed setuptools (``requirements.txt`` pins it): no network.
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

from . import requirements
from ..boundary import STUDENT_PACKAGES, student_files as student_modules

DISTRIBUTION = "attention-kit-student"
VERSION = "0.1.0"
# The entry point is named after the module, so that ``-p grader.selfcheck.plugin`` or a conftest.py
# naming it finds it registered already instead of registering it twice.
PLUGIN = "grader.selfcheck.plugin"

PYPROJECT = """\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "{version}"
description = "The self-attention exercises' visible checks and self-check (pytest <notebook>.ipynb)"
requires-python = "{requires_python}"
dependencies = [{dependencies}]

[project.optional-dependencies]
jupyter = [{jupyter}]

[project.entry-points.pytest11]
"{plugin}" = "{plugin}"

[tool.setuptools]
packages = ["grader", {packages}]
"""


def wheel_name():
    return f"{DISTRIBUTION.replace('-', '_')}-{VERSION}-py3-none-any.whl"


def student_sources():
    """{path inside the package's source tree: bytes}: the student-safe modules (grader/boundary.py)."""
    return {name: path.read_bytes() for name, path in student_modules().items()}


def build_wheel(out_dir):
    """Write the student wheel into ``out_dir``; return its path."""
    out_dir = pathlib.Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        tree = pathlib.Path(scratch) / "src"
        for name, data in student_sources().items():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            (tree / name).write_bytes(data)
        (tree / "pyproject.toml").write_text(PYPROJECT.format(
            name=DISTRIBUTION, version=VERSION, plugin=PLUGIN,
            requires_python=requirements.REQUIRES_PYTHON,
            dependencies=", ".join(f'"{r}"' for r in requirements.REQUIRES),
            jupyter=", ".join(f'"{r}"' for r in requirements.JUPYTER),
            packages=", ".join(f'"grader.{p}"' for p in STUDENT_PACKAGES)))
        built = pathlib.Path(scratch) / "dist"
        done = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                               "print(build_meta.build_wheel(sys.argv[1]))", str(built)],
                              cwd=tree, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"building the student wheel failed:\n{done.stderr[-3000:]}")
        target = out_dir / wheel_name()
        shutil.copyfile(built / done.stdout.strip().splitlines()[-1], target)
    return target
