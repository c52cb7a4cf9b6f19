"""Grades into Moodle through its REST web services with a teacher's token: the course's students
(``core_enrol_get_enrolled_users``), the assignment found by name (``mod_assign_get_assignments``; web
services cannot create one) and the scores (``mod_assign_save_grades``).

Moodle answers a refusal with HTTP 200 and a JSON ``{"exception", "errorcode", "message"}``. The token travels
in the POST body, never in a URL that a proxy or an error message could show.
"""

import html
import time

import requests

from .errors import LmsError
from .people import LmsUser, Outcome, one_line, points

SERVER = "/webservice/rest/server.php"
TIMEOUT = 60
# Seconds waited before each retry of a request that a busy site (or one in maintenance) answered 429 or 503.
BUSY_WAITS = (2, 4, 8, 16, 32)
TOKEN_ERRORS = {"invalidtoken", "invalidtimedtoken", "invalidiptoken"}
# Refusals that no other student or request would change: the passback stops on them.
STOPPING_ERRORS = TOKEN_ERRORS | {"accessexception", "nopermissions", "requireloginerror", "errorcoursecontextnotvalid"}


class Refused(Exception):
    """Moodle's refusal of one request, as ``errorcode: message``."""


class MoodleGrades:
    """One Moodle course, with the web-service token of one of its teachers."""

    def __init__(self, url, token, course_id, *, sleep=time.sleep):
        self._url = url.rstrip("/")
        self._token = token
        self._sleep = sleep
        if not str(course_id).isdigit():
            raise LmsError(
                "the Moodle course id must be the number after id= in the course's address "
                f"(course/view.php?id=<id>), not {one_line(course_id, token)!r}"
            )
        self._course_id = int(course_id)
        self._session = requests.Session()

    def users(self):
        """The course's students (role ``student``), with their e-mails, id numbers and usernames."""
        people = self._course_call("core_enrol_get_enrolled_users", {"courseid": self._course_id})
        return [
            LmsUser(
                str(p["id"]),
                p["fullname"],
                p.get("email") or None,
                p.get("idnumber") or None,
                p.get("username") or None,
            )
            for p in people
            if any(role.get("shortname") == "student" for role in p.get("roles", []))
        ]

    def post(self, assignment_name, maximum, scores):
        """Saves ``scores`` (Moodle user id → points) as the grades of the assignment named
        ``assignment_name``, and returns Moodle's answer for each user."""
        if not scores:
            return {}
        assignment = self._assignment(assignment_name, maximum)
        saved = Outcome(
            True,
            "saved, not yet released (marking workflow): release the grades in Moodle"
            if assignment.get("markingworkflow")
            else "saved",
        )
        try:
            self._save(assignment["id"], scores)
            return dict.fromkeys(scores, saved)
        except Refused:
            pass  # one grade stopped the batch part-way: each is saved again on its own, which only repeats it
        outcomes = {}
        for user, score in scores.items():
            try:
                self._save(assignment["id"], {user: score})
                outcomes[user] = saved
            except Refused as refusal:
                outcomes[user] = Outcome(False, f"Moodle refused the grade ({refusal})")
        return outcomes

    def _assignment(self, name, maximum):
        """The course's assignment named ``name``, graded in points out of ``maximum``."""
        answer = self._course_call("mod_assign_get_assignments", {"courseids": [self._course_id]})
        courses = [c for c in answer.get("courses", []) if c.get("id") == self._course_id]
        if not courses:
            said = "; ".join(one_line(w.get("message", ""), self._token) for w in answer.get("warnings", []))
            raise LmsError(
                f"Moodle course {self._course_id} is not open to the token's user "
                f"({said or 'not among its courses'}): enrol that user in the course as a teacher, "
                "or check the course id"
            )
        found = [a for a in courses[0].get("assignments", []) if html.unescape(a["name"]).strip() == name]
        if not found:
            raise LmsError(
                f"Moodle course {self._course_id} has no assignment named {name!r}, and web services "
                f"cannot create one: add an Assignment named {name!r} with maximum grade "
                f"{points(maximum)} to the course in Moodle"
            )
        if len(found) > 1:
            raise LmsError(
                f"Moodle course {self._course_id} has {len(found)} assignments named {name!r}: "
                "rename all but one in Moodle"
            )
        assignment = found[0]
        if assignment["grade"] <= 0:
            raise LmsError(
                f"the Moodle assignment {name!r} is not graded in points (a scale, or no grade): "
                f"set its grade type to Point, maximum grade {points(maximum)}"
            )
        if abs(assignment["grade"] - maximum) >= 1e-6:
            raise LmsError(
                f"the Moodle assignment {name!r} has maximum grade {points(assignment['grade'])} and "
                f"the kit's maximum is {points(maximum)}: set its maximum grade to {points(maximum)} "
                "in Moodle"
            )
        return assignment

    def _save(self, assignment_id, scores):
        """``mod_assign_save_grades`` for the latest attempt of each student, with no new attempt, the marking
        workflow's state left as it is, and no feedback (``plugindata`` is optional)."""
        self._call(
            "mod_assign_save_grades",
            {
                "assignmentid": assignment_id,
                "applytoall": 0,
                "grades": [
                    {"userid": user, "grade": points(score), "attemptnumber": -1, "addattempt": 0, "workflowstate": ""}
                    for user, score in scores.items()
                ],
            },
        )

    def _course_call(self, function, params):
        """``function`` on the course: a refusal, a course that does not exist included, stops the passback."""
        try:
            return self._call(function, params)
        except Refused as refusal:
            if refusal.args[0].startswith("invalidrecord:"):
                raise LmsError(
                    f"Moodle has no course {self._course_id} ({refusal}): check the course id (the "
                    "number after id= in the course's address)"
                ) from None
            raise LmsError(f"Moodle refused {function} ({refusal})") from None

    def _call(self, function, params):
        """Moodle's JSON answer to ``function``; ``Refused`` for a refusal that concerns this request only."""
        data = {"wstoken": self._token, "wsfunction": function, "moodlewsrestformat": "json", **_form(params)}
        for wait in (*BUSY_WAITS, None):
            try:
                response = self._session.post(self._url + SERVER, data=data, timeout=TIMEOUT)
            except requests.RequestException as error:
                raise LmsError(
                    f"cannot reach Moodle at {self._url} ({type(error).__name__}): check the Moodle URL"
                ) from None
            if response.status_code not in (429, 503):
                break
            if wait is None:
                raise LmsError(
                    f"Moodle at {self._url} stayed busy (HTTP {response.status_code}) after "
                    f"{len(BUSY_WAITS)} retries over {sum(BUSY_WAITS)} s: try again later"
                )
            self._sleep(wait)
        try:
            answer = response.json()
        except ValueError:
            raise LmsError(
                f"{self._url} did not answer as Moodle's REST web services (HTTP "
                f"{response.status_code}): check the Moodle URL (the site's address, as "
                "https://moodle.example.edu) and that the REST protocol is enabled (Site "
                "administration → Server → Web services → Manage protocols)"
            ) from None
        if isinstance(answer, dict) and "exception" in answer:
            code = str(answer.get("errorcode", ""))
            said = one_line(answer.get("message", ""), self._token)
            if code in STOPPING_ERRORS:
                raise LmsError(self._stopping(code, said, function))
            raise Refused(f"{code}: {said}")
        return answer

    def _stopping(self, code, said, function):
        """What to fix, in one line, for a refusal that stops the passback."""
        if code in TOKEN_ERRORS:
            return (
                f"Moodle rejected the web-service token ({said}): make a token for the kit's service in "
                "Site administration → Server → Web services → Manage tokens, and set it again"
            )
        if code == "accessexception":
            return (
                f"Moodle refused {function} ({said}): add {function} to the token's external service "
                "(Site administration → Server → Web services → External services → Functions)"
            )
        return (
            f"Moodle refused {function} in course {self._course_id} ({said}): enrol the token's user in the "
            "course as a teacher"
        )


def _form(params, prefix=""):
    """``params`` as the form fields that Moodle's REST server reads: ``grades[0][userid]``..."""
    fields = {}
    for key, value in params.items():
        name = f"{prefix}[{key}]" if prefix else key
        if isinstance(value, list):
            value = dict(enumerate(value))
        if isinstance(value, dict):
            fields.update(_form(value, name))
        else:
            fields[name] = value
    return fields
