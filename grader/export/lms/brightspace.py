"""Brightspace grades import: ``OrgDefinedId, Username, <Item> Points Grade, End-of-Line Indicator``.

A row needs a Username or an OrgDefinedId (both when known); each row ends with ``#``.
"""

from ...cli.errors import UsageError


def sheet(totals, column):
    header = ["OrgDefinedId", "Username", f"{column} Points Grade", "End-of-Line Indicator"]
    rows = [[t.lms_user_id, t.student, t.score, "#"] for t in totals]
    return header, rows, []


def check_column(column):
    if not column or column.endswith("Points Grade"):
        raise UsageError(f"Brightspace needs --column '<grade item name>' (' Points Grade' is added), not {column!r}")
