"""One student-safe boundary (grader/boundary/student_safe.py): the wheel ships it, and a sandbox at every level
reads it and nothing else of the kit. The sandboxes themselves are tried in test_isolation_levels.py (the kit spy)."""

import ast
import pathlib
import sys

import pytest

from grader.autograde.jobs import secret_paths
from grader.boundary import student_safe as boundary
from grader.release.wheel import student_sources
from grader.sandbox import isolation, levels

KIT_PACKAGE = boundary.PACKAGE
BUILT = student_sources()  # the student package's files, as the build writes them
NOT_FOR_STUDENTS = ["demo", "autograde", "records", "hidden", "reference", "sandbox", "api.py", "course/gradebook.py"]


def kit_files():
    """Every file of the kit's package, by its path from the kit's root."""
    return sorted(p for p in KIT_PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def covered(path, hidden):
    return any(h == path or h in path.parents for h in map(pathlib.Path, hidden))


def is_student_safe(path):
    return any(a == path or a in path.parents for a in boundary.student_paths())


def test_what_a_sandbox_reads_of_the_kit_is_what_the_wheel_ships_and_the_rest_is_compiled():
    """Every kit file a sandbox can read is in the built package, byte for byte; the built package's other files
    are the exercise modules, which the build compiles (their source, with its hidden half, stays unreadable)."""
    built = BUILT
    readable = {
        p.relative_to(boundary.KIT_ROOT).as_posix(): p.read_bytes()
        for p in kit_files()
        if is_student_safe(p) and p.suffix == ".py"
    }
    assert {name: built.get(name) for name in readable} == readable
    assert {name.rpartition("/")[0] for name in set(built) - set(readable)} == {"grader/exercises"}
    assert set(built) - set(readable) == {"grader/exercises/__init__.py", *boundary.exercise_modules()}
    assert {"grader/__init__.py", "grader/checks/plain.py", "grader/selfcheck/plugin.py"} <= set(readable)


def test_namespace_levels_cover_everything_of_the_kit_but_the_student_safe_part(tmp_path):
    hidden = secret_paths(tmp_path)
    assert [p for p in kit_files() if is_student_safe(p) and covered(p, hidden)] == []
    assert [p for p in kit_files() if not is_student_safe(p) and not covered(p, hidden)] == []
    assert all(covered(KIT_PACKAGE / name, hidden) for name in NOT_FOR_STUDENTS)


def test_landlock_reads_nothing_of_the_kit_but_the_student_safe_part(tmp_path):
    environment = pathlib.Path(sys.prefix).resolve()
    readable = [pathlib.Path(p) for p in levels.readable(secret_paths(tmp_path))]
    of_the_kit = {p for p in readable if boundary.KIT_ROOT in p.parents and environment not in (p, *p.parents)}
    assert of_the_kit == set(boundary.student_paths())


@pytest.mark.parametrize("name", sorted(BUILT))
def test_student_safe_modules_import_nothing_of_the_kit_outside_the_boundary(name):
    """What the wheel ships must import within the wheel: anything else would be missing on a student's machine."""
    package = tuple(name.split("/")[:-1])
    outside = []
    for node in ast.walk(ast.parse(BUILT[name])):
        names = []
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            names = [".".join((*base, *node.module.split("."))) if node.module else ".".join(base)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.strip(".").split(".")
            if parts[0] == "grader" and not (
                len(parts) == 1 or parts[1] in (*boundary.STUDENT_PACKAGES, boundary.EXERCISES)
            ):
                outside.append(name)
    assert outside == []


@pytest.mark.parametrize("kept", boundary.student_paths(), ids=lambda p: p.name)
def test_namespace_levels_cover_only_folders_to_keep_a_path_visible(kept):
    """A kept file (grader/__init__.py, not executable by others) is bound back in place, never covered itself."""
    closed = isolation._closed_ancestor(kept)
    assert closed is None or closed.is_dir()
