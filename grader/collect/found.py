"""What collect learns from one file of a download: who handed it in, which notebook, when, which version."""

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Identity:
    """The student as the LMS names them. ``usernames`` are the login names the file could belong to
    (Blackboard's names can be split more than one way); ``user_id`` is the LMS's own number; ``aliases`` are
    other ways of writing it (Canvas's anonymous ``anon_Ab3dE`` is ``Ab3dE`` in Canvas's pages)."""

    lms: str
    shown: str
    user_id: str | None = None
    name: str | None = None
    email: str | None = None
    usernames: tuple[str, ...] = ()
    anonymous: bool = False
    aliases: tuple[str, ...] = ()


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
    renamed_from: str | None = None  # the name it was handed in as, when that is not the released name


@dataclass
class Ignored:
    """A file left out on purpose. ``kind`` names what it is, in the singular; the files the LMS or the operating
    system adds to every download (receipts, index pages...) are not ``listed`` one by one, only counted."""

    source: str
    reason: str
    kind: str = "other file"
    listed: bool = True
