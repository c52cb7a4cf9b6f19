"""``roster``: the LMS course's students into nbgrader's gradebook (ids, names, e-mails, the LMS's user id).

A student already in the gradebook is matched by e-mail, then by LMS id, and gets what the gradebook lacks; a new
one is added under their SIS id, else their login, else the part of their e-mail before the @."""

import re
from dataclasses import dataclass, field

from ..cli.counts import count
from ..course import Course
from ..course.gradebook import students
from .routes import open_route

SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass
class RosterReport:
    route: str
    added: list = field(default_factory=list)  # (student, user id)
    matched: list = field(default_factory=list)  # (student, user id, how, note)
    unmatched: list = field(default_factory=list)  # (LMS user shown, why)
    absent: list = field(default_factory=list)  # gradebook students the LMS does not list

    def __str__(self):
        lines = [
            f"roster --{self.route}: {count(len(self.added), 'student')} added, {len(self.matched)} matched, "
            f"{len(self.unmatched)} could not be matched"
        ]
        lines += [f"  added {s} (LMS user {u})" for s, u in self.added]
        lines += [f"  matched {s} (LMS user {u}) {how}{note}" for s, u, how, note in self.matched]
        lines += [f"  could not match {shown}: {why}" for shown, why in self.unmatched]
        if self.absent:
            lines.append(f"  in the gradebook, not in the LMS's roster: {', '.join(self.absent)}")
        return "\n".join(lines)


def roster(course=".", assignment="self_attention", route=None):
    """Read the LMS course's students by ``route`` ('lti': NRPS; 'canvas', 'moodle': their REST APIs) and write
    them into the gradebook; return a :class:`RosterReport`."""
    course = Course.at(course, assignment)
    users = open_route(course, route).users()
    known = students(course)
    report = RosterReport(route)
    seen, taken = set(), {p.id for p in known}
    with course.gradebook() as book:
        for user in users:
            person, how = _find(user, known)
            first, last = _names(user.name)
            if person is not None:
                seen.add(person.id)
                note = _update(book, person, user, first, last)
                report.matched.append((person.id, user.user_id, how, note))
                continue
            new_id, why = _new_id(user, taken)
            if new_id is None:
                report.unmatched.append((f"{user.name or user.user_id} ({user.email or 'no e-mail'})", why))
                continue
            book.update_or_create_student(
                new_id, first_name=first, last_name=last, email=user.email or None, lms_user_id=user.user_id
            )
            report.added.append((new_id, user.user_id))
            taken.add(new_id)
    report.absent = [p.id for p in known if p.id not in seen]
    return report


def _find(user, known):
    email = (user.email or "").casefold()
    for how, same in (
        ("by e-mail", lambda p: bool(email) and p.email.casefold() == email),
        ("by LMS id", lambda p: p.lms_user_id == user.user_id),
    ):
        hits = [p for p in known if same(p)]
        if len(hits) == 1:
            return hits[0], how
    return None, None


def _update(book, person, user, first, last):
    """Fill what the gradebook lacks; keep an LMS id it already has (another LMS's, say Canvas's), and say so."""
    fill = {
        "first_name": person.first_name or first,
        "last_name": person.last_name or last,
        "email": person.email or user.email or None,
        "lms_user_id": person.lms_user_id or user.user_id,
    }
    book.update_or_create_student(person.id, **fill)
    if person.lms_user_id and person.lms_user_id != user.user_id:
        return f"; kept its lms_user_id {person.lms_user_id}, not the LMS's {user.user_id}"
    return ""


def _new_id(user, taken):
    local = (user.email or "").split("@")[0]
    for candidate in (user.sis_id, user.login_id, local):
        if candidate and SAFE_ID.fullmatch(candidate):
            if candidate in taken:
                return None, f"its id {candidate} is another student's in the gradebook (e-mails differ)"
            return candidate, None
    return None, "no SIS id, login or e-mail to make a student id from: add the student by hand"


def _names(full):
    parts = (full or "").split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else ((parts[0] if parts else ""), "")
