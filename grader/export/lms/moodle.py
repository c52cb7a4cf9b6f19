"""Moodle assignment "Upload grading worksheet": the offline grading worksheet's columns.

Moodle's importer needs ``Identifier`` (``Participant <id>``, the id of the download's folder names),
``Grade`` and ``Last modified (grade)``: a grade changed in Moodle after that time is not overwritten.
"""

import datetime

COLUMNS = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Grade can be changed",
    "Last modified (submission)",
    "Last modified (grade)",
    "Feedback comments",
]


def sheet(totals, column, now=None):
    stamp = (now or datetime.datetime.now(datetime.UTC)).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    rows, omitted = [], []
    for t in totals:
        participant = t.lms_id("moodle")
        if not participant:
            omitted.append((t.student, "no Moodle participant id (collect a Moodle download, or fill lms_user_id)"))
            continue
        name = f"{t.first_name} {t.last_name}".strip() or t.identity.get("name") or t.student
        rows.append([f"Participant {participant}", name, t.email, "", t.score, t.max_score, "Yes", "", stamp, ""])
    return COLUMNS, rows, omitted


def check_column(column):
    pass
