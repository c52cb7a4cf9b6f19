"""Writing a grade sheet: every field quoted as CSV needs, and nothing a spreadsheet would run as a formula."""

import csv
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")  # a plain number is no formula: -3 stays a number


def neutral(value):
    """``value`` as text; one that starts like a formula gets a leading apostrophe (OWASP's advice)."""
    text = value if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(text) else text


def write(path, header, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, quoting=csv.QUOTE_MINIMAL)
        writer.writerow([neutral(v) for v in header])
        writer.writerows([[neutral(v) for v in row] for row in rows])
