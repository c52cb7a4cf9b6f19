"""Blackboard Learn Grade Center "Upload Full Grade Center": ``Last Name, First Name, Username`` and the column.

The column's header must end with its Grade Center id, ``<name> [Total Pts: <points> Score] |<column id>``,
as in a Grade Center download; rows are matched by ``Username``.
"""

from ...cli.errors import UsageError


def sheet(totals, column):
    header = ["Last Name", "First Name", "Username", column]
    rows = [[t.last_name, t.first_name, _username(t), t.score] for t in totals]
    return header, rows, []


def _username(total):
    usernames = total.identity.get("usernames") or []
    return usernames[0] if total.identity.get("lms") == "blackboard" and len(usernames) == 1 else total.student


def check_column(column):
    if not column or "|" not in column:
        raise UsageError(
            "Blackboard needs --column '<name> [Total Pts: <points> Score] |<column id>', as in a "
            f"Grade Center download, not {column!r}"
        )
