"""Hidden checks: the machinery behind the exercises' hidden parts (grader/exercises/), for the instructor only.

Never released to students, never imported inside a sandbox: the release compiles each exercise module
without its hidden parts (grader/release/compile.py), and a sandbox cannot read this package.
"""

from ..checks.registry import hidden_parts


def check_hidden(grade):
    """Add the hidden checks to a test cell's running grade, which is then complete."""
    grade.add(hidden_parts(grade.name))
    grade.complete = True
