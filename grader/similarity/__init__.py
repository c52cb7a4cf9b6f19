"""``similarity``: which pairs of students share answers that are rare in their class, the released starter code
left out, as a page beside the class report (``reports/<assignment>/similarity.html``). Nothing a student wrote
is run."""

import pathlib

from ..cli.errors import UsageError
from ..course import SIMILARITY_PAGE, Course
from ..course.titles import short_titles
from .answers import class_answers
from .comparison import compare
from .page import render
from .shuffles import LEVEL


def similarity(course=".", assignment="self_attention", out=None, chance=LEVEL):
    """Compare every pair of students' answers, flag the pairs whose score a share ``chance`` or less of shuffled
    classes reach, and write the page to ``out`` (default ``<course>/reports/<assignment>/``); return the page."""
    if not 0 < chance < 1:
        raise UsageError(f"--chance {chance}: give a share of shuffled classes above 0 and below 1, such as 0.1")
    course = Course.at(course, assignment)
    if not any(course.release.glob("*.ipynb")):
        raise UsageError(f"no notebook of {course.assignment} in {course.release}; run python -m grader release first")
    answers = class_answers(course)
    if not answers.students:
        raise UsageError(
            f"no student's notebook of {course.assignment} in {course.every_student('submitted')}; "
            "run python -m grader collect first"
        )
    out = pathlib.Path(out or course.reports / course.assignment)
    out.mkdir(parents=True, exist_ok=True)
    page = out / SIMILARITY_PAGE
    report = out / "index.html"
    page.write_text(
        render(
            course.assignment,
            compare(answers, chance),
            answers,
            short_titles(course.released_notebooks()),
            report.name if report.is_file() else None,
        ),
        encoding="utf-8",
    )
    return page
