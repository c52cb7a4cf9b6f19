"""A small LTI 1.3 platform for the tests and ``demo --lti``: token endpoint, AGS line items, scores and results,
NRPS memberships, over real HTTP on 127.0.0.1, its data in memory.

It is built on lti1p3platform 0.1.8 (its registration, access-token signing and service classes), with what that
young package lacks or gets wrong fixed to the specifications (IMS LTI Advantage security framework 1.0, AGS 2.0,
NRPS 2.0):
- a WSGI request adapter (its FastAPI one is commented out) and a stdlib server in a thread;
- the token endpoint checks the tool's assertion (signature by the registered key, ``iss`` = ``sub`` = client id,
  ``aud`` = the token URL, ``exp``, ``jti`` used once), grants only the scopes asked for and registered, and
  answers refusals as RFC 6749 5.2 JSON errors (400/401), not exceptions (HTTP 500);
- an expired, garbled or foreign access token is 401 with ``WWW-Authenticate``, not 500; each endpoint needs its
  own scope (a read-only token cannot post a score: 403);
- line-item and result lists are bare JSON arrays, paged with a ``Link: <...>; rel="next"`` header, as AGS and
  pylti1p3 read them (not ``{"content", "has_next", "next"}``); NRPS pages by ``Link`` too;
- a method an endpoint does not take is 405 before any token is checked, as web frameworks route;
- line items need a label and a positive scoreMaximum, and a PUT replaces the whole line item (AGS 2.0 3.2);
  scores are validated (an active member of the context, activityProgress and gradingProgress from AGS's
  lists, scoreGiven >= 0 with scoreMaximum > 0, an ISO 8601 timestamp, an older timestamp than the last
  refused with 409). A score for a user who is not an active member is refused with ``non_member_status``:
  422, as Canvas answers, or 400, as Moodle does.
It lives in the kit, not only in the tests, because ``python -m grader demo --lti`` posts the demo class to it;
lti1p3platform is a test requirement (requirements-test.txt), imported only when a platform is started.
"""

import contextlib
import datetime
import json
import threading
import uuid
from urllib.parse import parse_qsl, urlencode
from wsgiref.simple_server import WSGIRequestHandler, make_server

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

try:
    from lti1p3platform.exceptions import LineItemNotFoundException, LtiServiceException
    from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
    from lti1p3platform.membership import Context
    from lti1p3platform.registration import Registration
    from lti1p3platform.request import Request
    from lti1p3platform.score import UPDATE_SCORE_STATUSCODE, ActivityProgress, GradeProgress, UpdateScoreStatus
    from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService
except ImportError as missing:  # a kit installed without its test requirements
    from ..lms.errors import LmsError

    raise LmsError(
        f"the test LTI platform needs lti1p3platform ({missing.name} is missing): pip install -r requirements-test.txt"
    ) from None

SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"
LINEITEM, LINEITEM_READ, RESULT_READ, SCORE = (
    SCOPE + s for s in ("lineitem", "lineitem.readonly", "result.readonly", "score")
)
MEMBERSHIPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
CONTEXT = "Course-1"  # a capital, as real LMSs have: pylti1p3 would lowercase its next-page URLs


class OAuthError(Exception):
    """A refused token request, as RFC 6749 5.2 answers it."""

    def __init__(self, status, error, description):
        super().__init__(description)
        self.status, self.error, self.description = status, error, description


class MethodNotAllowed(Exception):
    """A method the endpoint does not take: 405, with the ``Allow`` header."""

    def __init__(self, allowed):
        super().__init__(", ".join(allowed))
        self.allowed = allowed


# The methods each endpoint takes (AGS 2.0, NRPS 2.0, RFC 6749's token endpoint).
METHODS = {
    "token": ("POST",),
    "jwks": ("GET",),
    "memberships": ("GET",),
    "lineitems": ("GET", "POST"),
    "lineitem": ("GET", "PUT", "DELETE"),
    "score": ("POST",),
    "results": ("GET",),
}


