"""The kit as an LTI 1.3 tool, through pylti1p3: a token by the client-credentials grant with a JWT signed by the
kit's key (no user's launch needed), the course's members from NRPS, line items and scores through AGS.

pylti1p3's services take the URLs a launch would carry; here they come from the course's configuration. Its
connector is used as it is, but for four things: a token the platform refuses (expired) is asked for again once,
the next page is read from the ``Link`` header without lowercasing its URL, a line item can be updated (PUT, which
pylti1p3 lacks), and every refusal becomes one line that names what to fix (never the key, the assertion or the
token)."""

import datetime
import json

import requests
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.registration import Registration
from pylti1p3.service_connector import ServiceConnector

from . import config, keys
from .errors import LmsError
from .people import LmsUser, Outcome, points

LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
AGS_SCOPES = [LINEITEM, SCORE]
LINEITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
MEMBERSHIPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
LEARNER = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner", "Learner")
TIMEOUT = 30  # seconds for one request
# RFC 6749 5.2: the errors a token endpoint answers with. Any of them means the token URL is right.
OAUTH_ERRORS = {
    "invalid_request",
    "invalid_client",
    "invalid_grant",
    "unauthorized_client",
    "unsupported_grant_type",
    "invalid_scope",
}


class LmsUnreachable(LmsError):
    """The LMS did not answer (refused, reset, timed out): what was posted before is kept, the rest is not."""


class Connector(ServiceConnector):
    """pylti1p3's connector with a token asked again once when the platform refuses it, the ``Link`` header read
    as written, and its errors as :class:`LmsError`."""

    def __init__(self, registration, token_url):
        session = requests.Session()
        session.request = self._timed(session.request)
        super().__init__(registration, session)
        self.token_url = token_url
        self.last_answer = ""  # the status of the last response, e.g. '200 OK'

    def _timed(self, request):
        def timed(method, url, **options):
            options.setdefault("timeout", TIMEOUT)
            response = request(method, url, **options)
            self.last_answer = f"{response.status_code} {response.reason or ''}".strip()
            return response

        return timed

    def get_access_token(self, scopes):
        try:
            return super().get_access_token(scopes)
        except LtiServiceException as error:
            raise _token_refused(error.response, self.token_url) from None
        except (requests.JSONDecodeError, KeyError):
            raise LmsError(
                f"the token URL {self.token_url} answered with no access token: check c.LtiPassback.token_url"
            ) from None
        except requests.RequestException as error:
            raise LmsUnreachable(
                f"cannot reach the LMS's token URL {self.token_url} ({_why(error)}): check c.LtiPassback.token_url"
            ) from None

    def make_service_request(self, scopes, url, **options):
        reply = self._fresh(
            lambda: super(Connector, self).make_service_request(scopes, url, case_insensitive_headers=True, **options),
            url,
        )
        link = reply["headers"].get("Link")
        links = requests.utils.parse_header_links(link) if link else []
        reply["next_page_url"] = next((link["url"] for link in links if link.get("rel") == "next"), None)
        reply["headers"] = dict(reply["headers"])
        return reply

    def put(self, scopes, url, body, media_type):
        """PUT ``body`` (a dict, as JSON of ``media_type``) to ``url``; the platform's answer (a dict)."""

        def put():
            response = self._requests_session.put(
                url,
                data=json.dumps(body),
                headers={
                    "Authorization": "Bearer " + self.get_access_token(scopes),
                    "Content-Type": media_type,
                    "Accept": media_type,
                },
            )
            if not response.ok:
                raise LtiServiceException(response)
            return response.json() if response.content else body

        return self._fresh(put, url)

    def _fresh(self, request, url):
        """``request()``, asked again once with a new access token when the platform refuses the token (401)."""
        for attempt in (1, 2):
            try:
                return request()
            except LtiServiceException as error:
                if error.response.status_code == 401 and attempt == 1:
                    self._access_tokens.clear()  # expired or revoked: ask for a new one, once
                    continue
                raise
            except requests.JSONDecodeError:
                raise LmsError(
                    f"{url} answered with something that is not JSON: check the URL in "
                    "nbgrader_config.py (c.LtiPassback)"
                ) from None
            except requests.RequestException as error:
                raise LmsUnreachable(f"cannot reach {url} ({_why(error)})") from None


def _why(error):
    return type(error).__name__.replace("Error", " error").strip().lower()


