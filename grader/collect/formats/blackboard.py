"""Blackboard Learn Grade Center "Assignment File Download".

``<assignment name>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>_<original file name>``, flat, with one receipt
per attempt, ``<assignment name>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>.txt``, whose first line is
``Name: <full name> (<username>)``. Both the assignment name and the username may contain underscores,
so a file name alone may be split more than one way: the receipt, else the roster, decides. The time
is the server's local time (``--timezone``).
"""

import datetime
import re

from ..found import Found, Identity, Ignored

ATTEMPT = re.compile(
    r"^(?P<prefix>[^_]+_.+)_attempt_(?P<time>\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2})"
    r"(?:_(?P<file>.+)|\.txt)$"
)
RECEIPT_NAME = re.compile(r"^[^:]+:\s*(?P<name>.*?)\s*\((?P<username>[^()\s]+)\)\s*$")


def read_notes(entries, context):
    """Each receipt's username, by ``(prefix, time)``."""
    receipts = context.notes.setdefault("blackboard", {})
    for entry in entries:
        match = ATTEMPT.match(entry.path.name)
        if match and match["file"] is None:
            first = entry.read()[:4096].decode("utf-8", "replace").lstrip("\ufeff").splitlines()[:1]
            named = RECEIPT_NAME.match(first[0]) if first else None
            if named and match["prefix"].endswith(f"_{named['username']}"):
                receipts[(match["prefix"], match["time"])] = (named["username"], named["name"])


def parse(entry, context):
    match = ATTEMPT.match(entry.path.name)
    if not match:
        return None
    if match["file"] is None:
        return Ignored(
            entry.path.as_posix(), "Blackboard receipt (read for the username)", "Blackboard receipt", listed=False
        )
    prefix = match["prefix"]
    receipt = context.notes["blackboard"].get((prefix, match["time"]))
    if receipt:
        usernames, name = (receipt[0],), receipt[1]
    else:
        usernames, name = candidates(prefix, context.assignment), None
    submitted = parse_time(match["time"], context.timezone)
    identity = Identity("blackboard", " or ".join(usernames), name=name, usernames=usernames)
    return Found(entry.path.as_posix(), identity, match["file"], entry.read, submitted_at=submitted)


def candidates(prefix, assignment):
    """Every username ``<assignment name>_<username>`` can end with, longest last."""
    if prefix.startswith(f"{assignment}_") and len(prefix) > len(assignment) + 1:
        return (prefix[len(assignment) + 1 :],)
    parts = prefix.split("_")
    return tuple("_".join(parts[i:]) for i in range(len(parts) - 1, 0, -1))


def parse_time(text, timezone):
    """``YYYY-MM-DD-HH-MM-SS`` in the server's time zone, as naive UTC."""
    local = datetime.datetime.strptime(text, "%Y-%m-%d-%H-%M-%S").replace(tzinfo=timezone)
    return local.astimezone(datetime.UTC).replace(tzinfo=None)
