"""The student-safe part of the kit, as an allow-list: the one boundary between students and instructors.

The student wheel ships exactly these files, and a sandbox can read these and nothing else of the
kit, at every isolation level: the hidden checks, the references, the records, the demo and the
grader's own code (the sandbox's included: the worker imports it before the walls go up) are not
on the list, so nothing of them reaches a student.
"""
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent
KIT_ROOT = PACKAGE.parent
STUDENT_PACKAGES = ("checks", "selfcheck")


def student_paths():
    """The kit's paths a student may see: ``grader/__init__.py`` and the student packages' folders."""
    return [PACKAGE / "__init__.py", *(PACKAGE / package for package in STUDENT_PACKAGES)]


def student_files():
    """Every student-safe module, by its path from the kit's root (``grader/checks/plain.py``...)."""
    files = [PACKAGE / "__init__.py"]
    for package in STUDENT_PACKAGES:
        files += sorted((PACKAGE / package).rglob("*.py"))
    return {path.relative_to(KIT_ROOT).as_posix(): path for path in files}

