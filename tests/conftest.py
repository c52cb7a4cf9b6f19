"""Shared helpers for the kit's tests."""
import importlib
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions" / "self_attention"
EXERCISES = ROOT / "exercises" / "self_attention"

# nbgrader runs `alembic` and `jupyter` by name: the venv's must come first on PATH.
os.environ["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def wrong_answers():
    """Every (exercise, misconception, wrong answer) row of tests/wrong_answers."""
    rows = []
    for path in sorted((ROOT / "tests" / "wrong_answers").glob("*.py")):
        if path.stem != "__init__":
            rows.extend(importlib.import_module(f"tests.wrong_answers.{path.stem}").WRONG)
    return rows


@pytest.fixture(scope="session")
def root():
    return ROOT
