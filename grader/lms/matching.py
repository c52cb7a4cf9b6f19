"""Which LMS user each gradebook student is, as ``collect`` matches a download's files: by the LMS's user id
(the one ``collect`` read from that LMS's download, else the gradebook's ``lms_user_id``), then by e-mail, then
by a login or SIS id equal to the student's id."""


def match(totals, users, lms):
    """({student: (LmsUser, how)}, {student: why not}) for the export's ``totals`` and the LMS's ``users``
    (``lms``: 'lti', 'canvas' or 'moodle', to use the identity collect read from that LMS)."""
    found, missing = {}, {}
    for total in totals:
        user, how = _one(total, users, lms)
        if user is None:
            missing[total.student] = how
        else:
            found[total.student] = (user, how)
    taken = {}
    for student, (user, _) in found.items():
        taken.setdefault(user.user_id, []).append(student)
    for user_id, students in taken.items():
        if len(students) > 1:
            for student in students:
                del found[student]
                missing[student] = f"the LMS user {user_id} matches {len(students)} students ({', '.join(students)})"
    return found, missing


def _one(total, users, lms):
    ids = {total.lms_id(lms), total.lms_user_id} - {None, ""}
    email = (total.email or "").casefold()
    for how, same in (
        ("by LMS id", lambda u: u.user_id in ids),
        ("by e-mail", lambda u: bool(email) and (u.email or "").casefold() == email),
        ("by login", lambda u: total.student in (u.login_id, u.sis_id)),
    ):
        hits = [user for user in users if same(user)]
        if len(hits) == 1:
            return hits[0], how
        if hits:
            return None, f"{len(hits)} LMS users match {how.removeprefix('by ')}"
    return None, "not in the LMS's roster (no user with the student's LMS id, e-mail or login)"
