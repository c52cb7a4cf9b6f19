"""The three ways into the LMS, behind one face: ``users()``, ``target(assignment, maximum, create, force)``,
``post(assignment, maximum, [(Score, user id)])`` yielding each entry with its Outcome, ``describe(target)``."""

from ..cli.errors import UsageError
from . import config
from .people import Outcome

ROUTES = ("lti", "canvas", "moodle")


def open_route(course, route):
    """The course's LMS by ``route`` ('lti', 'canvas' or 'moodle'), its settings checked."""
    if route == "lti":
        from .lti import LtiCourse

        return LtiCourse(course)
    if route in ("canvas", "moodle"):
        return RestCourse(course, route)
    raise UsageError(
        "say which way into the LMS: --lti (an LTI 1.3 tool), --canvas (a Canvas token) or --moodle "
        "(a Moodle web-service token)"
    )


class RestCourse:
    """Canvas's or Moodle's REST API with a token from the environment: a bulk post per assignment."""

    def __init__(self, course, lms):
        if lms == "canvas":
            from .canvas_api import CanvasGrades as client

            kind, self.name = config.CanvasPassback, "Canvas"
        else:
            from .moodle_api import MoodleGrades as client

            kind, self.name = config.MoodlePassback, "Moodle"
        rest = config.settings(course, kind)  # its token included
        self.where = f"{self.name} course {rest.course_id} at {rest.url}"
        self.client = client(rest.url, config.token(rest), rest.course_id)

    def users(self):
        return self.client.users()

    def target(self, assignment, maximum, create, force=False):
        return self.where  # the assignment is found at post time, and one worth another maximum stops it

    def describe(self, target):
        return target

    def post(self, assignment, maximum, entries):
        outcomes = self.client.post(assignment, maximum, {user: score.score for score, user in entries})
        for score, user in entries:
            yield (score, user), outcomes.get(user, Outcome(False, f"{self.name} gave no answer for this user"))
