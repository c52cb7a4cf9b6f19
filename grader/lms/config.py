"""Where the course's LMS lives, in one place: the course's ``nbgrader_config.py``, which release, the student zip
and the sandbox never hand to a student. No secret is written there: the LTI private key is a file of its own
(``c.LtiPassback.private_key_path``, mode 0600), and a Canvas or Moodle token is read from the environment
variable that ``token_env`` names.

    c.LtiPassback.issuer = "https://canvas.instructure.com"
    c.LtiPassback.client_id = "10000000000042"
    c.LtiPassback.deployment_id = "7:ab12..."
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

    issuer = Unicode("", help="the LMS's issuer (iss), e.g. https://canvas.instructure.com").tag(config=True)
    client_id = Unicode("", help="the tool's client id, given by the LMS").tag(config=True)
    deployment_id = Unicode("", help="the tool's deployment id in the LMS").tag(config=True)
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
    LtiPassback: ("issuer", "client_id", "token_url", "lineitems_url", "memberships_url"),
    CanvasPassback: ("url", "course_id"),
    MoodlePassback: ("url", "course_id"),
}


def settings(course, kind, needed=None):
    """The course's ``kind`` (LtiPassback, CanvasPassback or MoodlePassback) as its nbgrader_config.py sets it;
    a setting of ``needed`` (default: all the kind needs) that is missing or not a web address stops with the
    line to add."""
    config = PyFileConfigLoader(CONFIG, path=str(course.root.resolve())).load_config()
    found = kind(config=config)
    for name in needed if needed is not None else REQUIRED[kind]:
        value = getattr(found, name)
        if not value:
            raise LmsError(
                f"no c.{kind.__name__}.{name} in {course.root / CONFIG}: add it, as the LMS shows it "
                "(README: Grades into the LMS)"
            )
        if name.endswith("url"):
            check_url(value, f"c.{kind.__name__}.{name}")
    return found


def check_url(url, setting):
    """A web address to send credentials to: https, or http on this machine only (the test platform)."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise LmsError(f"{setting} = {url!r} is not a web address: give the full https:// URL the LMS shows")
    if parsed.scheme == "http" and not _loopback(parsed.hostname):
        raise LmsError(
            f"{setting} = {url!r} is plain http: credentials would cross the network unencrypted; "
            "give its https:// address"
        )


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
    name = type(rest).__name__
    if not rest.token_env:
        raise LmsError(f"no c.{name}.token_env: name the environment variable that holds the token")
    value = os.environ.get(rest.token_env, "").strip()
    if not value:
        raise LmsError(
            f"the environment variable {rest.token_env} (c.{name}.token_env) is empty: set it to the "
            "LMS's API token, in the shell only, never in a file of the course"
        )
    return value
