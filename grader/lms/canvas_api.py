"""Grades into Canvas through its REST API with a teacher's access token, over ``canvasapi``: the course's
students, the assignment found (or created) by name, and every score in one bulk update whose progress is
polled.

Canvas throttles a token with HTTP 403 "Rate Limit Exceeded" (429 on newer sites) and ``canvasapi`` raises on
it without retrying, so every request here is retried after growing waits (Canvas's "Throttling" page).
"""

import json
import re
import time

import requests
from canvasapi import Canvas
from canvasapi.exceptions import (
    CanvasException,
    Forbidden,
    InvalidAccessToken,
    RateLimitExceeded,
    ResourceDoesNotExist,
    Unauthorized,
)

from .errors import LmsError
from .people import LmsUser, Outcome, one_line, points

# Seconds one request may wait for Canvas's answer (canvasapi sets no limit: a site that never answers would hold
# the passback forever).
TIMEOUT = 60
# Seconds waited before each retry of a throttled request; after the last, the passback stops.
RATE_LIMIT_WAITS = (2, 4, 8, 16, 32)
# How long the bulk update's progress is polled, in seconds, and the longest wait between two polls.
PROGRESS_LIMIT = 300
PROGRESS_MAX_WAIT = 16
# How a bulk update names the users it could not find (Canvas's Submission.process_bulk_update).
MISSING_USERS = "Couldn't find User(s) with API ids"


class CanvasGrades:
    """One Canvas course, with the access token of one of its teachers."""

    def __init__(self, url, token, course_id, *, sleep=time.sleep):
        self._url = url.rstrip("/")
        self._token = token
        self._sleep = sleep
        if not str(course_id).isdigit():
            raise LmsError(
                f"the Canvas course id must be the number in the course's address (/courses/<id>), "
                f"not {one_line(course_id, token)!r}"
            )
        self._course_id = int(course_id)
        try:
            self._canvas = Canvas(self._url, token)
        except ValueError:
            raise LmsError(
                f"the Canvas URL {self._url!r} must be the site's address without /api/v1 "
                "(as https://canvas.example.edu)"
            ) from None
        session = self._canvas._Canvas__requester._session  # the one session canvasapi sends every request through
        session.request = _with_timeout(session.request)
        self._course = None

    def users(self):
        """The course's students, with their e-mails, SIS ids and logins where Canvas shows them."""
        course = self._the_course()
        students = self._call(
            lambda: list(course.get_users(enrollment_type=["student"], include=["email"])),
            "listing the course's students",
        )
        return [
            LmsUser(
                str(s.id),
                s.name,
                getattr(s, "email", None),
                getattr(s, "sis_user_id", None),
                getattr(s, "login_id", None),
            )
            for s in students
        ]

    def post(self, assignment_name, maximum, scores):
        """Posts ``scores`` (Canvas user id → points) to the assignment named ``assignment_name`` in one bulk
        update, and returns Canvas's answer for each user."""
        if not scores:
            return {}
        assignment = self._assignment(assignment_name, maximum)
        grade_data = {user: {"posted_grade": points(score)} for user, score in scores.items()}
        progress = self._call(
            lambda: assignment.submissions_bulk_update(grade_data=grade_data),
            f"posting the grades of {assignment_name!r}",
        )
        return _outcomes(self._finished(progress), scores, self._token)

    def _the_course(self):
        if self._course is None:
            self._course = self._call(
                lambda: self._canvas.get_course(self._course_id), f"reading course {self._course_id}"
            )
        return self._course

    def _assignment(self, name, maximum):
        """The course's published assignment named ``name``, worth ``maximum`` points; created if missing."""
        course = self._the_course()
        found = self._call(
            lambda: [a for a in course.get_assignments(search_term=name) if a.name == name],
            f"looking for the assignment {name!r}",
        )
        if not found:
            return self._call(
                lambda: course.create_assignment(
                    {
                        "name": name,
                        "points_possible": points(maximum),
                        "grading_type": "points",
                        "submission_types": ["none"],
                        "published": True,
                    }
                ),
                f"creating the assignment {name!r}",
            )
        if len(found) > 1:
            raise LmsError(
                f"Canvas course {self._course_id} has {len(found)} assignments named {name!r}: "
                "rename all but one in Canvas"
            )
        assignment = found[0]
        if not getattr(assignment, "published", True):
            raise LmsError(
                f"the Canvas assignment {name!r} is unpublished, and Canvas grades only published "
                "assignments: publish it in Canvas"
            )
        if not _same(assignment.points_possible or 0, maximum):
            worth = points(assignment.points_possible or 0)
            raise LmsError(
                f"the Canvas assignment {name!r} is worth {worth} points and the kit's maximum is "
                f"{points(maximum)}: set its points to {points(maximum)} in Canvas"
            )
        return assignment

    def _finished(self, progress):
        """The bulk update's progress once completed or failed, or as it stands after ``PROGRESS_LIMIT``."""
        waited, wait = 0, 1
        while progress.workflow_state not in ("completed", "failed") and waited < PROGRESS_LIMIT:
            self._sleep(wait)
            waited += wait
            wait = min(2 * wait, PROGRESS_MAX_WAIT)
            progress = self._call(progress.query, "polling the bulk update's progress")
        return progress

    def _call(self, request, doing):
        """``request()``, retried while Canvas's rate limit refuses it; Canvas's refusal as an ``LmsError``."""
        for wait in (*RATE_LIMIT_WAITS, None):
            try:
                return request()
            except Forbidden as error:
                if not _throttled(error):
                    raise self._refused(error, doing) from None
                if wait is None:
                    raise LmsError(
                        f"Canvas's rate limit still refused {doing} after {len(RATE_LIMIT_WAITS)} "
                        f"retries over {sum(RATE_LIMIT_WAITS)} s: wait a few minutes, then run the "
                        "passback again"
                    ) from None
                self._sleep(wait)
            except (CanvasException, requests.RequestException) as error:
                raise self._refused(error, doing) from None

    def _refused(self, error, doing):
        """What to fix, in one line, for Canvas's (or the network's) refusal of ``doing``."""
        said = _says(error, self._token)
        if isinstance(error, InvalidAccessToken):
            return LmsError(
                f"Canvas refused the access token ({said or 'Invalid access token'}): make a new "
                "one in Canvas (Account → Settings → Approved Integrations → New Access Token) and "
                "set it again"
            )
        if isinstance(error, (Unauthorized, Forbidden)):
            return LmsError(
                f"Canvas refused {doing} in course {self._course_id} ({said}): use the access "
                "token of a teacher of the course"
            )
        if isinstance(error, ResourceDoesNotExist):
            return LmsError(
                f"Canvas found nothing when {doing} (404 Not Found): check the course id "
                f"{self._course_id} (the number in /courses/<id>) and the Canvas URL {self._url}"
            )
        if isinstance(error, requests.JSONDecodeError):
            return LmsError(
                f"{self._url} did not answer as Canvas when {doing}: check the Canvas URL "
                "(the site's address, as https://canvas.example.edu)"
            )
        if isinstance(error, requests.Timeout):
            return LmsError(
                f"Canvas at {self._url} did not answer within {TIMEOUT} s when {doing}: try again later "
                "(what was posted before is kept), or check the Canvas URL"
            )
        if isinstance(error, requests.RequestException):
            return LmsError(f"cannot reach Canvas at {self._url} ({type(error).__name__}): check the Canvas URL")
        return LmsError(f"Canvas answered an error when {doing}: {said}")


