"""The kit's LTI key pair: the private key signs the kit's token requests and stays in the course (mode 0600); the
public key is given to the LMS as a JWKS (``python -m grader jwks``)."""

import json
import os
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

from ..course import Course
from . import config
from .errors import LmsError


@dataclass
class KeySet:
    private_key: object  # pathlib.Path of the private key: its contents are never shown
    jwks_path: object  # the public key set (Canvas: paste its one key; a JWKS URL can serve the file)
    public_pem: object  # the public key as PEM (Moodle's "RSA key")
    jwks: dict
    made: bool

    def __str__(self):
        done = "made a new key pair" if self.made else "the kit's key pair is"
        return (
            f"jwks: {done}: private key {self.private_key} (mode 0600: keep it, never share it); public key "
            f"set in {self.jwks_path}, the same key as PEM in {self.public_pem}, for the LMS's tool "
            f'registration (README: Grades into the LMS). Canvas\'s "Public JWK":\n'
            f"{json.dumps(self.jwks['keys'][0], indent=2)}"
        )


def jwks(course=".", assignment="self_attention", new=False):
    """Make the kit's key pair unless the course has one (``new``: replace it), write the public key set beside the
    private key (``jwks.json``) and return both paths and the set."""
    course = Course.at(course, assignment)
    path = config.key_path(course, config.settings(course, config.LtiPassback, needed=()))
    refuse_shipped(course, path)
    made = new or not path.exists()
    if made:
        _write_private(path)
    pem = private_pem(path)
    found = public_jwks(pem)
    out, public = path.with_name("jwks.json"), path.with_name("public_key.pem")
    out.write_text(json.dumps(found, indent=2) + "\n")
    public.write_text(public_key_pem(pem))
    return KeySet(path, out, public, found, made)


def refuse_shipped(course, path):
    """Stop when the key would sit in a folder that release or the student zip copies."""
    resolved = path.resolve()
    for folder in (course.source.parent, course.release.parent, course.downloads):
        if resolved.is_relative_to(folder.resolve()):
            raise LmsError(
                f"the LTI private key {path} is inside {folder}, which release or the student zip "
                "copies: set c.LtiPassback.private_key_path outside it (default lti/private_key.pem)"
            )


def _write_private(path):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fresh = path.with_name(f".{path.name}.new")
    fresh.unlink(missing_ok=True)
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(pem)
    os.replace(fresh, path)


def private_pem(path):
    """The private key's PEM text; a missing or unreadable key stops with how to make one."""
    try:
        text = path.read_text()
        if not JWK.from_pem(text.encode()).has_private:
            raise ValueError("a public key")
    except FileNotFoundError:
        raise LmsError(
            f"no LTI private key at {path}: make one with python -m grader jwks, and register its public key in the LMS"
        ) from None
    except (OSError, ValueError, TypeError):
        raise LmsError(
            f"{path} is not a readable PEM private key: make a new one with python -m grader jwks "
            "--new, and register its public key in the LMS"
        ) from None
    return text


def public_key_pem(pem):
    """The public half of the private key ``pem``, as PEM."""
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def public_jwks(pem):
    """The public key set of the private key ``pem``: one RS256 signing key, its kid the key's thumbprint."""
    key = json.loads(JWK.from_pem(pem.encode()).export_public())
    return {"keys": [{**key, "alg": "RS256", "use": "sig"}]}
