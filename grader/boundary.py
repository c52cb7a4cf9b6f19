"""The student-safe part of the kit, as an allow-list: the one boundary between students and instructors.

The student wheel ships exactly these files, and a sandbox can read these and nothing else of the
kit, at every isolation level: the hidden checks, the references, the records, the demo and the
grader's own code (the sandbox's included: the worker imports it before the walls go up) are not
on the list, so nothing of them reaches a student.
"""
import json
import pathlib
from importlib import metadata
from urllib.parse import unquote, urlparse

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
