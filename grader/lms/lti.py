"""The kit as an LTI 1.3 tool, through pylti1p3: a token by the client-credentials grant with a JWT signed by the
kit's key (no user's launch needed), the course's members from NRPS, line items and scores through AGS.

pylti1p3's services take the URLs a launch would carry; here they come from the course's configuration. Its
connector is used as it is, but for three things: a token the platform refuses (expired) is asked for again once,
the next page is read from the ``Link`` header without lowercasing its URL, and every refusal becomes one line
that names the setting to fix (never the key, the assertion or the token)."""

import datetime

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
from .people import LmsUser, Outcome

LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
MEMBERSHIPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
LEARNER = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner", "Learner")
TIMEOUT = 30  # seconds for one request


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
        for attempt in (1, 2):
            try:
                answer = super().make_service_request(scopes, url, case_insensitive_headers=True, **options)
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
            link = answer["headers"].get("Link")
            links = requests.utils.parse_header_links(link) if link else []
            answer["next_page_url"] = next((link["url"] for link in links if link.get("rel") == "next"), None)
            answer["headers"] = dict(answer["headers"])
            return answer


def _why(error):
    return type(error).__name__.replace("Error", " error").strip().lower()


def _answer(response):
    """The LMS's answer in a few words: status, and its error code or message (never the request)."""
    words = f"{response.status_code} {response.reason or ''}".strip()
    try:
        body = response.json()
    except ValueError:
        return words
    if isinstance(body, dict):
        said = body.get("error_description") or body.get("error") or body.get("message") or ""
        said = " ".join(str(said).split())[:160]
        return f"{words}: {said}" if said and said.casefold() != (response.reason or "").casefold() else words
    return words


def _token_refused(response, token_url):
    if response.status_code == 404:
        return LmsError(f"the token URL {token_url} answered {_answer(response)}: check c.LtiPassback.token_url")
    return LmsError(
        f"the LMS refused the kit's token request ({_answer(response)}): check c.LtiPassback.client_id "
        "and c.LtiPassback.issuer, and that the LMS holds the public key python -m grader jwks prints"
    )


def service_refused(error, url, setting):
    response = error.response
    if response.status_code == 404:
        return LmsError(f"{url} answered {_answer(response)}: check {setting}")
    if response.status_code == 401:
        return LmsError(
            f"the LMS refused the kit's access token at {url} ({_answer(response)}): check this "
            "machine's clock, and the tool's registration in the LMS"
        )
    if response.status_code == 403:
        return LmsError(
            f"the LMS refused the kit at {url} ({_answer(response)}): enable the tool's LTI Advantage "
            "services (Assignment and Grade, Names and Role Provisioning) in its registration"
        )
    return LmsError(f"{url} answered {_answer(response)}")


class LtiCourse:
    """The course's LMS as an LTI 1.3 tool sees it: its learners, and one line item per assignment."""

    def __init__(self, course):
        self.settings = lti = config.settings(course, config.LtiPassback)
        path = config.key_path(course, lti)
        keys.refuse_shipped(course, path)
        pem = keys.private_pem(path)
        registration = (
            Registration()
            .set_issuer(lti.issuer)
            .set_client_id(lti.client_id)
            .set_auth_token_url(lti.token_url)
            .set_tool_private_key(pem)
            .set_tool_public_key(keys.public_key_pem(pem))
        )
        if lti.token_audience:
            registration.set_auth_audience(lti.token_audience)
        self.connector = Connector(registration, lti.token_url)
        self.ags = AssignmentsGradesService(
            self.connector, {"scope": [LINEITEM, SCORE], "lineitems": lti.lineitems_url}
        )
        self.lineitem = None

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

    def target(self, assignment, maximum, create):
        """The assignment's line item (found by its tag, else by its label; made when ``create``): its URL, or None
        when there is none yet."""
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
        except LtiServiceException as error:
            raise service_refused(error, self.settings.lineitems_url, "c.LtiPassback.lineitems_url") from None
        except LtiException as error:
            raise LmsError(
                f"the LMS's line items at {self.settings.lineitems_url} are not AGS line items ({error})"
            ) from None
        self.lineitem = found
        return found.get_id() if found else None

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
                yield entry, Outcome(False, _answer(error.response))

    def describe(self, target):
        return f"line item {target}" if target else "a new line item"


def learner(member):
    """A member NRPS lists with a Learner role (full or short name), not deleted from the course."""
    return member.get("status", "Active") != "Deleted" and any(role in LEARNER for role in member.get("roles", []))


def tag(assignment):
    """The line item's tag: the kit finds its own line item again by it."""
    return f"nbgrader:{assignment}"


def now():
    """AGS's timestamp: ISO 8601 with milliseconds and a time zone."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
