"""The student-safe part of the kit, as an allow-list: the one boundary between students and instructors.

The student package is built from it: these files as they are, and the student's copy of each exercise
module, which the build compiles (grader/release/compile.py). A sandbox can read these files and nothing
else of the kit, at every isolation level: the exercise modules as written (their hidden parts and wrong
answers), the hidden checks, the references, the records, the demo and the grader's own code (the
sandbox's included: the worker imports it before the walls go up) are not on the list, so nothing of them
reaches a student.
"""

import json
import pathlib
from importlib import metadata
from urllib.parse import unquote, urlparse

PACKAGE = pathlib.Path(__file__).resolve().parent.parent
KIT_ROOT = PACKAGE.parent
STUDENT_PACKAGES = ("checks", "selfcheck")  # shipped as written
EXERCISES = "exercises"  # shipped as compiled


def student_paths():
    """The kit's paths a student may see: ``grader/__init__.py`` and the student packages' folders."""
    return [PACKAGE / "__init__.py", *(PACKAGE / package for package in STUDENT_PACKAGES)]


def student_files():
    """Every student-safe module, by its path from the kit's root (``grader/checks/plain.py``...)."""
    files = [PACKAGE / "__init__.py", PACKAGE / EXERCISES / "__init__.py"]
    for package in STUDENT_PACKAGES:
        files += sorted((PACKAGE / package).rglob("*.py"))
    return {path.relative_to(KIT_ROOT).as_posix(): path for path in files}


def exercise_modules():
    """The exercise modules as written, by their path from the kit's root: compiled for students, never shipped."""
    found = sorted((PACKAGE / EXERCISES).glob("*.py"))
    return {path.relative_to(KIT_ROOT).as_posix(): path for path in found if path.name != "__init__.py"}


def kit_copies():
    """Every copy of the kit the Python environment can import: this one, and the checkout an editable
    install (``pip install -e``) maps ``grader`` to, which may be another (a Gradescope zip graded from a
    developer's environment). A sandbox covers them all but the student-safe paths."""
    copies = [KIT_ROOT]
    try:
        found = json.loads(metadata.distribution("attention-kit").read_text("direct_url.json") or "{}")
    except metadata.PackageNotFoundError:
        return copies
    if found.get("dir_info", {}).get("editable") and found.get("url", "").startswith("file://"):
        copies.append(pathlib.Path(unquote(urlparse(found["url"]).path)).resolve())
    return list(dict.fromkeys(copies))