class WsgiRequest(Request):
    """lti1p3platform's request, built from a WSGI environ (the adapter its FastAPI module would be)."""

    def build_metadata(self, environ):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        content_type = environ.get("CONTENT_TYPE", "")
        query = dict(parse_qsl(environ.get("QUERY_STRING", "")))
        headers = {
            key[5:].replace("_", "-").title(): value for key, value in environ.items() if key.startswith("HTTP_")
        }
        return {
            "method": environ["REQUEST_METHOD"],
            "path": environ.get("PATH_INFO", ""),
            "headers": headers,
            "get_data": query,
            "content_type": content_type,
            "form_data": dict(parse_qsl(body.decode())) if "form" in content_type else {},
            "json": _json(body) if "json" in content_type else None,
        }


def _json(body):
    try:
        return json.loads(body or b"null")
    except ValueError:
        raise LtiServiceException("the body is not JSON", 400) from None


class PlatformConfig(LTI1P3PlatformConfAbstract):
    """lti1p3platform's platform with the security framework's checks of the tool's assertion and access tokens."""

    def init_platform_config(self, platform):
        self.platform = platform

    def get_registration_by_params(self, **kwargs):
        return self.platform.registration

    def get_access_token(self, form):
        if form.get("grant_type") != "client_credentials":
            raise OAuthError(400, "unsupported_grant_type", "only client_credentials is supported")
        if form.get("client_assertion_type") != ASSERTION_TYPE or not form.get("client_assertion"):
            raise OAuthError(400, "invalid_request", "a JWT client assertion is required")
        claims = self.verified_assertion(form["client_assertion"])
        registered = self.platform.scopes
        asked = form.get("scope", "").split()
        if not asked or not set(asked) <= registered:
            raise OAuthError(400, "invalid_scope", "a scope asked for is not granted to this tool")
        registration = self.get_registration()
        token = registration.encode_and_sign(
            {"sub": claims["sub"], "iss": registration.get_iss(), "scopes": " ".join(asked), "jti": str(uuid.uuid4())},
            registration.get_platform_private_key(),
            expiration=self.platform.token_seconds,
        )
        self.platform.issued.append(token)
        return {
            "access_token": token,
            "token_type": "bearer",
            "expires_in": self.platform.token_seconds,
            "scope": " ".join(asked),
        }

    def verified_assertion(self, assertion):
        """The tool's signed assertion, checked: the registered key, iss = sub = client id, aud = token URL,
        not expired, its jti never seen."""
        registration = self.get_registration()
        try:
            self.validate_jwt_format(assertion)
            key = self.get_tool_public_key()
            claims = jwt.decode(
                assertion,
                key,
                algorithms=["RS256"],
                audience=self.platform.token_url,
                options={"require": ["iss", "sub", "aud", "exp", "iat", "jti"]},
            )
        except jwt.ExpiredSignatureError:
            raise OAuthError(400, "invalid_grant", "the client assertion has expired") from None
        except jwt.InvalidAudienceError:
            raise OAuthError(401, "invalid_client", "the client assertion's aud is not this token URL") from None
        except Exception:  # noqa: BLE001 - lti1p3platform raises its own and jwt's: each is a refused key
            raise OAuthError(
                401, "invalid_client", "the client assertion is not signed by the tool's registered key"
            ) from None
        if claims["iss"] != registration.get_client_id() or claims["sub"] != registration.get_client_id():
            raise OAuthError(401, "invalid_client", "the client assertion's iss and sub must be the client id")
        if claims["jti"] in self.platform.used_jtis:
            raise OAuthError(400, "invalid_grant", "the client assertion's jti was used before")
        self.platform.used_jtis.add(claims["jti"])
        return claims

    def check_token(self, headers, scopes):
        """Stop unless the request's bearer token is this platform's, unexpired and holds one of ``scopes``: 401
        when it is missing, expired, garbled or foreign, 403 when it lacks the scope."""
        auth = headers.get("Authorization", "").split()
        if len(auth) != 2 or auth[0].lower() != "bearer":
            raise LtiServiceException("missing bearer token", 401)
        try:
            allowed = self.validate_token(auth[1], list(scopes))
        except Exception:  # noqa: BLE001 - validate_token raises jwt's and its own errors: every one is a 401
            raise LtiServiceException("invalid or expired access token", 401) from None
        if not allowed:
            raise LtiServiceException(f"insufficient scope: needs {' or '.join(scopes)}", 403)


