"""A request the kit cannot carry out (a missing file, a folder that is not a course...): its message says
why in one line, and ``python -m grader`` prints it with no traceback."""


class UsageError(ValueError):
    pass


class NbgraderFailed(RuntimeError):
    """A stock nbgrader command failed; the message holds what nbgrader said."""
