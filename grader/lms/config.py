"""Where the course's LMS lives, in one place: the course's ``nbgrader_config.py``, which release, the student zip
and the sandbox never hand to a student. No secret is written there: the LTI private key is a file of its own
(``c.LtiPassback.private_key_path``, mode 0600), and a Canvas or Moodle token is read from the environment
variable that ``token_env`` names.

    c.LtiPassback.client_id = "10000000000042"
    c.LtiPassback.token_url = "https://canvas.example.edu/login/oauth2/token"
    c.LtiPassback.lineitems_url = "https://canvas.example.edu/api/lti/courses/42/line_items"
    c.LtiPassback.memberships_url = "https://canvas.example.edu/api/lti/courses/42/names_and_roles"
    c.CanvasPassback.url = "https://canvas.example.edu"; c.CanvasPassback.course_id = "42"
    c.MoodlePassback.url = "https://moodle.example.edu"; c.MoodlePassback.course_id = "7"
"""

import ipaddress
import os
import pathlib
from urllib.parse import urlparse

from traitlets import Unicode
from traitlets.config import Configurable
from traitlets.config.loader import PyFileConfigLoader

from ..course import CONFIG
from .errors import LmsError

KEY = "lti/private_key.pem"


class LtiPassback(Configurable):
    """The kit as an LTI 1.3 tool of the course's LMS: what the LMS showed when the tool was registered."""

    # The issuer and the deployment id matter to a launch, which the kit never makes: its token requests name the
    # client id alone (iss = sub = client id, aud = the token URL). Kept so that a configuration setting them loads.
    issuer = Unicode("", help="not used (a launch's; the kit makes none)").tag(config=True)
    deployment_id = Unicode("", help="not used (a launch's; the kit makes none)").tag(config=True)
    client_id = Unicode("", help="the tool's client id, given by the LMS").tag(config=True)
    token_url = Unicode("", help="the LMS's OAuth 2 token URL (client credentials)").tag(config=True)
    token_audience = Unicode(
        "",
        help="the audience of the tool's signed assertion when the LMS wants another "
        "than the token URL (Brightspace: https://api.brightspace.com/auth/token)",
    ).tag(config=True)
    lineitems_url = Unicode("", help="the course context's AGS line-items URL").tag(config=True)
    memberships_url = Unicode("", help="the course context's NRPS memberships URL").tag(config=True)
    private_key_path = Unicode(KEY, help="the tool's private key (PEM), from the course folder unless absolute").tag(
        config=True
    )


class RestPassback(Configurable):
    """An LMS reached through its REST API with a token: its address, the course, the variable holding the token."""

    url = Unicode("", help="the LMS's address, e.g. https://canvas.example.edu").tag(config=True)
    course_id = Unicode("", help="the course's id in the LMS").tag(config=True)
    token_env = Unicode("", help="the environment variable that holds the API token").tag(config=True)


class CanvasPassback(RestPassback):
    token_env = Unicode("CANVAS_TOKEN", help="the environment variable that holds the Canvas access token").tag(
        config=True
    )


class MoodlePassback(RestPassback):
    token_env = Unicode("MOODLE_TOKEN", help="the environment variable that holds the Moodle web-service token").tag(
        config=True
    )


REQUIRED = {
    LtiPassback: ("client_id", "token_url", "lineitems_url", "memberships_url"),
    CanvasPassback: ("url", "course_id"),
    MoodlePassback: ("url", "course_id"),
}
# Where each kind's settings are explained (the documentation's source, docs/).
PAGES = {
    LtiPassback: "instructors/lti.md",
    CanvasPassback: "instructors/canvas.md",
    MoodlePassback: "instructors/moodle.md",
}


def settings(course, kind, needed=None):
    """The course's ``kind`` (LtiPassback, CanvasPassback or MoodlePassback) as its nbgrader_config.py sets it;
    every setting of ``needed`` (default: all the kind needs) that is missing or not a web address, and a REST
    route's empty token, stop it in one line."""
    found = read(course, kind)
    stop_on(problems(course, found, needed))
    return found


def read(course, kind):
    """The course's ``kind`` as its nbgrader_config.py sets it, unchecked."""
    config = PyFileConfigLoader(CONFIG, path=str(course.root.resolve())).load_config()
    return kind(config=config)


def problems(course, found, needed=None):
    """What stops ``found`` (read by :func:`read`) from reaching the LMS: one line for all the missing settings of
    ``needed`` (default: all its kind needs), one per URL that is not a web address to send credentials to, and,
    for a REST route, its empty token."""
    kind = type(found)
    names = REQUIRED[kind] if needed is None else needed
    missing = [f"c.{kind.__name__}.{name}" for name in names if not getattr(found, name)]
    lines = []
    if missing:
        them = "them" if len(missing) > 1 else "it"
        lines.append(
            f"no {', '.join(missing)} in {course.root / CONFIG}: add {them}, as the LMS shows {them} "
            f"(docs: {PAGES[kind]})"
        )
    for name in names:
        if name.endswith("url") and getattr(found, name):
            lines.append(url_problem(getattr(found, name), f"c.{kind.__name__}.{name}"))
    if isinstance(found, RestPassback) and needed is None:
        lines.append(token_problem(found))
    return [line for line in lines if line]


def stop_on(lines):
    """Stop with ``lines`` in one message, if there are any."""
    if lines:
        raise LmsError("; ".join(lines))


def url_problem(url, setting):
    """Why ``url`` is not a web address to send credentials to (https, or http on this machine only: the test
    platform), or None."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        return f"{setting} = {url!r} is not a web address: give the full https:// URL the LMS shows"
    if parsed.scheme == "http" and not _loopback(parsed.hostname):
        return (
            f"{setting} = {url!r} is plain http: credentials would cross the network unencrypted; "
            "give its https:// address"
        )
    return None


def _loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def key_path(course, lti):
    """The private key's file: ``private_key_path`` from the course folder, unless absolute."""
    return course.root / pathlib.Path(lti.private_key_path).expanduser()


def token(rest):
    """The API token of ``rest`` (CanvasPassback, MoodlePassback) from its environment variable; never printed."""
    problem = token_problem(rest)
    if problem:
        raise LmsError(problem)
    return os.environ[rest.token_env].strip()


def token_problem(rest):
    """Why ``rest`` has no token (no variable named, or the variable empty), or None."""
    name = type(rest).__name__
    if not rest.token_env:
        return f"no c.{name}.token_env: name the environment variable that holds the token"
    if not os.environ.get(rest.token_env, "").strip():
        return (
            f"the environment variable {rest.token_env} (c.{name}.token_env) is empty: set it to the "
            "LMS's API token, in the shell only, never in a file of the course"
        )
    return None
