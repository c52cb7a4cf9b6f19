"""The course's students (nbgrader's gradebook or a roster CSV), and which one an LMS identity names."""

import csv
import re
import unicodedata

from ..cli.errors import UsageError
from ..course.gradebook import Person
from ..course.gradebook import students as gradebook_students
from .formats import canvas

SAFE_ID = re.compile(r"^[\w@+-][\w.@+-]*$")  # letters of any script, digits, _ . @ + -; no leading dot


def load(course, roster_csv=None):
    """The roster CSV (nbgrader's ``db student import`` columns: id, first_name, last_name, email,
    lms_user_id) when given, else the students of the course's gradebook."""
    return _read_csv(roster_csv) if roster_csv else gradebook_students(course)


def _read_csv(path):
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = csv.DictReader(handle)
            if "id" not in (rows.fieldnames or []):
                raise UsageError(
                    f"the roster {path} has no id column (its first line names the columns: "
                    f"{', '.join(Person.__dataclass_fields__)})"
                )
            return [
                Person(**{k: (row.get(k) or "").strip() for k in Person.__dataclass_fields__})
                for row in rows
                if (row.get("id") or "").strip()
            ]
    except (FileNotFoundError, IsADirectoryError):
        raise UsageError(f"no roster file {path}") from None
    except UnicodeDecodeError:
        raise UsageError(f"the roster {path} is not a CSV file in UTF-8") from None


def match(identity, students):
    """(student id, how it matched) or (None, why not): who the identity names, by id first, then by name."""
    if not students:
        return _without_roster(identity)
    strong = {s.id for s in students if _same_account(identity, s)}
    if len(strong) == 1:
        return _safe(strong.pop(), "by id")
    if strong:
        return None, f"ambiguous: {identity.shown} could be {', '.join(sorted(strong))}"
    if identity.anonymous:
        return None, (
            f"anonymous grading: {identity.shown} is on no roster row (put the LMS's anonymous id "
            "in the lms_user_id column)"
        )
    named = {s.id for s in students if identity.name and _same_name(identity, s)}
    if len(named) == 1:
        return _safe(named.pop(), "by name")
    if named:
        return None, f"ambiguous: {len(named)} students are called {identity.name} ({', '.join(sorted(named))})"
    return None, f"{identity.shown} is not on the roster"


def _without_roster(identity):
    if len(identity.usernames) == 1:
        return _safe(
            identity.usernames[0],
            f"no roster: the {'anonymous id' if identity.anonymous else 'username'} is the student id",
        )
    if identity.usernames:
        return None, f"ambiguous: the username could be {', '.join(identity.usernames)}; give a roster"
    return None, (
        f"no roster to match {identity.shown} against: add the students (nbgrader db student import) or pass --roster"
    )


def _same_account(identity, student):
    keys = {student.id, student.lms_user_id} - {""}
    ids = {identity.user_id, *identity.usernames} - {None, ""}
    return bool(
        keys & ids
        or (student.lms_user_id and student.lms_user_id in identity.aliases)
        or (identity.email and student.email and identity.email.casefold() == student.email.casefold())
    )


def _same_name(identity, student):
    if identity.lms == "canvas":
        return canvas.name_key(student.first_name, student.last_name) == identity.name
    full = _normal(f"{student.first_name} {student.last_name}")
    return bool(full) and full == _normal(identity.name)


def _normal(name):
    return " ".join(unicodedata.normalize("NFC", name or "").casefold().split())


def _safe(student_id, how):
    if SAFE_ID.match(student_id) and student_id not in (".", ".."):
        return student_id, how
    return None, f"unsafe student id {student_id!r}"
