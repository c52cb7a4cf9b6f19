"""Where things are in an autograder's container: Gradescope's /autograder, or any root a test chooses."""
import os
import pathlib
from dataclasses import dataclass

ROOT_VARIABLE = "AUTOGRADER_ROOT"
KIT = "kit"          # the course, inside the zip and so in <root>/source
STUDENT = "submission"  # the one student of the course on each run


@dataclass(frozen=True)
class Layout:
    """Gradescope's folders: the zip in ``source``, the student's files in ``submission``, ``results``."""
    root: pathlib.Path

    @classmethod
    def from_environment(cls):
        return cls(pathlib.Path(os.environ.get(ROOT_VARIABLE, "/autograder")))

    @property
    def course(self):
        return self.root / "source" / KIT

    @property
    def submission(self):
        return self.root / "submission"

    @property
    def results(self):
        return self.root / "results" / "results.json"
