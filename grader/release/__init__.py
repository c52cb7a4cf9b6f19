"""``release``: nbgrader's student version of the notebooks, and the zip that students download."""
from .. import course as course_folders
from .bundle import write_bundle


def release(course=".", assignment="self_attention"):
    """Run ``nbgrader generate_assignment --force``, then write the student bundle.

    The bundle is ``<course>/downloads/<assignment>-student.zip``: the released notebooks under
    ``exercises/<assignment>/``, the student-safe packages ``grader.checks`` and
    ``grader.selfcheck``, a requirements.txt, a conftest.py loading the self-check plugin and a
    README. Returns the bundle's path.
    """
    course_folders.run_nbgrader(course, "generate_assignment", assignment, "--force")
    return write_bundle(course, assignment)
