"""``feedback``: nbgrader's own ``generate_feedback``, which the course's configuration makes the kit's.

One feedback path: ``nbgrader_config.py`` adds :class:`grader.feedback.preprocessor.KitFeedback`
to nbgrader's feedback preprocessors, so the stock command, formgrader's button and this verb all
write the same pages, ``feedback/<student>/<assignment>/<notebook>.html``, with the gradebook's
scores (late penalties and manual grades included), the kit's diagnosis under each test cell and
no hidden test. ``nbgrader release_feedback`` and ``fetch_feedback`` deliver them. A notebook whose file could
not be read gets a page that says what was wrong and what to do (:mod:`grader.feedback.invalid`).
"""

from ..course import Course


def feedback(course=".", assignment="self_attention"):
    """Write every autograded notebook's feedback page (again, if there was one); return their paths."""
    course = Course.at(course, assignment)
    course.run_nbgrader("generate_feedback", course.assignment, "--force")
    return sorted(course.every_student("feedback").glob(f"*/{course.assignment}/*.html"))
