"""Collect from an LMS export (zip) with nbgrader's ``zip_collect``.

The file names follow Blackboard's export of an assignment's attempts:
``<assignment>_<student id>_attempt_<YYYY-MM-DD-HH-MM-SS>_<notebook>.ipynb``, at any depth
in the zip, e.g. ``self_attention_jdoe42_attempt_2025-03-02-17-45-10_01_attention_basics.ipynb``.
A student id has no underscore. When a student handed in a notebook more than once, the
latest attempt is kept. The export's other files (attempt receipts ``.txt``...) are reported.
"""
import pathlib
import re
import shutil

from .. import course as course_folders
from .report import CollectReport, Imported, Skipped

# nbgrader matches it against the whole extracted path, hence the leading ``.*/``.
NAMED_REGEXP = (r".*/[^/]*_(?P<student_id>[^_/]+)_attempt_(?P<timestamp>\d{4}(?:-\d{2}){5})"
                r"_(?P<file_id>[^/]+)\.ipynb$")


def collect_zip(source, course, assignment, released):
    """Put the zip alone in nbgrader's archive folder, run ``nbgrader zip_collect``, report each file."""
    archive = pathlib.Path(course) / "downloaded" / assignment / "archive"
    shutil.rmtree(archive, ignore_errors=True)
    archive.mkdir(parents=True)
    shutil.copy(source, archive)
    course_folders.run_nbgrader(course, "zip_collect", assignment, "--force", "--strict",
                                f"--FileNameCollectorPlugin.named_regexp={NAMED_REGEXP}")
    extracted = archive.parent / "extracted"
    return _report(extracted, course, assignment, released)


def _report(extracted, course, assignment, released):
    """What zip_collect did with each extracted file, judged by the files it left in submitted/."""
    report, attempts = CollectReport(), {}
    for path in sorted(p for p in extracted.rglob("*") if p.is_file()):
        shown = path.relative_to(extracted).as_posix()
        match = re.match(NAMED_REGEXP, path.as_posix())
        if path.suffix != ".ipynb":
            report.skipped.append(Skipped(shown, "not a notebook"))
        elif not match:
            report.skipped.append(Skipped(shown, "name is not <assignment>_<student>_attempt_<time>_<notebook>.ipynb"))
        elif f"{match['file_id']}.ipynb" not in released:
            report.skipped.append(Skipped(shown, f"unknown notebook {match['file_id']}.ipynb"))
        else:
            key = (match["student_id"], f"{match['file_id']}.ipynb")
            attempts.setdefault(key, []).append((match["timestamp"], path, shown))
    for (student, notebook), found in sorted(attempts.items()):
        collected = course_folders.folder(course, "submitted", student, assignment) / notebook
        newest_first = sorted(found, reverse=True)
        kept = next((a for a in newest_first if collected.exists() and a[1].read_bytes() == collected.read_bytes()),
                    None)
        for attempt in newest_first:
            if attempt is kept:
                report.imported.append(Imported(student, notebook, attempt[2]))
            else:
                why = f"superseded: nbgrader kept the attempt of {kept[0]}" if kept else "nbgrader did not collect it"
                report.skipped.append(Skipped(attempt[2], why))
    return report
