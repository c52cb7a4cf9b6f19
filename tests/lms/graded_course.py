"""A course as nbgrader leaves it after grading, built in seconds (no notebook is run), for the passback tests:
a late penalty, a manual grade that overrides the autograded one, a cell waiting for a manual grade, a student who
handed in nothing, one the LMS does not list; and the kit's LTI key pair in it."""

import shutil

from nbgrader.api import Gradebook

from grader.cli import main
from grader.course import CONFIG, venv_on_path
from grader.demo.lti_platform import INSTRUCTOR, member
from grader.lms.keys import jwks

from ..conftest import ROOT
from ..course_builder import submit

A, NOTEBOOK = "self_attention", "01_attention_basics"
# (student, e-mail, auto score of the test cell /6, manual score of the written answer /4 or None: waiting,
# the test cell's manual score or None, late penalty); dee hands in nothing.
HANDED_IN = [
    ("ana", "ana@uni.example", 5, 3, None, 2.0),
    ("ben", "ben@uni.example", 2, 4, 5, 0.0),
    ("cas", "cas@uni.example", 4, None, None, 0.0),
    ("eve", "eve@uni.example", 6, 4, None, 0.0),
    ("fay", "fay@home.example", 3, 1, None, 0.0),
]
MEMBERS = [
    member("sub-ana", "Ana Lima", "ANA@uni.example"),
    member("sub-ben", "Ben Okoro", "ben@uni.example"),
    member("sub-cas", "Cas Vries", "cas@uni.example"),
    member("sub-dee", "Dee Park", "dee@uni.example"),
    member("sub-fay", "Fay Wong", "fay.wong@uni.example"),
    member("sub-zed", "Zed Amari", "zed@uni.example", sis_id="zed"),
    member("sub-teacher", "Tia Cher", "tia@uni.example", roles=[INSTRUCTOR]),
]


def graded_course(folder, empty_gradebook):
    """The course, in ``folder``/course."""
    course = folder / "course"
    course.mkdir()
    shutil.copy(ROOT / CONFIG, course)
    shutil.copy(empty_gradebook, course / "gradebook.db")
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as book:
        book.add_assignment(A)
        book.add_notebook(NOTEBOOK, A)
        book.add_grade_cell("softmax_test", NOTEBOOK, A, max_score=6, cell_type="code")
        book.add_grade_cell("why_scale", NOTEBOOK, A, max_score=4, cell_type="markdown")
        book.add_student("dee", first_name="Dee", last_name="Park", email="dee@uni.example")
        for student, email, auto, written, manual, penalty in HANDED_IN:
            book.add_student(student, email=email, lms_user_id="sub-fay" if student == "fay" else None)
            book.add_submission(A, student)
            test = book.find_grade("softmax_test", NOTEBOOK, A, student)
            test.auto_score, test.manual_score, test.needs_manual_grade = auto, manual, False
            answer = book.find_grade("why_scale", NOTEBOOK, A, student)
            answer.manual_score, answer.needs_manual_grade = written, written is None
            book.find_submission_notebook(NOTEBOOK, A, student).late_submission_penalty = penalty
            submit(course, student, "{}", f"{NOTEBOOK}.ipynb")
            book.db.commit()
    jwks(course)
    return course


def gradebook_totals(course):
    """{student: score less late penalty}, read with nbgrader's own API, for whoever handed in."""
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as book:
        return {
            s.student.id: max(0.0, s.score - s.late_submission_penalty) for s in book.find_assignment(A).submissions
        }


def run(capsys, *argv):
    """``python -m grader`` as an instructor runs it: (its output, its one-line refusal or None)."""
    try:
        main(list(argv))
        refusal = None
    except SystemExit as stopped:
        refusal = stopped.code
    out = capsys.readouterr()
    return out.out + out.err, refusal
