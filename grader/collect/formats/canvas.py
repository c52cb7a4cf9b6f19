"""Canvas "Download Submissions": ``<name>_[LATE_]<user id>_<attachment id>_<file>``, flat.

From Canvas's ``ContentZipper#get_filename``: the name is the student's sortable name ("Doe, Jane"),
lower-cased, with every non-word character removed (``doejane``; letters of any script stay) and any
``_<digits>_`` run squeezed out; anonymous grading drops the name and uses ``anon_<anonymous id>``;
``LATE`` marks a late submission. An anonymous student is known by ``anon_<id>`` or, as Canvas shows it, ``<id>``;
with no roster, ``anon_<id>`` is their student id. A re-uploaded file gets ``-1``, ``-2``... before its extension.
The download holds each student's current submission only and no submission time.
"""

import re

from ..found import Found, Identity

NAME = re.compile(
    r"^(?:(?P<name>\w+?)_)??(?P<late>LATE_)?(?P<user>\d+|anon_[A-Za-z0-9]+)_(?P<attachment>\d+)"
    r"_(?P<file>.+)$"
)
RESUBMITTED = re.compile(r"^(?P<stem>.+?)-(?P<n>\d+)(?P<ext>\.[^.]+)$")


def read_notes(entries, context):
    pass


def parse(entry, context):
    match = NAME.match(entry.path.name)
    if not match:
        return None
    original, again = strip_resubmission(match["file"])
    anonymous = match["user"].startswith("anon_")
    identity = Identity(
        "canvas",
        match["name"] or match["user"],
        user_id=match["user"],
        name=match["name"],
        anonymous=anonymous,
        usernames=(match["user"],) if anonymous else (),
        aliases=(match["user"].removeprefix("anon_"),) if anonymous else (),
    )
    return Found(
        entry.path.as_posix(),
        identity,
        original,
        entry.read,
        version=(int(match["attachment"]), again),
        late=bool(match["late"]),
    )


def strip_resubmission(file):
    """(original file name, n) for ``name-n.ext``; (file, 0) when there is no suffix."""
    match = RESUBMITTED.match(file)
    if not match:
        return file, 0
    return f"{match['stem']}{match['ext']}", int(match["n"])


def name_key(first, last):
    """The name as Canvas writes it in a download, from a roster's first and last names."""
    return re.sub(r"\W", "", f"{last}, {first}".lower()) if (first or last) else None
