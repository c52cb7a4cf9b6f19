"""Collect from a folder laid out as ``<student>/<notebook>.ipynb``."""
import pathlib
import shutil

from .. import course as course_folders
from .report import CollectReport, Imported, Skipped


def collect_folder(source, course, assignment, released):
    """Copy each released notebook to nbgrader's ``submitted/<student>/<assignment>/``; report the rest."""
    source, report = pathlib.Path(source), CollectReport()
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        relative = path.relative_to(source)
        reason = _reason_to_skip(relative, released)
        if reason:
            report.skipped.append(Skipped(relative.as_posix(), reason))
            continue
        student = relative.parts[0]
        target = course_folders.folder(course, "submitted", student, assignment) / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        report.imported.append(Imported(student, path.name, relative.as_posix()))
    return report


def _reason_to_skip(relative, released):
    if len(relative.parts) != 2:
        return "not laid out as <student>/<notebook>.ipynb"
    if relative.suffix != ".ipynb":
        return "not a notebook"
    if relative.name not in released:
        return f"unknown notebook (the assignment has {', '.join(sorted(released))})"
    return None