def answer(response):
    """The LMS's answer in a few words: status, and its error code or message (never the request)."""
    words = f"{response.status_code} {response.reason or ''}".strip()
    body = _json(response)
    if isinstance(body, dict):
        said = body.get("error_description") or body.get("error") or body.get("message") or _messages(body)
        said = " ".join(str(said).split())[:160]
        return f"{words}: {said}" if said and said.casefold() != (response.reason or "").casefold() else words
    return words


def _messages(body):
    """Canvas's ``errors``: ``{"type", "message"}`` (a user not in the course), or a list of them."""
    errors = body.get("errors") or []
    errors = [errors] if isinstance(errors, dict) else errors
    return "; ".join(str(e.get("message", "")) if isinstance(e, dict) else str(e) for e in errors)


def _json(response):
    try:
        return response.json()
    except ValueError:
        return None


def _token_refused(response, token_url):
    """What to fix when the token URL refuses the kit: an answer with an OAuth error (RFC 6749 5.2) comes from a
    token endpoint, so the URL is right and the tool's registration is not; any other answer is a wrong URL (a
    bare 401 or 403 may also be a token endpoint that says no more)."""
    body = _json(response)
    error = body.get("error") if isinstance(body, dict) else None
    refused = f"the LMS refused the kit's token request ({answer(response)})"
    if error == "invalid_scope":
        return LmsError(
            f"{refused}: enable the tool's LTI Advantage services (Assignment and Grade, Names and Role "
            "Provisioning) in its registration"
        )
    if error == "invalid_grant":
        return LmsError(
            f"{refused}: check this machine's clock, and c.LtiPassback.token_audience when the LMS names an "
            "audience other than the token URL"
        )
    if error in OAUTH_ERRORS:
        return LmsError(
            f"{refused}: check c.LtiPassback.client_id, and that the LMS holds the public key python -m grader "
            "jwks prints"
        )
    line = (
        f"the token URL {token_url} answered {answer(response)}, not as an OAuth 2 token endpoint: check "
        "c.LtiPassback.token_url"
    )
    challenged = "bearer" in response.headers.get("WWW-Authenticate", "").lower()  # a service, not a token endpoint
    if response.status_code in (401, 403) and not challenged:
        line += "; if it is right, check c.LtiPassback.client_id and the public key the LMS holds"
    return LmsError(line)


def service_refused(error, url, setting):
    """What to fix when a service URL (line items, memberships, scores) refuses the kit."""
    response = error.response
    if response.status_code in (404, 405):
        return LmsError(f"{url} answered {answer(response)}: check {setting}")
    if response.status_code == 401:
        return LmsError(
            f"the LMS refused the kit's access token at {url} ({answer(response)}): check this "
            "machine's clock, and the tool's registration in the LMS"
        )
    if response.status_code == 403:
        return LmsError(
            f"the LMS refused the kit at {url} ({answer(response)}): enable the tool's LTI Advantage "
            "services (Assignment and Grade, Names and Role Provisioning) in its registration"
        )
    return LmsError(f"{url} answered {answer(response)}")