def authorize(service, *scopes):
    service.platform.config.check_token(service.request.headers, scopes)


def _page(items, page, limit):
    page, limit = int(page or 1), int(limit or 0)
    if not limit:
        return items, False
    start = (page - 1) * limit
    return items[start : start + limit], start + limit < len(items)


def _next(url, query, has_next):
    if not has_next:
        return {}
    return {"Link": f'<{url}?{urlencode({**query, "page": int(query.get("page", 1)) + 1})}>; rel="next"'}


class LineItems(AssignmentsGradesService):
    """AGS line items, scores and results in the platform's memory, with the fixed handlers."""

    def __init__(self, request, platform):
        super().__init__(request, platform.config, platform.lineitems_url)
        self.platform = platform

    # lti1p3platform's storage methods
    def find_lineitems(self, page=1, limit=None, line_item_id=None, resource_link_id=None, resource_id=None, tag=None):
        wanted = {"id": line_item_id, "resourceLinkId": resource_link_id, "resourceId": resource_id, "tag": tag}
        found = [
            item
            for item in self.platform.lineitems.values()
            if all(item.get(key) == value for key, value in wanted.items() if value is not None)
        ]
        content, has_next = _page(found, page, limit)
        return {"content": content, "has_next": has_next}

    def find_lineitem(self, line_item_id):
        try:
            return self.platform.lineitems[line_item_id]
        except KeyError:
            raise LineItemNotFoundException(line_item_id) from None

    def create_lineitem(self, creation_data):
        item = {**creation_data, "id": f"{self.platform.lineitems_url}/{len(self.platform.lineitems) + 1}"}
        self.platform.lineitems[item["id"]] = item
        return item

    def update_lineitem(self, update_data):
        self.find_lineitem(update_data["id"])
        self.platform.lineitems[update_data["id"]] = update_data
        return update_data

    def delete_lineitem(self, line_item_id):
        self.find_lineitem(line_item_id)
        del self.platform.lineitems[line_item_id]
        self.platform.scores.pop(line_item_id, None)

    def update_score(self, line_item_id, score):
        self.find_lineitem(line_item_id)
        scores = self.platform.scores.setdefault(line_item_id, {})
        last = scores.get(score["userId"])
        if last and _time(score["timestamp"]) <= _time(last["timestamp"]):
            return UpdateScoreStatus.OLD_TIMESTAMP
        scores[score["userId"]] = score
        self.platform.received.append((line_item_id, score))
        return UpdateScoreStatus.SUCCESS if last else UpdateScoreStatus.CREATED

    def get_results(self, line_item_id, page=1, limit=None, user_id=None):
        self.find_lineitem(line_item_id)
        results = [
            {
                "id": f"{line_item_id}/results/{user}",
                "scoreOf": line_item_id,
                "userId": user,
                "resultScore": s.get("scoreGiven"),
                "resultMaximum": s.get("scoreMaximum"),
                "comment": s.get("comment"),
            }
            for user, s in sorted(self.platform.scores.get(line_item_id, {}).items())
            if user_id in (None, user)
        ]
        content, has_next = _page(results, page, limit)
        return {"content": content, "has_next": has_next}

    # the fixed handlers: per-endpoint scopes, AGS-shaped containers, validation
    def lineitems(self):
        request = self.request
        if request.method == "GET":
            authorize(self, LINEITEM, LINEITEM_READ)
            query = {
                k: v
                for k, v in request.get_data.items()
                if k in ("page", "limit", "resource_link_id", "resource_id", "tag")
            }
            found = self.find_lineitems(**query)
            return (
                200,
                found["content"],
                "application/vnd.ims.lis.v2.lineitemcontainer+json",
                _next(self.platform.lineitems_url, query, found["has_next"]),
            )
        authorize(self, LINEITEM)
        return 201, self.create_lineitem(_valid_lineitem(request.json)), LINEITEM_TYPE, {}

    def lineitem(self, line_item_id):
        request = self.request
        if request.method == "GET":
            authorize(self, LINEITEM, LINEITEM_READ)
            return 200, self.find_lineitem(line_item_id), LINEITEM_TYPE, {}
        authorize(self, LINEITEM)
        if request.method == "PUT":
            return 200, self.update_lineitem({**_valid_lineitem(request.json), "id": line_item_id}), LINEITEM_TYPE, {}
        self.delete_lineitem(line_item_id)
        return 204, None, None, {}

    def score(self, line_item_id):
        authorize(self, SCORE)
        if not self.request.content_type.startswith("application/vnd.ims.lis.v1.score+json"):
            raise LtiServiceException("a score is application/vnd.ims.lis.v1.score+json", 415)
        score = _valid_score(self.request.json, self.platform.members, self.platform.non_member_status)
        status = self.update_score(line_item_id, score)
        code = UPDATE_SCORE_STATUSCODE[status]
        return code, ({"error": status.value} if code >= 400 else None), "application/json", {}

    def results(self, line_item_id):
        authorize(self, RESULT_READ)
        query = {k: v for k, v in self.request.get_data.items() if k in ("page", "limit", "user_id")}
        found = self.get_results(line_item_id, **query)
        return (
            200,
            found["content"],
            "application/vnd.ims.lis.v2.resultcontainer+json",
            _next(f"{line_item_id}/results", query, found["has_next"]),
        )


LINEITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
ACTIVITY = {p.value for p in ActivityProgress}
GRADING = {p.value for p in GradeProgress}


def _valid_lineitem(data):
    if not isinstance(data, dict) or not isinstance(data.get("label"), str) or not data["label"].strip():
        raise LtiServiceException("a line item needs a label", 400)
    maximum = data.get("scoreMaximum")
    if isinstance(maximum, bool) or not isinstance(maximum, (int, float)) or maximum <= 0:
        raise LtiServiceException("a line item's scoreMaximum must be a number above 0", 400)
    return {k: v for k, v in data.items() if k != "id"}


def _valid_score(score, members, non_member_status):
    """A score as AGS 2.0 3.4 defines it, for an active member of the context; else 400 (``non_member_status``
    for a user who is not one)."""
    if not isinstance(score, dict):
        raise LtiServiceException("a score is a JSON object", 400)
    if score.get("activityProgress") not in ACTIVITY or score.get("gradingProgress") not in GRADING:
        raise LtiServiceException("activityProgress and gradingProgress must be AGS's values", 400)
    try:
        _time(score.get("timestamp"))
    except (TypeError, ValueError):
        raise LtiServiceException("timestamp must be ISO 8601 with a time zone", 400) from None
    given, maximum = score.get("scoreGiven"), score.get("scoreMaximum")
    if given is not None:
        numbers = [v for v in (given, maximum) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) != 2 or given < 0 or maximum <= 0:
            raise LtiServiceException("scoreGiven must be >= 0, with a scoreMaximum above 0", 400)
    if score.get("userId") not in {m["user_id"] for m in members if m["status"] == "Active"}:
        raise LtiServiceException("userId is not an active member of this context", non_member_status)
    return score


def _time(text):
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError("no time zone")
    return moment


