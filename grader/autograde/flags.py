"""The kit's statuses in nbgrader's gradebook, so that formgrader shows what needs a person.

An autograde preprocessor after SaveAutoGrades (``nbgrader_config.py``). From the notebook's grading
record, as the table of statuses (grader.records.statuses) reads it: a test cell that timed out, crashed, ran out of
memory, sent back answers the grader could not read, was not run or that the grader could not check (or any
cell of a notebook that did not run) keeps its score of 0 and gets nbgrader's "needs manual grade"; the
notebook is flagged when anything in it needs a person, a changed, copied or added nbgrader cell included
(its scores are real: the instructor's cells were graded). The student's notebooks that are not there (not
handed in, or set aside as not readable) are flagged too, and a set-aside one needs a manual grade. A flag is
never taken off here: a grader may have set it. A notebook whose nbgrader cells the student changed opens, in
formgrader, with a note for the grader that names each changed cell and how it changed (grader/course/review.py; the
feedback page leaves it out: the student's page has its own note).
"""

from nbgrader.api import MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor

from .. import records
from ..course import Course
from ..course.review import grader_note
from ..records.statuses import GRADED, needs_manual_grade


class FlagForReview(NbGraderPreprocessor):
    """Set nbgrader's ``needs_manual_grade`` and ``flagged`` from the kit's grading records."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        course = Course.of_notebook(self, resources)
        path = records.record_path(course, info["student"], info["notebook"])
        record = records.read(path) if path.exists() else None
        if not (_nothing_to_mark(record) and _every_released_notebook_handed_in(course, info["student"])):
            with course.gradebook() as gradebook:
                if record is not None:
                    mark(gradebook, record, info["notebook"])
                mark_absent(gradebook, course, info["student"])
        if record is not None and record.tampered:
            nb.cells.insert(0, grader_note(record.tampered))
        return nb, resources


def _nothing_to_mark(record):
    """True when :func:`mark` would change nothing in the gradebook (graded, nothing for a person to do), so that it
    need not be opened; False without a record."""
    return (
        record is not None
        and not record.needs_attention
        and not needs_manual_grade(record.status, GRADED, *(exercise.status for exercise in record.exercises))
    )


def _every_released_notebook_handed_in(course, student):
    """True when :func:`mark_absent` has nothing to flag: the student's submitted folder holds every notebook of the
    release (False without a release: the gradebook says then). A notebook of the gradebook that is not in the
    release is flagged for every student after the kit's autograde (grader.autograde.missing)."""
    released = [path.name for path in course.release.glob("*.ipynb")]
    return bool(released) and all((course.submitted(student) / name).exists() for name in released)


def mark_absent(gradebook, course, student):
    """Flag the student's notebooks that are not in the submitted folder: not handed in (nbgrader's zero stands),
    or set aside as not readable (recorded as invalid: each cell needs a manual grade)."""
    submitted = course.submitted(student)
    for notebook in gradebook.find_assignment(course.assignment).notebooks:
        if (submitted / f"{notebook.name}.ipynb").exists():
            continue
        path = records.record_path(course, student, notebook.name)
        record = (
            records.read(path)
            if path.exists()
            else records.NotebookRecord(student, course.assignment, f"{notebook.name}.ipynb", "missing")
        )
        mark(gradebook, record, notebook.name)


def mark(gradebook, record, notebook):
    """Flag one submitted notebook from its record, and ask for a manual grade where a zero is not real."""
    try:
        submitted = gradebook.find_submission_notebook(notebook, record.assignment, record.student)
    except MissingEntry:
        return
    statuses = {exercise.cell: exercise.status for exercise in record.exercises}
    for grade in submitted.grades:
        if grade.manual_score is not None:
            continue
        if needs_manual_grade(record.status, statuses.get(grade.name, GRADED)):
            grade.needs_manual_grade = True
        elif record.status == "missing":  # as nbgrader scores a notebook not handed in: a zero, nothing to grade
            grade.auto_score, grade.needs_manual_grade = grade.auto_score or 0.0, False
    if record.needs_attention:
        submitted.flagged = True
    gradebook.db.commit()
