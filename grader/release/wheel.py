"""The student package: ``grader.checks``, ``grader.selfcheck`` and the student's copy of ``grader.exercises`` as a
wheel, with the self-check as a pytest plugin (``pytest11`` entry point), so that ``pytest <notebook>.ipynb`` works
in any folder once it is installed.

Built from the kit's own files with the installed setuptools (``requirements.txt`` pins it): no network.
"""

import pathlib
import shutil
import subprocess
import sys
import tempfile

from ..boundary.student_safe import EXERCISES, STUDENT_PACKAGES, exercise_modules
from ..boundary.student_safe import student_files as student_modules
from ..checks.cells import points_by_exercise
from ..checks.notebook import read, solution_points
from . import requirements
from .compile import student_module

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


def student_sources(points=None):
    """{path inside the package's source tree: bytes}: the student-safe modules as they are, and the student's
    copy of each exercise module (grader/boundary/student_safe.py), with what each exercise is worth:
    ``points`` ({exercise: points}, read from the course's notebooks by :func:`course_points`), the kit's solution
    notebooks' by default."""
    points = {**solution_points(), **(points or {})}
    built = {name: path.read_bytes() for name, path in student_modules().items()}
    for name, path in exercise_modules().items():
        built[name] = student_module(path.read_text(), name, points).encode()
    return built


def course_points(course):
    """{exercise: points} of the course's source notebooks' test cells, where the instructor sets them."""
    return {
        name: points
        for path in sorted(course.source.glob("*.ipynb"))
        for name, points in points_by_exercise(read(path)).items()
    }


def build_wheel(out_dir, points=None):
    """Write the student wheel into ``out_dir``, its exercises worth ``points`` (as :func:`student_sources`);
    return its path."""
    out_dir = pathlib.Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        tree = pathlib.Path(scratch) / "src"
        for name, data in student_sources(points).items():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            (tree / name).write_bytes(data)
        (tree / "pyproject.toml").write_text(
            PYPROJECT.format(
                name=DISTRIBUTION,
                version=VERSION,
                plugin=PLUGIN,
                requires_python=requirements.REQUIRES_PYTHON,
                dependencies=", ".join(f'"{r}"' for r in requirements.REQUIRES),
                jupyter=", ".join(f'"{r}"' for r in requirements.JUPYTER),
                packages=", ".join(f'"grader.{p}"' for p in (*STUDENT_PACKAGES, EXERCISES)),
            )
        )
        built = pathlib.Path(scratch) / "dist"
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))",
                str(built),
            ],
            cwd=tree,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"building the student wheel failed:\n{done.stderr[-3000:]}")
        target = out_dir / wheel_name()
        shutil.copyfile(built / done.stdout.strip().splitlines()[-1], target)
    return target
