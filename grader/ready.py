"""Whether a course folder is ready for a command; when it is not, a :class:`UsageError` says why in one line.

Checked before a command touches anything, so that a wrong ``--course`` never leaves folders behind.
"""
import pathlib

from . import course as courses
from .errors import UsageError
from .gradebook import graded_cells

CONFIG = "nbgrader_config.py"
NEEDS = {"release": "source", "collect": "release", "autograde": "release", "feedback": "autograded",
         "export": "gradebook", "report": "gradebook"}


def require(course, assignment, command):
    """Refuse ``command`` on a folder that is not an nbgrader course, or on a course not ready for it."""
    root = pathlib.Path(course)
    if not root.is_dir():
        raise UsageError(f"{course}: no such folder (give the course folder with --course)")
    if not (root / CONFIG).is_file():
        raise UsageError(f"{root.resolve()} is not an nbgrader course: it has no {CONFIG} "
                         "(give the course folder with --course)")
    need = NEEDS.get(command)
    if need in ("source", "release"):
        notebooks = courses.folder(course, need, ".", assignment)
        if not any(notebooks.glob("*.ipynb")):
            then = "" if need == "source" else "; run python -m grader release first"
            raise UsageError(f"no notebook of {assignment} in {notebooks}{then}")
    elif need == "autograded":
        graded = courses.folder(course, "autograded", "*", assignment).parent.parent
        if not any(graded.glob(f"*/{assignment}/*.ipynb")):
            raise UsageError(f"nothing of {assignment} is graded yet: run python -m grader autograde first")
    elif need == "gradebook" and not graded_cells(course, assignment):
        raise UsageError(f"{assignment} is not in the course's gradebook: run python -m grader release first")
