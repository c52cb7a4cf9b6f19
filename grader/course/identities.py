"""Each student's LMS identity, as collect last read it from a download: written by collect, read by export's
LMS sheets (``collected/<assignment>/identities.json``)."""

import json


def identities_path(course):
    return course.collected / "identities.json"


def identities(course):
    """{student: the LMS identity of their latest collected file} (empty before any collection)."""
    path = identities_path(course)
    return json.loads(path.read_text()) if path.exists() else {}
