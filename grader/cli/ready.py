"""Whether a course folder is ready for a command; when it is not, a :class:`UsageError` says why in one line.

Checked before a command touches anything, so that a wrong ``--course`` never leaves folders behind.
"""

import shlex

from ..course import CONFIG, Course
from ..course.config import uses_the_kit
from ..course.gradebook import graded_cells
from .errors import UsageError

NEEDS = {
    "release": "source",
    "collect": "release",
    "autograde": "release",
    "feedback": "autograded",
    "export": "gradebook",
    "report": "gradebook",
}
WITHOUT_GRADEBOOK = {"adopt", "jwks", "gradescope", "similarity"}  # the commands that never open the gradebook
WITHOUT_SANDBOX = {"adopt"}  # every other command works on a course that grades in the kit's sandbox


def require(folder, assignment, command):
    """The :class:`~grader.course.Course` of ``folder`` and ``assignment``, ready for ``command``; refused when the
    folder is not an nbgrader course, does not grade in the kit's sandbox, or is not ready for the command."""
    course = Course.at(folder, assignment)
    root = course.root
    if not root.is_dir():
        raise UsageError(f"{folder}: no such folder (give the course folder with --course)")
    if not (root / CONFIG).is_file():
        raise UsageError(
            f"{root.resolve()} is not an nbgrader course: it has no {CONFIG} (give the course folder with --course)"
        )
    if command not in WITHOUT_SANDBOX and not uses_the_kit(course.config):
        raise UsageError(
            f"{root / CONFIG} grades with nbgrader's own executor, not the kit's sandbox: "
            f"run `python -m grader adopt --course {shlex.quote(str(root))}` first"
        )
    unreachable = None if command in WITHOUT_GRADEBOOK else course.gradebook_unreachable()
    if unreachable:
        raise UsageError(unreachable)
    need = NEEDS.get(command)
    if need in ("source", "release"):
        notebooks = course.folder(need)
        if not any(notebooks.glob("*.ipynb")):
            then = "" if need == "source" else "; run python -m grader release first"
            raise UsageError(f"no notebook of {assignment} in {notebooks}{then}")
    elif need == "autograded":
        if not any(course.every_student("autograded").glob(f"*/{assignment}/*.ipynb")):
            raise UsageError(f"nothing of {assignment} is graded yet: run python -m grader autograde first")
    elif need == "gradebook" and not graded_cells(course):
        raise UsageError(f"{assignment} is not in the course's gradebook: run python -m grader release first")
    return course
