"""Notebooks whose file could not be read, shown in formgrader: formgrader lists only the notebooks that have an
autograded file, so each gets one, the released notebook under a note that says what happened, in which a
grader can give manual grades; in the gradebook it is flagged and each of its cells needs a manual grade.
"""

import nbformat
from nbformat.v4 import new_markdown_cell

from ..records import read_all
from .flags import mark_absent

NOTE = (
    "**This notebook's file could not be read**: {reason}. None of its exercises were checked, and the cells "
    "below are the released notebook, not the student's work (the file handed in is kept as "
    "`{notebook}.invalid` in the submitted folder). Ask for a new copy and grade again, or give a manual "
    "grade for each test cell here."
)


def show_unreadable(course):
    """An autograded stand-in and the gradebook's flags for every notebook recorded as invalid."""
    unreadable = [r for r in read_all(course) if r.status == "invalid"]
    if not unreadable:
        return
    with course.gradebook() as book:
        for record in unreadable:
            released = course.release / record.notebook
            if not released.exists() or (course.submitted(record.student) / record.notebook).exists():
                continue  # not in the assignment, or handed in again since
            book.update_or_create_student(record.student)
            book.update_or_create_submission(course.assignment, record.student)  # every file was unreadable
            nb = nbformat.read(released, as_version=4)
            nb.cells.insert(0, new_markdown_cell(NOTE.format(reason=record.reason, notebook=record.notebook)))
            folder = course.autograded(record.student)
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / record.notebook)
            mark_absent(book, course, record.student)
