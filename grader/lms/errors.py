"""What the LMS refused or could not be reached for, in one line that names what to fix (never a secret)."""

from ..cli.errors import UsageError


class LmsError(UsageError):
    """A credential, URL or answer of the LMS that stops a roster or a passback; ``python -m grader`` prints
    the message alone."""
