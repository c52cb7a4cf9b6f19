"""Brightspace (D2L) "Download" of an assignment folder's submissions.

``<submission id>-<file id> - <First Last> - <Mon D, YYYY HMM AM> - <file>`` flat, or the same prefix as a
folder holding the files; the download adds an ``index.html``. The time has no colon and is in the
downloading user's time zone (``--timezone``).
"""

import datetime
import re

from ..found import Found, Identity, Ignored

WHEN = r"(?P<when>[A-Z][a-z]{2} \d{1,2}, \d{4} \d{3,4} [AP]M)"
NAME = re.compile(rf"(?:^|/)(?P<submission>\d+)-(?P<file_id>\d+) - (?P<name>.+?) - {WHEN}(?: - |/)(?P<file>[^/]+)$")
TIME = "%b %d, %Y %I%M %p"


def read_notes(entries, context):
    pass


def parse(entry, context):
    path = entry.path.as_posix()
    if entry.path.name == "index.html":
        return Ignored(path, "Brightspace index page", "Brightspace index page", listed=False)
    match = NAME.search(path)
    submitted = parse_time(match["when"], context.timezone) if match else None
    if submitted is None:
        return None
    identity = Identity("brightspace", match["name"], name=match["name"])
    return Found(
        path,
        identity,
        match["file"],
        entry.read,
        submitted_at=submitted,
        version=(int(match["submission"]), int(match["file_id"])),
    )


def parse_time(text, timezone):
    """``Mon D, YYYY HMM AM`` in the given time zone, as naive UTC (None when it is no such time).
    The hour is padded to two digits first: ``105 PM`` is 1:05 PM, not 10:05."""
    try:
        local = datetime.datetime.strptime(re.sub(r" (\d{3}) ", r" 0\1 ", text), TIME)
    except ValueError:
        return None
    return local.replace(tzinfo=timezone).astimezone(datetime.UTC).replace(tzinfo=None)
