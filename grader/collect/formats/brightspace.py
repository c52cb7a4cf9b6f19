"""Brightspace (D2L) "Download" of an assignment folder's submissions.

``<submission id>-<file id> - <First Last> - <Mon D, YYYY HMM AM> - <file>`` flat, or the same prefix as a
folder holding the files; the download adds an ``index.html``. The time has no colon and is in the
downloading user's time zone (``--timezone``).
"""
import datetime
import re

from ..found import Found, Identity, Ignored

WHEN = r"(?P<month>[A-Z][a-z]{2}) (?P<day>\d{1,2}), (?P<year>\d{4}) (?P<hour>\d{1,2})(?P<minute>\d{2}) (?P<half>AM|PM)"
NAME = re.compile(rf"(?:^|/)(?P<submission>\d+)-(?P<file_id>\d+) - (?P<name>.+?) - {WHEN}(?: - |/)(?P<file>[^/]+)$")
MONTHS = {name: number for number, name in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], start=1)}


def read_notes(entries, context):
    pass


def parse(entry, context):
    path = entry.path.as_posix()
    if entry.path.name == "index.html":
        return Ignored(path, "Brightspace index page", "Brightspace index page", listed=False)
    match = NAME.search(path)
    if not match or match["month"] not in MONTHS:
        return None
    submitted = parse_time(match, context.timezone)
    identity = Identity("brightspace", match["name"], name=match["name"])
    return Found(path, identity, match["file"], entry.read, submitted_at=submitted,
                 version=(int(match["submission"]), int(match["file_id"])))


def parse_time(match, timezone):
    """``Mon D, YYYY HMM AM`` in the given time zone, as naive UTC."""
    hour = int(match["hour"])
    if not 1 <= hour <= 12:
        raise ValueError(f"hour {hour} in a 12-hour clock")
    hour = hour % 12 + (12 if match["half"] == "PM" else 0)
    local = datetime.datetime(int(match["year"]), MONTHS[match["month"]], int(match["day"]), hour,
                              int(match["minute"]), tzinfo=timezone)
    return local.astimezone(datetime.timezone.utc).replace(tzinfo=None)
