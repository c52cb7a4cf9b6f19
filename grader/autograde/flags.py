"""The kit's statuses in nbgrader's gradebook, so that formgrader shows what needs a person.

An autograde preprocessor after SaveAutoGrades (``nbgrader_config.py``). From the notebook's grading
record: a test cell that timed out, crashed, ran out of memory, sent back answers the grader could not
read or was not run (or any cell of a notebook that did not run) keeps its score of 0 and gets
nbgrader's "needs manual grade"; the notebook is flagged when anything in it needs a person, a
changed test cell included (its score is real: the instructor's copy was graded). The student's
notebooks that are not there (not handed in, or set aside as not readable) are flagged too, and a
set-aside one needs a manual grade. A flag is never taken off here: a grader may have set it.
"""
import pathlib

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor

from .. import records
from ..records import GRADED
from ..review import needs_a_person


class FlagForReview(NbGraderPreprocessor):
    """Set nbgrader's ``needs_manual_grade`` and ``flagged`` from the kit's grading records."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        coursedir = CourseDirectory(config=self.config)
        with Gradebook(info["db_url"]) as gradebook:
            record = self._record(coursedir, info["assignment"], info["student"], f"{info['notebook']}.ipynb")
            if record is not None:
                mark(gradebook, record, info["notebook"])
            submitted = pathlib.Path(coursedir.format_path(coursedir.submitted_directory, info["student"],
                                                           info["assignment"]))
            for notebook in gradebook.find_assignment(info["assignment"]).notebooks:
                if not (submitted / f"{notebook.name}.ipynb").exists():
                    absent = self._record(coursedir, info["assignment"], info["student"], f"{notebook.name}.ipynb")
                    mark(gradebook, absent or records.NotebookRecord(info["student"], info["assignment"],
                                                                      f"{notebook.name}.ipynb", "missing"),
                         notebook.name)
        return nb, resources

    @staticmethod
    def _record(coursedir, assignment, student, notebook):
        path = records.record_path(coursedir.root, assignment, student, notebook)
        return records.read(path) if path.exists() else None


def mark(gradebook, record, notebook):
    """Flag one submitted notebook from its record, and ask for a manual grade where a zero is not real."""
    try:
        submitted = gradebook.find_submission_notebook(notebook, record.assignment, record.student)
    except MissingEntry:
        return
    statuses = {exercise.cell: exercise.status for exercise in record.exercises}
    for grade in submitted.grades:
        if grade.manual_score is None and needs_a_person(record.status, statuses.get(grade.name, GRADED)):
            grade.needs_manual_grade = True
    if record.needs_attention:
        submitted.flagged = True
    gradebook.db.commit()
