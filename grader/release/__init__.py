"""``release``: nbgrader's student version of the notebooks, and the zip that students download."""

from ..course import Course
from .bundle import write_bundle
from .swap import generate_atomically


def release(course=".", assignment="self_attention"):
    """Run ``nbgrader generate_assignment`` (into a temporary folder, swapped in only on success), then
    write the student bundle.

    The bundle is ``<course>/downloads/<assignment>-student.zip``: the released notebooks under
    ``exercises/<assignment>/``, the student package (``grader.checks`` and ``grader.selfcheck`` as a
    wheel with a pytest plugin, also written to ``downloads/``) and a README. Returns the bundle's path.
    """
    course = Course.at(course, assignment)
    generate_atomically(course)
    return write_bundle(course)
