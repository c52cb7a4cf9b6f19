"""What formgrader's Manage Submissions says of a student in place of nbgrader's "graded" (grader/formgrader/words.py):
the notebooks not handed in, by the grade table's numbers, and those whose nbgrader cells the student changed."""

from grader.course.grades import NotebookGrade
from grader.formgrader.words import labels

EDITED = [{"grade_id": "softmax_scores_test", "change": "edited"}]


def grades(student, *statuses, tampered=()):
    """One student's notebooks 01, 02... with these statuses; notebook 01 changed by the student if ``tampered``."""
    return [
        NotebookGrade(student, f"0{n}_notebook.ipynb", status, None, 0, 3, tampered=list(tampered) if n == 1 else [])
        for n, status in enumerate(statuses, start=1)
    ]


def test_each_student_gets_words_for_what_graded_leaves_out_and_no_one_else():
    class_grades = [
        *grades("ann", "graded", "missing", "missing"),
        *grades("bo", "missing", "missing", "missing"),
        *grades("tam", "graded", "graded", "missing", tampered=EDITED),
        *grades("dee", "graded", "timeout", "graded"),  # needs a manual grade: nbgrader itself says so
    ]
    assert labels(class_grades) == {
        "ann": [["missing", "not handed in: 02, 03"]],
        "bo": [["missing", "not handed in"]],
        "tam": [["changed", "changed by the student: 01"], ["missing", "not handed in: 03"]],
    }