class Memberships(NamesRoleProvisioningService):
    """NRPS memberships from the platform's memory, paged by ``Link``."""

    def __init__(self, request, platform):
        super().__init__(request, platform.config, platform.memberships_url)
        self.platform = platform

    def get_member_data_page(self, page=1, limit=None, role=None, since=None):
        members = [m for m in self.platform.members if role is None or role in m["roles"]]
        content, has_next = _page(members, page, limit)
        return {"content": content, "has_next": has_next}

    def get_context_by_id(self):
        return Context(CONTEXT, "SA", "Self-attention")

    def members(self):
        authorize(self, MEMBERSHIPS)
        query = {k: v for k, v in self.request.get_data.items() if k in ("page", "limit", "role")}
        found = self.get_member_data_page(**query)
        context = self.get_context_by_id()
        body = {
            "id": self.platform.memberships_url,
            "members": self.clean_members(list(found["content"])),
            "context": {"id": context.id, "label": context.label, "title": context.title},
        }
        return (
            200,
            body,
            "application/vnd.ims.lti-nrps.v2.membershipcontainer+json",
            _next(self.platform.memberships_url, query, found["has_next"]),
        )


class TestPlatform:
    """An LMS course as an LTI 1.3 platform sees it: one registered tool (its public key set ``tool_jwks``), the
    course's ``members`` (NRPS dicts), its line items and the scores received. ``token_seconds``: how long an
    access token lasts."""

    __test__ = False  # not a pytest class

    def __init__(
        self,
        tool_jwks,
        members,
        client_id="attention-kit",
        deployment_id="1",
        token_seconds=3600,
        scopes=(LINEITEM, LINEITEM_READ, RESULT_READ, SCORE, MEMBERSHIPS),
    ):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.private_pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()
        self.public_pem = (
            key.public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
            .decode()
        )
        self.client_id, self.deployment_id, self.token_seconds = client_id, deployment_id, token_seconds
        self.tool_jwks, self.members, self.scopes = tool_jwks, list(members), set(scopes)
        self.lineitems, self.scores, self.received, self.used_jtis, self.log = {}, {}, [], set(), []
        self.base, self.config, self.issued = None, None, []  # issued: the access tokens given out
        self.non_member_status = 422  # the answer to a score for a user who is not an active member
        self.stop_after = None  # after this many scores, drop every connection unanswered (a network failure)
        self.dropping = False

    @property
    def token_url(self):
        return f"{self.base}/token"

    @property
    def lineitems_url(self):
        return f"{self.base}/contexts/{CONTEXT}/lineitems"

    @property
    def memberships_url(self):
        return f"{self.base}/contexts/{CONTEXT}/memberships"

    @property
    def registration(self):
        return (
            Registration()
            .set_iss(self.base)
            .set_client_id(self.client_id)
            .set_deployment_id(self.deployment_id)
            .set_platform_private_key(self.private_pem)
            .set_platform_public_key(self.public_pem)
            .set_tool_key_set(self.tool_jwks)
        )

    def settings(self):
        """The course's ``c.LtiPassback`` settings for this platform, as an LMS shows them at registration."""
        return {
            "client_id": self.client_id,
            "token_url": self.token_url,
            "lineitems_url": self.lineitems_url,
            "memberships_url": self.memberships_url,
        }

    def config_lines(self):
        return "".join(f"c.LtiPassback.{name} = {value!r}\n" for name, value in self.settings().items())

    @contextlib.contextmanager
    def running(self):
        """Serve on 127.0.0.1 (a free port) in a thread while the block runs."""
        server = make_server("127.0.0.1", 0, self, handler_class=_Handler)
        self.base = f"http://127.0.0.1:{server.server_port}"
        self.config = PlatformConfig(platform=self)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            server.shutdown()
            server.server_close()
            thread.join()

    def __call__(self, environ, start_response):
        request = WsgiRequest(environ)
        try:
            status, body, media_type, headers = self._route(request)
        except OAuthError as error:
            status, body, media_type, headers = (
                error.status,
                {"error": error.error, "error_description": error.description},
                "application/json",
                {},
            )
        except LtiServiceException as error:
            status, body, media_type = error.status_code, {"error": error.message}, "application/json"
            headers = {"WWW-Authenticate": 'Bearer error="invalid_token"'} if status == 401 else {}
        except LineItemNotFoundException:
            status, body, media_type, headers = 404, {"error": "no such line item"}, "application/json", {}
        except MethodNotAllowed as error:
            status, body, media_type = 405, {"error": "method not allowed"}, "application/json"
            headers = {"Allow": ", ".join(error.allowed)}
        self.log.append((request.method, request.path, status))
        payload = b"" if body is None else json.dumps(body).encode()
        headers = {**headers, **({"Content-Type": media_type} if payload else {})}
        start_response(f"{status} {_REASONS.get(status, 'OK')}", list(headers.items()))
        self.dropping = self.stop_after is not None and len(self.received) >= self.stop_after
        return [payload]

    def _route(self, request):
        """The endpoint's answer; a method it does not take is 405 before any token is checked."""
        endpoint, line_item_id = self._endpoint(request.path)
        if endpoint is None:
            raise LtiServiceException("not found", 404)
        allowed = METHODS[endpoint]
        if request.method not in allowed:
            raise MethodNotAllowed(allowed)
        if endpoint == "token":
            return (
                200,
                self.config.get_access_token(request.form_data),
                "application/json",
                {"Cache-Control": "no-store"},
            )
        if endpoint == "jwks":
            return 200, {"keys": self.registration.get_jwks()}, "application/json", {}
        if endpoint == "memberships":
            return Memberships(request, self).members()
        service = LineItems(request, self)
        if endpoint == "lineitems":
            return service.lineitems()
        return getattr(service, endpoint)(line_item_id)

    def _endpoint(self, path):
        """(which endpoint ``path`` is, the line item's URL or None); (None, None) for no endpoint."""
        parts = path.strip("/").split("/")
        if parts in (["token"], ["jwks"]):
            return parts[0], None
        if parts[:2] != ["contexts", CONTEXT]:
            return None, None
        rest = parts[2:]
        if rest in (["memberships"], ["lineitems"]):
            return rest[0], None
        if rest[:1] == ["lineitems"] and len(rest) in (2, 3):
            endpoint = "lineitem" if len(rest) == 2 else {"scores": "score", "results": "results"}.get(rest[2])
            return (endpoint, f"{self.lineitems_url}/{rest[1]}") if endpoint else (None, None)
        return None, None

    def posted(self, line_item_id=None):
        """{user id: the score last taken} on ``line_item_id`` (default: the only line item)."""
        line_item_id = line_item_id or next(iter(self.lineitems))
        return dict(self.scores.get(line_item_id, {}))


_REASONS = {
    200: "OK",
    201: "Created",
    204: "No Content",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    415: "Unsupported Media Type",
    422: "Unprocessable Entity",
}


class _Handler(WSGIRequestHandler):
    """Quiet; and once the platform is ``dropping``, it closes each connection without an answer."""

    def handle(self):
        if not self.server.get_app().dropping:
            super().handle()

    def log_message(self, *args):
        pass


def member(user_id, name, email, sis_id=None, roles=(LEARNER,), status="Active"):
    """A course member as NRPS lists it (``status``: Active, Inactive or Deleted)."""
    given, _, family = name.partition(" ")
    return {
        "user_id": user_id,
        "name": name,
        "given_name": given,
        "family_name": family,
        "email": email,
        "lis_person_sourcedid": sis_id,
        "roles": list(roles),
        "status": status,
    }


def new_user_id():
    """An opaque LTI ``sub``, as platforms make them."""
    return str(uuid.uuid4())
