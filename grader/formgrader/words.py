"""What formgrader's Manage Submissions says of each student in place of nbgrader's "graded": the notebooks not
handed in and those whose nbgrader cells the student changed, as the grade table and the class report list them
(grader.course.review)."""

from ..course.review import changed_by_student, not_handed_in, short_name

NOT_HANDED_IN = "not handed in"
CHANGED = "changed by the student"


def labels(grades):
    """{student: [[kind, words], ...]} of :class:`grader.course.grades.NotebookGrade` s: kind 'changed' or
    'missing', words 'changed by the student: 01', 'not handed in: 02, 03', or 'not handed in' for a student who
    handed in nothing. A student with nothing to say is left out."""
    every = {}
    for notebook in grades:
        every.setdefault(notebook.student, []).append(notebook.notebook)
    found = {}
    for student, notebooks in changed_by_student(grades).items():
        found.setdefault(student, []).append(["changed", _words(CHANGED, notebooks)])
    for student, notebooks in not_handed_in(grades).items():
        nothing = len(notebooks) == len(every[student])
        found.setdefault(student, []).append(
            ["missing", NOT_HANDED_IN if nothing else _words(NOT_HANDED_IN, notebooks)]
        )
    return found


def _words(what, notebooks):
    return f"{what}: {', '.join(short_name(notebook) for notebook in notebooks)}"
