"""A notebook never handed in is listed in formgrader, flagged, and opens on a note that says so.

Ann hands in notebook 01 only (its stubs); Bo is in the gradebook and hands in nothing. After ``autograde``, a
real Jupyter server's formgrader (its API, and the view in headless Chromium) lists each notebook of each of them,
the missing ones flagged, at 0, with nothing to grade by hand; the kit still says Bo handed in nothing and nbgrader
counts one submission. No feedback page is written for a notebook not handed in. Then Ann hands in notebook 05,
correct: graded again, it scores full marks and loses the flag in the formgrader still open, and the notebooks she
still has not handed in keep theirs."""

import json
import urllib.request

import bs4
import nbformat
import pytest

from grader.autograde.missing import is_stand_in
from grader.course import Course
from grader.course.grades import course_grades

from ..browser import dump_dom
from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, submission, submit
from ..jupyter_server import jupyter_server

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

LATE = "05_multi_head_attention.ipynb"  # Ann hands it in after the first grading
HOOK = "--GenerateFeedback.post_convert_hook=grader.autograde.missing.drop_stand_in_pages"


def api(server, path):
    with urllib.request.urlopen(server.link(f"formgrader/api/{path}"), timeout=60) as answer:
        return json.loads(answer.read())


def listed(server, course):
    """{(student, notebook): (flagged, score, needs manual grade, submission id)}, from formgrader's lists of each
    notebook's submissions."""
    names = [nb["name"] for nb in api(server, f"notebooks/{ASSIGNMENT}")]
    assert len(names) == len(Course.at(course).released_exercises())
    return {
        (row["student"], f"{name}.ipynb"): (row["flagged"], row["score"], row["needs_manual_grade"], row["id"])
        for name in names
        for row in api(server, f"submitted_notebooks/{ASSIGNMENT}/{name}")
    }


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("missing") / "course")
    with Course.at(course).gradebook() as book:
        book.update_or_create_student("bo", first_name="Bo", last_name="Lee")
    submit(course, "ann", nbformat.read(Course.at(course).release / BASICS, as_version=4))
    graded = autograde(course)
    assert graded.returncode == 0, graded.stderr[-3000:]
    return course


@pytest.fixture(scope="module")
def server(course):
    """One formgrader for the module, as an instructor keeps it open: it reads the gradebook afresh for each
    request, so that it shows the second grading too."""
    with jupyter_server(course, token=False) as running:
        yield running


@pytest.fixture(scope="module")
def first(course, server):
    """What formgrader and the kit say after the first grading, and the feedback pages written then."""
    kit = Course.at(course)
    kit.run_nbgrader("generate_feedback", ASSIGNMENT, "--force", HOOK)
    pages = sorted(
        p.relative_to(kit.every_student("feedback")).as_posix() for p in kit.every_student("feedback").rglob("*.html")
    )
    rows = listed(server, course)
    view = dump_dom(server.link(f"formgrader/submissions/{rows['ann', LATE][3]}/"), budget_ms=15000)
    return {
        "rows": rows,
        "view": " ".join(bs4.BeautifulSoup(view, "html.parser").get_text(" ").split()),
        "assignment": api(server, f"assignment/{ASSIGNMENT}"),
        "pages": pages,
        "bo": api(server, f"student_notebook_submissions/bo/{ASSIGNMENT}"),
    }


@pytest.fixture(scope="module")
def later(course, first, server):
    """formgrader's lists after Ann hands in notebook 05, correct, and the course is graded again."""
    submit(course, "ann", submission(course, notebook=LATE), LATE)
    graded = autograde(course)
    assert graded.returncode == 0, graded.stderr[-3000:]
    return listed(server, course)


def test_every_notebook_of_every_student_is_listed(course, first):
    notebooks = Course.at(course).released_exercises()
    assert set(first["rows"]) == {(student, name) for student in ("ann", "bo") for name in notebooks}
    assert {row["name"] for row in first["bo"]} == {name.removesuffix(".ipynb") for name in notebooks}
    assert all(row["id"] for row in first["bo"])  # each one links to its view


def test_a_notebook_not_handed_in_is_flagged_at_zero_with_nothing_to_grade(first):
    for (student, name), (flagged, score, manual, _) in first["rows"].items():
        handed_in = (student, name) == ("ann", BASICS)
        assert flagged is not handed_in, (student, name)
        assert score == 0 and manual is False, (student, name)


def test_its_view_says_it_was_not_handed_in_and_what_to_do(first):
    assert "Not handed in. No file of this notebook was handed in, so its score is 0" in first["view"]
    assert "run python -m grader autograde again" in first["view"]
    assert "MultiHeadAttention" not in first["view"]  # none of the released cells: nothing to grade


def test_it_is_not_counted_as_handed_in(course, first):
    assert first["assignment"]["num_submissions"] == 1  # nbgrader counts Ann's only
    grades = course_grades(Course.at(course))
    assert {g.status for g in grades if g.student == "bo"} == {"missing"}
    assert {g.notebook for g in grades if g.student == "ann" and g.status != "missing"} == {BASICS}
    assert all(g.raw_score == 0 for g in grades)


def test_it_gets_no_feedback_page(first):
    assert first["pages"] == [f"ann/{ASSIGNMENT}/{BASICS.replace('.ipynb', '.html')}"]


def test_handed_in_later_it_is_graded_as_usual_and_loses_the_flag(course, later):
    flagged, score, manual, _ = later["ann", LATE]
    assert (flagged, manual) == (False, False)
    assert score == sum(points for _, points in Course.at(course).released_exercises()[LATE]) > 0
    assert not is_stand_in(Course.at(course).autograded("ann") / LATE)
    for (student, name), (flagged, score, _, _) in later.items():
        if (student, name) not in (("ann", BASICS), ("ann", LATE)):  # still not handed in: still flagged
            assert flagged and score == 0, (student, name)
