"""Where the class report sends the instructor: the whole command that grades one notebook again, and a student's
notebooks in formgrader.

A command names the course's folder and the assignment, each argument quoted for the shell, so that it runs as
printed from any folder. formgrader is reached at the address the course sets (``c.ClassReport.formgrader_url`` in
``nbgrader_config.py``): the report is a file, opened from a folder or a download, and no link relative to it can
find a Jupyter server. Without the setting, the report says where to look in formgrader, in words.
"""

import shlex
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from traitlets import Unicode
from traitlets.config import Configurable

from ..cli.errors import UsageError


class ClassReport(Configurable):
    """The class report (``python -m grader report``): where its links into formgrader lead."""

    formgrader_url = Unicode(
        "",
        help="formgrader's address as the instructor opens it, e.g. http://localhost:8888/formgrader or "
        "https://hub.example.edu/user/<you>/formgrader: the report links each student's notebooks there "
        "(unset: it names the page in words instead)",
    ).tag(config=True)


@dataclass(frozen=True)
class Directions:
    assignment: str
    course: str | None = None  # the course's folder, absolute (None: the folder the command is run in)
    formgrader_url: str = ""  # formgrader's address, without a trailing slash ('': none set)

    @classmethod
    def of(cls, course):
        """The directions for a :class:`grader.course.Course`, formgrader's address from its configuration."""
        url = ClassReport(config=course.config).formgrader_url.strip()
        if url and (urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc):
            raise UsageError(f"c.ClassReport.formgrader_url must be an http:// or https:// address, not {url!r}")
        return cls(course.assignment, str(course.root.resolve()), url.rstrip("/"))

    def command(self, verb, *arguments):
        """``python -m grader <verb>`` on this course and assignment, quoted for the shell."""
        where = ["--course", self.course] if self.course else []
        return shlex.join(["python", "-m", "grader", verb, *where, "--assignment", self.assignment, *arguments])

    def regrade(self, student, notebook):
        """The command that grades ``student``'s ``notebook`` again (and shows what would change)."""
        return self.command("regrade", "--student", student, "--notebook", notebook)

    def formgrader(self, student):
        """formgrader's page of ``student``'s notebooks of the assignment (Manage Students); None without an
        address."""
        if not self.formgrader_url:
            return None
        return f"{self.formgrader_url}/manage_students/{quote(student, safe='')}/{quote(self.assignment, safe='')}"
