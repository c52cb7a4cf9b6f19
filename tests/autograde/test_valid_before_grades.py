"""nbconvert validates an autograded notebook once, after all of a pass's steps (nbgrader_config.py): the kit's
ValidNotebook validates it before SaveAutoGrades too, so that a notebook an earlier step made invalid gets no
grade in the gradebook, as when nbconvert validated after every step."""

import nbformat
import pytest

from grader.autograde.preprocessors import ValidNotebook
from grader.course import Course

from ..course_builder import ASSIGNMENT, BASICS, autograde, submission, submit

# A step that gives a code cell an execution count that is no number, put right after the sandbox's: a notebook
# made invalid between the run and the grades (the steps before SaveAutoGrades take it as it is).
BREAK_AFTER_THE_RUN = """
from nbgrader.preprocessors import NbGraderPreprocessor


class BreakTheNotebook(NbGraderPreprocessor):
    def preprocess(self, nb, resources):
        next(cell for cell in nb.cells if cell.cell_type == "code").execution_count = "one"
        return nb, resources


c.Autograde.autograde_preprocessors = [c.Autograde.autograde_preprocessors[0], BreakTheNotebook,
                                       *c.Autograde.autograde_preprocessors[1:]]
"""


@pytest.mark.slow
def test_a_notebook_made_invalid_before_the_grades_records_none(course_copy):
    with open(course_copy / "nbgrader_config.py", "a") as config:
        config.write(BREAK_AFTER_THE_RUN)
    submit(course_copy, "ann", submission(course_copy))
    done = autograde(course_copy)
    assert done.returncode != 0, done.stdout
    assert "ann" in done.stdout + done.stderr
    with Course.at(course_copy, ASSIGNMENT).gradebook() as book:
        notebook = book.find_submission_notebook(BASICS.removesuffix(".ipynb"), ASSIGNMENT, "ann")
        assert notebook.grades, "the submission's graded cells are in the gradebook"
        assert [grade.auto_score for grade in notebook.grades] == [None] * len(notebook.grades)


def test_valid_notebook_refuses_what_nbconvert_refuses(course_copy):
    nb = submission(course_copy)
    assert ValidNotebook().preprocess(nb, {}) == (nb, {})
    next(cell for cell in nb.cells if cell.cell_type == "code").execution_count = "one"
    with pytest.raises(nbformat.ValidationError):
        ValidNotebook().preprocess(nb, {})