class LtiCourse:
    """The course's LMS as an LTI 1.3 tool sees it: its learners, and one line item per assignment."""

    def __init__(self, course):
        self.settings = lti = config.read(course, config.LtiPassback)
        problems = config.problems(course, lti)
        path = config.key_path(course, lti)
        try:
            keys.refuse_shipped(course, path)
            pem = keys.private_pem(path)
        except LmsError as error:
            problems.append(str(error))
        config.stop_on(problems)
        registration = (
            Registration()
            .set_client_id(lti.client_id)
            .set_auth_token_url(lti.token_url)
            .set_tool_private_key(pem)
            .set_tool_public_key(keys.public_key_pem(pem))
        )
        if lti.token_audience:
            registration.set_auth_audience(lti.token_audience)
        self.connector = Connector(registration, lti.token_url)
        self.ags = AssignmentsGradesService(self.connector, {"scope": AGS_SCOPES, "lineitems": lti.lineitems_url})
        self.lineitem = None
        self.maximum_change = None  # (the line item's scoreMaximum, the assignment's points, whether set)

    def members(self):
        """Every member of the course context, as NRPS gives them (dicts), every page."""
        nrps = NamesRolesProvisioningService(self.connector, {"context_memberships_url": self.settings.memberships_url})
        try:
            return nrps.get_members()
        except LtiServiceException as error:
            raise service_refused(error, self.settings.memberships_url, "c.LtiPassback.memberships_url") from None

    def users(self):
        """The course's learners not deleted from it, as :class:`LmsUser` (``user_id`` is LTI's ``sub``)."""
        return [
            LmsUser(
                m["user_id"],
                m.get("name") or " ".join(filter(None, (m.get("given_name"), m.get("family_name")))),
                m.get("email") or "",
                sis_id=m.get("lis_person_sourcedid"),
            )
            for m in self.members()
            if learner(m)
        ]

    def target(self, assignment, maximum, create, force=False):
        """The assignment's line item (found by its tag, else by its label; made when ``create``): its URL, or None
        when there is none yet. A line item worth another maximum stops the passback, unless ``force``: then its
        scoreMaximum is set to ``maximum`` (when ``create``; a dry run only says so)."""
        wanted = (
            LineItem()
            .set_tag(tag(assignment))
            .set_label(assignment)
            .set_score_maximum(maximum)
            .set_resource_id(assignment)
        )
        try:
            found = self.ags.find_lineitem_by_tag(tag(assignment)) or self.ags.find_lineitem("label", assignment)
            if found is None and create:
                found = self.ags.find_or_create_lineitem(wanted)
            if found is not None and not same_points(found.get_score_maximum(), maximum):
                found = self._other_maximum(found, maximum, create, force)
        except LtiServiceException as error:
            raise service_refused(error, self.settings.lineitems_url, "c.LtiPassback.lineitems_url") from None
        except LtiException as error:
            raise LmsError(
                f"the LMS's line items at {self.settings.lineitems_url} are not AGS line items ({error})"
            ) from None
        self.lineitem = found
        return found.get_id() if found else None

    def _other_maximum(self, found, maximum, create, force):
        """The line item ``found``, worth another maximum than ``maximum``: refused, unless ``force``; then its
        scoreMaximum is set (AGS 2.0: GET the line item, PUT it back changed) when ``create``."""
        worth, kit = found.get_score_maximum(), _points(maximum)
        if not force:
            raise LmsError(
                f"the line item {found.get_id()} ({found.get_label()!r}) has scoreMaximum {_points(worth)} and the "
                f"assignment's points are {kit}: set its maximum to {kit} in the LMS, or run passback --lti --force "
                "to set it"
            )
        self.maximum_change = (worth, maximum, create)
        if not create:
            return found
        item = self.connector.make_service_request(AGS_SCOPES, found.get_id(), accept=LINEITEM_TYPE)["body"]
        try:
            changed = self.connector.put(AGS_SCOPES, found.get_id(), {**item, "scoreMaximum": maximum}, LINEITEM_TYPE)
        except LtiServiceException as error:
            raise LmsError(
                f"the LMS refused to set the scoreMaximum of the line item {found.get_id()} "
                f"({answer(error.response)}): set it to {kit} in the LMS"
            ) from None
        return LineItem(changed)

    def post(self, assignment, maximum, entries):
        """Post each (Score, user id) of ``entries`` to the line item, one at a time; yield (entry, Outcome) as each
        is answered. A refused score is an Outcome that says why; an LMS that stops answering stops the run."""
        for entry in entries:
            score, user = entry
            grade = (
                Grade()
                .set_score_given(score.score)
                .set_score_maximum(maximum)
                .set_user_id(user)
                .set_activity_progress(score.activity)
                .set_grading_progress(score.grading)
                .set_timestamp(now())
            )
            try:
                self.ags.put_grade(grade, self.lineitem)
                yield entry, Outcome(True, self.connector.last_answer)
            except LtiServiceException as error:
                if error.response.status_code in (401, 403):
                    raise service_refused(error, self.lineitem.get_id(), "the tool's registration") from None
                yield entry, Outcome(False, answer(error.response))

    def describe(self, target):
        if not target:
            return "a new line item"
        if self.maximum_change is None:
            return f"line item {target}"
        worth, maximum, done = self.maximum_change
        was, kit = _points(worth), _points(maximum)
        change = f"set from {was} to {kit}" if done else f"{was} would be set to {kit}"
        return f"line item {target} (its scoreMaximum {change})"


def learner(member):
    """A member NRPS lists with a Learner role (full or short name), not deleted from the course."""
    return member.get("status", "Active") != "Deleted" and any(role in LEARNER for role in member.get("roles", []))


def same_points(worth, maximum):
    """Whether a line item's scoreMaximum is the assignment's points, but for float rounding."""
    return _number(worth) and abs(worth - maximum) < 1e-6


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _points(value):
    """A scoreMaximum as the kit prints it: ``12``, ``12.5``, or ``none`` when the line item has no number."""
    return points(value) if _number(value) else "none"


def tag(assignment):
    """The line item's tag: the kit finds its own line item again by it."""
    return f"nbgrader:{assignment}"


def now():
    """AGS's timestamp: ISO 8601 with milliseconds and a time zone."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
