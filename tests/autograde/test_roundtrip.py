"""Stock ``nbgrader autograde`` on the kit's course: a filled copy gets full marks, the release gets zero,
and an untouched submission logs no warning."""

import subprocess
import sys

import pytest

from ..course_builder import ASSIGNMENT, make_course, submission, submit

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

NOTEBOOKS = ["01_attention_basics.ipynb", "05_multi_head_attention.ipynb"]


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("roundtrip") / "course")
    for notebook in NOTEBOOKS:
        submit(course, "filled", submission(course, notebook=notebook), notebook)
        release = (course / "exercises" / ASSIGNMENT / notebook).read_text()
        submit(course, "untouched", release, notebook)
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT, "--log-level=WARN"],
        cwd=course,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return course, done.stderr


def test_filled_copy_gets_full_marks_and_release_gets_zero(course):
    found = {(r.student, r.notebook): r for r in records_all(course[0])}
    for notebook in NOTEBOOKS:
        filled, untouched = found[("filled", notebook)], found[("untouched", notebook)]
        assert filled.score == sum(e.max_score for e in filled.exercises) > 0
        assert untouched.score == 0
        assert all(e.status == "graded" for e in filled.exercises + untouched.exercises)


def test_gradebook_agrees_with_the_records(course):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course[0] / 'gradebook.db'}") as gradebook:
        scores = {
            (s.student.id, nb.name + ".ipynb"): nb.score
            for s in gradebook.assignment_submissions(ASSIGNMENT)
            for nb in s.notebooks
            if nb.name + ".ipynb" in NOTEBOOKS
        }
    assert scores == {(r.student, r.notebook): r.score for r in records_all(course[0])}


def test_untouched_submissions_log_no_warning(course):
    warnings = [line for line in course[1].splitlines() if "WARNING" in line and "No submitted file" not in line]
    assert warnings == []
    assert "No submitted file" in course[1], "the notebooks left out of this course are reported"


def records_all(course):
    from grader.course import Course
    from grader.records import read_all

    return read_all(Course.at(course))
