"""FlagForReview leaves the gradebook closed only where it would have changed nothing in it
(grader/autograde/flags.py): every notebook and exercise status, against what ``mark`` does to a notebook's
grades; and a notebook that was not handed in always sends it to the gradebook."""

import itertools
import types

import pytest

from grader.autograde.flags import _every_released_notebook_handed_in, _nothing_to_mark, mark
from grader.course import Course
from grader.records import ExerciseRecord, NotebookRecord
from grader.records.statuses import STATUSES

from ..course_builder import ASSIGNMENT


def grade(name):
    """A graded cell with no manual grade (``mark`` leaves a cell with one alone)."""
    return types.SimpleNamespace(name=name, manual_score=None, auto_score=None, needs_manual_grade=False)


class Book:
    """What ``mark`` reads and writes of nbgrader's gradebook, for one notebook with two graded cells."""

    def __init__(self):
        self.notebook = types.SimpleNamespace(flagged=False, grades=[grade("one_test"), grade("two_test")])
        self.db = types.SimpleNamespace(commit=lambda: None)

    def find_submission_notebook(self, notebook, assignment, student):
        return self.notebook

    def state(self):
        return self.notebook.flagged, [(g.auto_score, g.needs_manual_grade) for g in self.notebook.grades]


@pytest.mark.parametrize("status", sorted(STATUSES))
def test_the_gradebook_is_left_closed_only_where_mark_changes_nothing(status):
    for first, second in itertools.product([None, *sorted(STATUSES)], repeat=2):
        exercises = [
            ExerciseRecord(name, 1.0, 1.0, each, "") for name, each in (("one", first), ("two", second)) if each
        ]
        for tampered in ([], [{"cell": "one_test", "change": "changed"}]):
            record = NotebookRecord("ann", ASSIGNMENT, "01.ipynb", status, "", tampered=tampered, exercises=exercises)
            book = Book()
            before = book.state()
            mark(book, record, "01")
            if _nothing_to_mark(record):
                assert book.state() == before, (status, first, second, tampered)


def test_a_clean_graded_record_leaves_the_gradebook_closed():
    record = NotebookRecord(
        "ann", ASSIGNMENT, "01.ipynb", "graded", "", exercises=[ExerciseRecord("one", 1.0, 1.0, "graded", "")]
    )
    assert _nothing_to_mark(record)
    assert not _nothing_to_mark(None)


def test_a_notebook_not_handed_in_opens_the_gradebook(tmp_path):
    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.CourseDirectory.release_directory = "exercises"\n'
    )
    course = Course.at(tmp_path, ASSIGNMENT)
    course.release.mkdir(parents=True)
    course.submitted("ann").mkdir(parents=True)
    assert not _every_released_notebook_handed_in(course, "ann")  # an empty release: the gradebook decides
    for name in ("01.ipynb", "02.ipynb"):
        (course.release / name).write_text("{}")
    (course.submitted("ann") / "01.ipynb").write_text("{}")
    assert not _every_released_notebook_handed_in(course, "ann")
    (course.submitted("ann") / "02.ipynb").write_text("{}")
    assert _every_released_notebook_handed_in(course, "ann")
