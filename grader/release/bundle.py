"""The student bundle: the released notebooks, the student package (a wheel) and a README, in one zip."""

import zipfile

from . import student_files
from .how_to_check import top_folder
from .wheel import build_wheel, course_points


def bundle_path(course):
    return course.downloads / f"{course.assignment}-student.zip"


def student_files_of(course, wheel):
    """{path inside the bundle: bytes} of everything a student gets."""
    assignment, release = course.assignment, course.release
    files = {
        f"exercises/{assignment}/{path.relative_to(release).as_posix()}": path.read_bytes()
        for path in sorted(release.rglob("*"))
        if path.is_file() and _shipped(path.relative_to(release))
    }
    files[wheel.name] = wheel.read_bytes()
    files["README.md"] = student_files.readme(assignment, wheel.name).encode()
    return files


def _shipped(relative):
    return not any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


def write_bundle(course):
    """Build the student wheel into ``downloads/``, then zip the student files under one top folder,
    ``<assignment>-student/``; return the zip's path."""
    path = bundle_path(course)
    wheel = build_wheel(course.downloads, course_points(course))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in student_files_of(course, wheel).items():
            archive.writestr(f"{top_folder(course.assignment)}/{name}", data)
    return path
