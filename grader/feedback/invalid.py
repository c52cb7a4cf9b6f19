"""What the feedback page of a notebook whose file could not be read says: what was wrong with the file and what
to do, from a Jinja2 template (autoescaped).

The kit's autograde gives such a notebook an autograded stand-in (grader.autograde.unreadable), so nbgrader's
``generate_feedback`` makes its page like any other's; :class:`grader.feedback.preprocessor.KitFeedback` puts
this in place of the stand-in's cells.
"""

import jinja2

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("grader.feedback", "templates"), autoescape=True, undefined=jinja2.StrictUndefined
)
ENVIRONMENT.filters["capitalize_first"] = lambda text: text[:1].upper() + text[1:]


def invalid_notice(record):
    """The page's content (HTML) for a notebook record whose status is 'invalid'."""
    return ENVIRONMENT.get_template("invalid_notebook.html.j2").render(record=record)
