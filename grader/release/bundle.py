"""The student bundle: released notebooks, the self-check and what it needs, in one zip."""
import pathlib
import zipfile

from .. import course as course_folders
from . import student_files

GRADER = pathlib.Path(__file__).resolve().parent.parent
# Only these parts of the grader reach students: hidden checks and references never do.
STUDENT_PACKAGES = ["checks", "selfcheck"]


def bundle_path(course, assignment):
    return pathlib.Path(course) / "downloads" / f"{assignment}-student.zip"


def student_files_of(course, assignment):
    """{path inside the bundle: bytes} of everything a student gets."""
    release = course_folders.folder(course, "release", ".", assignment)
    files = {f"exercises/{assignment}/{path.relative_to(release).as_posix()}": path.read_bytes()
             for path in sorted(release.rglob("*")) if path.is_file() and _shipped(path.relative_to(release))}
    files["grader/__init__.py"] = (GRADER / "__init__.py").read_bytes()
    for package in STUDENT_PACKAGES:
        for path in sorted((GRADER / package).glob("*.py")):
            files[f"grader/{package}/{path.name}"] = path.read_bytes()
    files["README.md"] = student_files.README.format(assignment=assignment).encode()
    files["requirements.txt"] = student_files.REQUIREMENTS.encode()
    files["pyproject.toml"] = student_files.PYPROJECT.encode()
    files["conftest.py"] = student_files.CONFTEST.encode()
    return files


def _shipped(relative):
    return not any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


def write_bundle(course, assignment):
    """Zip the student files under one top folder, ``<assignment>-student/``; return the zip's path."""
    path = bundle_path(course, assignment)
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in student_files_of(course, assignment).items():
            archive.writestr(f"{assignment}-student/{name}", data)
    return path
