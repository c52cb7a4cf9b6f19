"""Where things are in a grading container: Gradescope's /autograder, PrairieLearn's /grade, or any root a test
chooses."""

import os
import pathlib
from dataclasses import dataclass

ROOT_VARIABLE = "AUTOGRADER_ROOT"  # read by the zip's nbgrader_config.py too: the folder submissions must not read
KIT = "kit"  # the course, inside the zip
STUDENT = "submission"  # the one student of the course on each run


@dataclass(frozen=True)
class Layout:
    root: pathlib.Path
    course: pathlib.Path
    submission: pathlib.Path  # the student's files
    results: pathlib.Path  # results.json

    @classmethod
    def gradescope(cls, root=None):
        """The zip unpacked in ``source``, the student's files in ``submission``, ``results/results.json``."""
        root = pathlib.Path(root or os.environ.get(ROOT_VARIABLE, "/autograder"))
        return cls(root, root / "source" / KIT, root / "submission", root / "results" / "results.json")

    @classmethod
    def prairielearn(cls, root=None):
        """The kit in the course's ``serverFilesCourse``, the student's files in ``student``,
        ``results/results.json``."""
        root = pathlib.Path(root or os.environ.get(ROOT_VARIABLE, "/grade"))
        return cls(root, root / "serverFilesCourse" / KIT, root / "student", root / "results" / "results.json")
