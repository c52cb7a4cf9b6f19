"""``collect``: students' notebooks into nbgrader's ``submitted/`` folder, with a report of what was left out."""
import pathlib
import zipfile

from ..course import released_exercises
from .folder import collect_folder
from .lms_zip import collect_zip


def collect(source, course=".", assignment="self_attention"):
    """Collect from a folder of ``<student>/<notebook>.ipynb`` or from an LMS zip (see ``lms_zip``).

    Only the released notebooks are collected; every other file is reported with the reason.
    Returns a :class:`~grader.collect.report.CollectReport`.
    """
    released = set(released_exercises(course, assignment))
    if zipfile.is_zipfile(source):
        return collect_zip(source, course, assignment, released)
    if pathlib.Path(source).is_dir():
        return collect_folder(source, course, assignment, released)
    raise ValueError(f"{source} is neither a folder nor a zip file")
