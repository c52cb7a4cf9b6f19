"""Canvas gradebook import: ``Student, ID, SIS User ID, SIS Login ID, Section, <Title> (<assignment id>)``.

Canvas matches a row by ``ID`` (its user id) and the column by the assignment id in parentheses; a
column titled otherwise would become a new assignment. The second row gives the points possible.
"""

from ...cli.errors import UsageError


def sheet(totals, column):
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column]
    rows = [["    Points Possible", "", "", "", "", _max(totals)]]
    omitted = []
    for t in totals:
        user = t.lms_id("canvas")
        if not user:
            omitted.append((t.student, "no Canvas user id (collect a Canvas download, or fill lms_user_id)"))
            continue
        rows.append([f"{t.last_name}, {t.first_name}" if t.last_name else t.student, user, "", "", "", t.score])
    return header, rows, omitted


def check_column(column):
    if not column or not column.endswith(")") or "(" not in column:
        raise UsageError(
            f"Canvas needs --column '<title> (<assignment id>)', as in its gradebook export, not {column!r}"
        )


def _max(totals):
    return totals[0].max_score if totals else 0.0
