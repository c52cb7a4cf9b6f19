"""What goes between the kit and an LMS client: the course's students as the LMS knows them, the LMS's answer
to each posted score, and the score and answer written as the LMS reads and the kit prints them."""

from dataclasses import dataclass


@dataclass
class LmsUser:
    """A student of the LMS course: its user id, and what the kit can match a gradebook student by."""

    user_id: str
    name: str
    email: str | None
    sis_id: str | None = None
    login_id: str | None = None


@dataclass
class Outcome:
    """Whether the LMS took one student's score; ``answer`` is the LMS's answer in one short line (never a
    secret)."""

    ok: bool
    answer: str


def one_line(text, secret, limit=200):
    """An LMS's text as one short line for a message or an ``Outcome``, with ``secret`` (the token) blanked
    wherever the LMS echoed it."""
    line = " ".join(str(text).split())
    if secret:
        line = line.replace(secret, "[token]")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def points(score):
    """A score as the LMS's form field takes it: ``17.5``, ``24``, ``0`` (at most six decimals)."""
    return f"{score:.6f}".rstrip("0").rstrip(".")