def _with_timeout(request):
    """``requests.Session.request`` with ``TIMEOUT`` as the timeout of a request that gives none."""

    def timed(method, url, **options):
        options.setdefault("timeout", TIMEOUT)
        return request(method, url, **options)

    return timed


def _same(worth, maximum):
    """Whether an assignment's points are the kit's maximum, but for float rounding."""
    return abs(worth - maximum) < 1e-6


def _says(error, token):
    """Canvas's own words in an error: the ``errors`` messages of its JSON answer, or its text."""
    message = getattr(error, "message", error)
    if isinstance(message, str):
        try:
            message = json.loads(message)
        except ValueError:
            pass
    if isinstance(message, dict):
        message = message.get("errors", message)
    if isinstance(message, list):
        message = "; ".join(str(m.get("message", m)) if isinstance(m, dict) else str(m) for m in message)
    return one_line(message, token)


def _throttled(error):
    return isinstance(error, RateLimitExceeded) or "Rate Limit Exceeded" in str(error)


def _outcomes(progress, scores, token):
    """Each user's outcome from the bulk update's last progress: a failure names the users Canvas could not
    find, and only those failed; any other failure, or no end in time, fails them all."""
    said = one_line(getattr(progress, "message", None) or "", token)
    if progress.workflow_state == "completed":
        return {user: Outcome(True, f"Canvas progress {progress.id}: completed") for user in scores}
    if progress.workflow_state != "failed":
        late = Outcome(
            False,
            f"Canvas progress {progress.id} was still {progress.workflow_state} after "
            f"{PROGRESS_LIMIT} s: check the Canvas gradebook, then post again",
        )
        return {user: late for user in scores}
    message = progress.message or ""
    ids = message.removeprefix(MISSING_USERS) if message.startswith(MISSING_USERS) else ""
    missing = set(re.findall(r"'([^']*)'", ids))
    if not missing & scores.keys():
        return {
            user: Outcome(False, f"Canvas progress {progress.id} failed: {said or 'no message'}") for user in scores
        }
    graded = f"Canvas progress {progress.id}: graded ({len(missing)} other users not found)"
    return {
        user: Outcome(False, f"Canvas progress {progress.id} failed for this user: {said}")
        if user in missing
        else Outcome(True, graded)
        for user in scores
    }
