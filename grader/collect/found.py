"""What collect learns from one file of a download: who handed it in, which notebook, when, which version."""
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Identity:
    """The student as the LMS names them. ``usernames`` are the login names the file could belong to
    (Blackboard's names can be split more than one way); ``user_id`` is the LMS's own number."""
    lms: str
    shown: str
    user_id: str | None = None
    name: str | None = None
    email: str | None = None
    usernames: tuple[str, ...] = ()
    anonymous: bool = False


@dataclass
class Found:
    """A notebook in the download. ``version`` orders the versions of one notebook (greater is later)."""
    source: str
    identity: Identity
    notebook: str
    read: object = field(repr=False)
    submitted_at: datetime | None = None  # UTC, naive
    version: tuple = ()
    late: bool | None = None
    matched: str = ""  # how the roster matched it, once it has


@dataclass
class Ignored:
    """A file the LMS adds to its downloads (receipts, index pages...), left out on purpose."""
    source: str
    reason: str
