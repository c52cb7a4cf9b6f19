"""Gradescope "Export Submissions": ``submission_<id>/<files>`` beside ``submission_metadata.yml``.

The metadata maps each ``submission_<id>`` to its ``:submitters:`` (``:name:``, ``:sid:``, ``:email:``)
and its ``:created_at:`` time, written with its UTC offset (``2026-03-02 17:45:10.123456 -0800``).
"""

import datetime
import re

import yaml

from ..found import Found, Identity, Ignored

METADATA = "submission_metadata.yml"
FOLDER = re.compile(r"^(?:.*/)?(?P<key>submission_\d+)/(?:.*/)?(?P<file>[^/]+)$")
# ``2026-03-02 17:45:10.123456789 -08:00`` as the export writes it, or ISO 8601 (``T``, no space before the offset).
CREATED = [
    f"%Y-%m-%d{between}%H:%M:%S{fraction}{space}%z"
    for between in " T"
    for fraction in (".%f", "")
    for space in (" ", "")
]


def read_notes(entries, context):
    """{folder: (submitter, created_at)} from every metadata file, keyed by the folder that holds it."""
    notes = context.notes.setdefault("gradescope", {})
    for entry in entries:
        if entry.path.name == METADATA:
            data = yaml.load(entry.read(), Loader=yaml.BaseLoader) or {}  # every value a string
            top = entry.path.parent.as_posix()
            for key, submission in data.items():
                submitters = submission.get(":submitters") or [{}]
                notes[(top, key.lstrip(":"))] = (submitters, parse_time(submission.get(":created_at", "")))


def parse(entry, context):
    path = entry.path.as_posix()
    if entry.path.name == METADATA:
        return Ignored(path, "Gradescope metadata (read for names and times)", "Gradescope metadata file", listed=False)
    match = FOLDER.match(path)
    if not match:
        return None
    top = path[: match.start("key")].rstrip("/") or "."
    known = context.notes["gradescope"].get((top, match["key"]))
    if known is None:
        return None
    submitters, created = known
    if len(submitters) != 1:
        return Ignored(path, f"Gradescope group submission ({len(submitters)} submitters): collect it by hand")
    who = submitters[0]
    identity = Identity(
        "gradescope",
        who.get(":name") or who.get(":sid") or match["key"],
        user_id=who.get(":sid") or None,
        name=who.get(":name") or None,
        email=who.get(":email") or None,
    )
    return Found(path, identity, match["file"], entry.read, submitted_at=created)


def parse_time(text):
    """Gradescope's ``:created_at:`` as naive UTC (None when absent). strptime reads at most six digits
    of a fraction of a second: the rest (Gradescope writes nanoseconds) is dropped first."""
    text = re.sub(r"(\.\d{6})\d+", r"\1", text.strip())
    for form in CREATED:
        try:
            created = datetime.datetime.strptime(text, form)
        except ValueError:
            continue
        return created.astimezone(datetime.UTC).replace(tzinfo=None)
    return None
