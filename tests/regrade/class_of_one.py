"""The class of one of the tests of regrade's preview (fixtures in conftest.py): its id holds a space and a quote."""

from nbgrader.api import Gradebook

from ..course_builder import ASSIGNMENT, BASICS

STUDENT = "ana o'neil"
CELL = "softmax_scores_test"
DIM0 = """def softmax_scores(scores):
    return F.softmax(scores, dim=0)"""


def set_score(course, score, student=STUDENT):
    """The student's softmax_scores score in the course's gradebook, as if graded so."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as book:
        book.find_grade(CELL, BASICS.removesuffix(".ipynb"), ASSIGNMENT, student).auto_score = score
        book.db.commit()
