"""nbgrader's gradebook as plain rows: the scores of every graded cell, notebook and student.

The gradebook is the one source of truth for scores: autograded scores, manual scores given in
formgrader (a manual score overrides the autograded one) and late penalties. Works with any
``db_url`` nbgrader accepts.
"""
from dataclasses import dataclass

from nbgrader.api import (Assignment, BaseCell, Gradebook, GradeCell, Grade, Notebook, SolutionCell, Student,
                          SubmittedAssignment, SubmittedNotebook, TaskCell)

from .course import course_directory, gradebook_exists, venv_on_path

TEST, ANSWER, WRITTEN, TASK = "test", "answer", "written answer", "task"


@dataclass(frozen=True)
class Cell:
    """A graded cell of the assignment, as released: ``kind`` is test, answer, written answer or task."""
    notebook: str
    grade_id: str
    kind: str
    max_score: float


@dataclass(frozen=True)
class CellScore:
    """One student's score for one graded cell; ``score`` is the manual score when there is one."""
    student: str
    notebook: str
    grade_id: str
    score: float
    max_score: float
    auto_score: float | None
    manual_score: float | None
    needs_manual_grade: bool


@dataclass(frozen=True)
class NotebookScore:
    """One student's notebook: its raw score, its late penalty, and the score that counts."""
    student: str
    notebook: str
    raw_score: float
    max_score: float
    late_penalty: float

    @property
    def score(self):
        return max(0.0, self.raw_score - self.late_penalty)


def gradebook(course):
    """The course's gradebook, opened where nbgrader can find ``alembic``."""
    url = course_directory(course).db_url
    with venv_on_path():
        return Gradebook(url)


def graded_cells(course, assignment):
    """Every graded cell of the assignment's notebooks (empty when it is not in the gradebook)."""
    if not gradebook_exists(course):
        return []  # reading must not create an empty gradebook
    with gradebook(course) as book:
        answers = set(book.db.query(Notebook.name, SolutionCell.name).join(SolutionCell.notebook)
                      .join(Notebook.assignment).filter(Assignment.name == assignment))
        cells = []
        for table in (GradeCell, TaskCell):
            rows = (book.db.query(Notebook.name, table.name, table.cell_type, table.max_score)
                    .join(table.notebook).join(Notebook.assignment).filter(Assignment.name == assignment))
            cells += [Cell(notebook, name, _kind(table, cell_type, (notebook, name) in answers), max_score)
                      for notebook, name, cell_type, max_score in rows]
    return sorted(cells, key=lambda c: (c.notebook, c.grade_id))


def _kind(table, cell_type, is_answer):
    if table is TaskCell:
        return TASK
    if cell_type == "markdown":
        return WRITTEN
    return ANSWER if is_answer else TEST


def cell_scores(course, assignment):
    """Every graded cell's score for every student with a submission, as the gradebook has it."""
    if not gradebook_exists(course):
        return []  # reading must not create an empty gradebook
    with gradebook(course) as book:
        rows = (book.db.query(Student.id, Notebook.name, BaseCell.name, Grade.score, Grade.max_score,
                              Grade.auto_score, Grade.manual_score, Grade.needs_manual_grade)
                .select_from(Grade).join(Grade.cell).join(Grade.notebook).join(SubmittedNotebook.notebook)
                .join(SubmittedNotebook.assignment).join(SubmittedAssignment.assignment)
                .join(SubmittedAssignment.student).filter(Assignment.name == assignment))
        return sorted((CellScore(*row) for row in rows), key=lambda s: (s.student, s.notebook, s.grade_id))


def notebook_scores(course, assignment):
    """Every submitted notebook's score, late penalty included, as the gradebook has it."""
    if not gradebook_exists(course):
        return []  # reading must not create an empty gradebook
    with gradebook(course) as book:
        rows = (book.db.query(Student.id, Notebook.name, SubmittedNotebook.score, SubmittedNotebook.max_score,
                              SubmittedNotebook.late_submission_penalty)
                .select_from(SubmittedNotebook).join(SubmittedNotebook.notebook)
                .join(SubmittedNotebook.assignment).join(SubmittedAssignment.assignment)
                .join(SubmittedAssignment.student).filter(Assignment.name == assignment))
        return sorted((NotebookScore(student, notebook, score or 0.0, most or 0.0, penalty or 0.0)
                       for student, notebook, score, most, penalty in rows), key=lambda s: (s.student, s.notebook))


def students(course):
    """The students in the course's gradebook."""
    if not gradebook_exists(course):
        return []  # reading must not create an empty gradebook
    with gradebook(course) as book:
        return sorted(student.id for student in book.students)
