"""``adopt``: an existing nbgrader course made to grade in the kit's sandbox, its own settings kept.

The course's ``nbgrader_config.py`` stays as it is, copied beside it as ``nbgrader_config.py.before-kit``, and
ends with a call to :func:`grader.course.config.use_the_kit`, which adds the kit's settings to the course's own.
The gradebook, the notebooks and the folders are not touched.
"""

import copy
import dataclasses
import pathlib
import shutil

from ..cli.errors import UsageError
from . import CONFIG, Course
from .config import sandbox_seconds, use_the_kit, uses_the_kit

BACKUP = f"{CONFIG}.before-kit"
CALL = f"""
# Added by `python -m grader adopt`: the autograding kit's settings, added to the course's own above (see
# grader/course/config.py). To undo, put back {BACKUP}: this file as it was.
from grader.course.config import use_the_kit  # noqa: E402
use_the_kit(get_config())  # noqa: F821 (provided by nbgrader)
"""


@dataclasses.dataclass
class Adoption:
    config: pathlib.Path
    backup: pathlib.Path = None  # None: the course graded in the sandbox already, nothing changed
    kept: list = dataclasses.field(default_factory=list)  # the kit's settings the course sets its own way
    limits: tuple = ()  # the sandbox's seconds for a cell and for a notebook


def adopt(course=".", assignment="self_attention"):
    """Make the course grade in the kit's sandbox (nothing done if it does); return what was done."""
    course = Course.at(course, assignment)
    path, backup = course.root / CONFIG, course.root / BACKUP
    if uses_the_kit(course.config):
        return Adoption(path)
    text = path.read_text()
    if backup.exists() and backup.read_text() != text:
        raise UsageError(f"{backup} is there already: move it away (or put it back as {CONFIG}) and run adopt again")
    adopted = copy.deepcopy(course.config)
    kept = use_the_kit(adopted)
    if not uses_the_kit(adopted):
        raise UsageError(
            f"{path}'s c.Autograde.autograde_preprocessors has no nbgrader Execute step for the kit's "
            "sandbox to take the place of: put grader.autograde.preprocessors.SandboxExecute where it "
            "runs the notebooks"
        )
    shutil.copy2(path, backup)
    path.write_text(text + ("\n" if text and not text.endswith("\n") else "") + CALL)
    return Adoption(path, backup, kept, sandbox_seconds(adopted))
