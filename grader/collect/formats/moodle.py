"""Moodle assignment "Download all submissions", folder mode and flat mode.

From Moodle's ``mod/assign`` ``download_submissions``: each file is prefixed with
``<full name>_<participant id>_assignsubmission_file`` (underscores in the full name become spaces;
with blind marking the full name is "Participant"). Folder mode (the default since Moodle 3.1) puts the
files in that folder (older versions end the folder's name with ``_``); flat mode appends ``_<file>``.
Online text comes as ``_assignsubmission_onlinetext``. No submission time is in the download.
"""

import re

from ..found import Found, Identity, Ignored

PREFIX = r"(?P<name>[^_/]+)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)"
FOLDER = re.compile(rf"(?:^|/){PREFIX}_?/(?P<file>.+)$")
FLAT = re.compile(rf"(?:^|/){PREFIX}_(?P<file>[^/]+)$")
BLIND_NAMES = {"participant"}


def read_notes(entries, context):
    pass


def parse(entry, context):
    path = entry.path.as_posix()
    match = FOLDER.search(path) or FLAT.search(path)
    if not match:
        return None
    if match["plugin"] != "file":
        return Ignored(path, f"Moodle {match['plugin']} submission, not a file")
    anonymous = match["name"].strip().lower() in BLIND_NAMES
    identity = Identity(
        "moodle",
        f"{match['name']} ({match['id']})",
        user_id=match["id"],
        name=None if anonymous else match["name"],
        anonymous=anonymous,
    )
    return Found(path, identity, match["file"].rsplit("/", 1)[-1], entry.read)
