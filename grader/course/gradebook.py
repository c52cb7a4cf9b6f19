"""nbgrader's gradebook as plain rows: the scores of every graded cell, notebook and student.

The gradebook is the one source of truth for scores: autograded scores, manual scores given in
formgrader (a manual score overrides the autograded one), late penalties, and how late each submission was.
Works with any ``db_url`` nbgrader accepts. Every verb reads the gradebook's scores and students here, and nowhere else.
"""

from dataclasses import dataclass

from nbgrader.api import (
    Assignment,
    BaseCell,
    Grade,
    GradeCell,
    MissingEntry,
    Notebook,
    SolutionCell,
    Student,
    SubmittedAssignment,
    SubmittedNotebook,
    TaskCell,
)

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


class LessLatePenalty:
    """A score row's ``score``: its ``raw_score`` less its ``late_penalty`` (:func:`less_late_penalty`)."""

    @property
    def score(self):
        return less_late_penalty(self.raw_score, self.late_penalty)


@dataclass(frozen=True)
class NotebookScore(LessLatePenalty):
    """One student's notebook: its raw score, its late penalty, the score that counts, and how many seconds after
    the due date (the student's extension included) its submission was handed in: 0 when on time or without a
    due date or a hand-in time."""

    student: str
    notebook: str
    raw_score: float
    max_score: float
    late_penalty: float
    seconds_late: float = 0.0


@dataclass(frozen=True)
class Person:
    """A student as the gradebook (nbgrader's ``db student import``) has them; names and ids may be empty."""

    id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""
    lms_user_id: str = ""


@dataclass(frozen=True)
class AssignmentScore(LessLatePenalty):
    """One student's whole assignment, as nbgrader's own CSV export has it (zero without a submission)."""

    student: Person
    raw_score: float
    max_score: float
    late_penalty: float


def less_late_penalty(raw_score, late_penalty):
    """The score that counts, as nbgrader's: the score less the late penalty, never below zero."""
    return max(0.0, raw_score - late_penalty)


@dataclass(frozen=True)
class Scores:
    """What the gradebook holds of one assignment, read in one session: its graded cells, every student's cell and
    notebook scores, and its students."""

    cells: list
    cell_scores: list
    notebook_scores: list
    students: list


def read_scores(course):
    """The assignment's :class:`Scores`, the gradebook opened once (all empty when there is no gradebook yet:
    reading must not create one)."""
    if not course.gradebook_exists():
        return Scores([], [], [], [])
    with course.gradebook() as book:
        return Scores(
            _graded_cells(book, course.assignment),
            _cell_scores(book, course.assignment),
            _notebook_scores(book, course.assignment),
            _students(book),
        )


def graded_cells(course):
    """Every graded cell of the assignment's notebooks (empty when it is not in the gradebook)."""
    if not course.gradebook_exists():
        return []
    with course.gradebook() as book:
        return _graded_cells(book, course.assignment)


def students(course):
    """The students in the course's gradebook, with their names, emails and LMS ids, sorted by id."""
    if not course.gradebook_exists():
        return []
    with course.gradebook() as book:
        return _students(book)


def _graded_cells(book, assignment):
    answers = set(
        book.db.query(Notebook.name, SolutionCell.name)
        .join(SolutionCell.notebook)
        .join(Notebook.assignment)
        .filter(Assignment.name == assignment)
    )
    cells = []
    for table in (GradeCell, TaskCell):
        rows = (
            book.db.query(Notebook.name, table.name, table.cell_type, table.max_score)
            .join(table.notebook)
            .join(Notebook.assignment)
            .filter(Assignment.name == assignment)
        )
        cells += [
            Cell(notebook, name, _kind(table, cell_type, (notebook, name) in answers), max_score)
            for notebook, name, cell_type, max_score in rows
        ]
    return sorted(cells, key=lambda c: (c.notebook, c.grade_id))


def _kind(table, cell_type, is_answer):
    if table is TaskCell:
        return TASK
    if cell_type == "markdown":
        return WRITTEN
    return ANSWER if is_answer else TEST


def _cell_scores(book, assignment):
    """Every graded cell's score for every student with a submission, as the gradebook has it."""
    rows = (
        book.db.query(
            Student.id,
            Notebook.name,
            BaseCell.name,
            Grade.score,
            Grade.max_score,
            Grade.auto_score,
            Grade.manual_score,
            Grade.needs_manual_grade,
        )
        .select_from(Grade)
        .join(Grade.cell)
        .join(Grade.notebook)
        .join(SubmittedNotebook.notebook)
        .join(SubmittedNotebook.assignment)
        .join(SubmittedAssignment.assignment)
        .join(SubmittedAssignment.student)
        .filter(Assignment.name == assignment)
    )
    return sorted((CellScore(*row) for row in rows), key=lambda s: (s.student, s.notebook, s.grade_id))


def _notebook_scores(book, assignment):
    """Every submitted notebook's score, late penalty and seconds late included, as the gradebook has it."""
    rows = (
        book.db.query(
            Student.id,
            Notebook.name,
            SubmittedNotebook.score,
            SubmittedNotebook.max_score,
            SubmittedNotebook.late_submission_penalty,
            SubmittedAssignment.timestamp,
            Assignment.duedate,
            SubmittedAssignment.extension,
        )
        .select_from(SubmittedNotebook)
        .join(SubmittedNotebook.notebook)
        .join(SubmittedNotebook.assignment)
        .join(SubmittedAssignment.assignment)
        .join(SubmittedAssignment.student)
        .filter(Assignment.name == assignment)
    )
    return sorted(
        (
            NotebookScore(
                student,
                notebook,
                score or 0.0,
                most or 0.0,
                penalty or 0.0,
                seconds_late(timestamp, duedate, extension),
            )
            for student, notebook, score, most, penalty, timestamp, duedate, extension in rows
        ),
        key=lambda s: (s.student, s.notebook),
    )


def seconds_late(timestamp, duedate, extension=None):
    """How many seconds after its due date (``duedate`` plus the student's ``extension``, if any) a submission
    handed in at ``timestamp`` was, as nbgrader's ``SubmittedAssignment.total_seconds_late`` computes it from the
    same columns (read here in the one query, not an object each): 0 when on time, without a due date or without a
    hand-in time."""
    if timestamp is None or duedate is None:
        return 0.0
    due = duedate + extension if extension is not None else duedate
    return max(0.0, (timestamp - due).total_seconds())


def _students(book):
    return sorted((_person(student) for student in book.students), key=lambda person: person.id)


def assignment_scores(course):
    """Every student of the gradebook's score for the whole assignment, sorted by id."""
    found = []
    with course.gradebook() as book:
        max_score = book.find_assignment(course.assignment).max_score
        for student in book.students:
            try:
                submission = book.find_submission(course.assignment, student.id)
                raw_score, late_penalty = submission.score, submission.late_submission_penalty
            except MissingEntry:
                raw_score, late_penalty = 0.0, 0.0
            found.append(AssignmentScore(_person(student), raw_score, max_score, late_penalty))
    return sorted(found, key=lambda score: score.student.id)


def enrol(course, student, **names):
    """Add ``student`` to the gradebook, or update their names (``first_name``, ``last_name``, ``email``)."""
    with course.gradebook() as book:
        book.update_or_create_student(student, **names)


def _person(student):
    return Person(
        student.id, student.first_name or "", student.last_name or "", student.email or "", student.lms_user_id or ""
    )
