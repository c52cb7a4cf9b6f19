"""Notebooks never handed in, listed and flagged in formgrader.

formgrader lists a student's notebook only when it has an autograded file, and a student who handed in nothing has
no submission in the gradebook at all, so neither shows. Each such notebook gets what an unreadable one gets
(grader.autograde.unreadable): a submission in the gradebook if the student has none, nbgrader's zero and the flag
(grader.autograde.flags.mark_absent), and an autograded stand-in that, opened, says it was not handed in. The
stand-in holds no cell of the release: nothing to grade, no score but 0. Its student still counts as having
handed in nothing (grader.course.grades reads the submitted folder), and gets no feedback page for it
(:func:`drop_stand_in_pages`). Handed in later, the notebook is graded as usual (nbgrader's autograde replaces
the student's autograded folder) and loses the flag set here.
"""

import contextlib
import json
import os
import pathlib

import nbformat
from nbformat.v4 import new_notebook
from nbgrader.api import MissingEntry

from .. import records
from ..course import Course
from ..course.review import not_handed_in_note
from .flags import mark_absent

STAND_IN = "attention_kit_not_handed_in"  # the stand-in's metadata key
FLAGGED = ".flagged_not_handed_in"  # in grading/<student>/ (not *.json: records): the notebooks flagged here


def show_missing(course):
    """A stand-in and the gradebook's flag for every notebook that a student of the gradebook did not hand in, once
    anyone has handed in anything; the flag set here taken off a notebook handed in since."""
    if not any(course.every_student("submitted").glob(f"*/{course.assignment}/*.ipynb*")):
        return  # nothing collected yet: no one is missing anything
    with course.gradebook() as book:
        names = [notebook.name for notebook in book.find_assignment(course.assignment).notebooks]
        for student in [s.id for s in book.students]:
            _unflag_handed_in(book, course, student)
            missing = [name for name in names if not _handed_in(course, student, name)]
            if not missing or not _graded_or_empty(book, course, student):
                continue
            book.update_or_create_submission(course.assignment, student)
            mark_absent(book, course, student)
            folder = course.autograded(student)
            folder.mkdir(parents=True, exist_ok=True)
            for name in missing:
                nbformat.write(_stand_in(), folder / f"{name}.ipynb")
            _remember(course, student, missing)


def drop_stand_in_pages(assignment, student, notebooks):
    """nbgrader's ``GenerateFeedback.post_convert_hook``: a notebook never handed in gets no feedback page. nbgrader
    calls it in the course's folder, ``notebooks`` the autograded notebooks of one student."""
    for path in map(pathlib.Path, notebooks):
        if is_stand_in(path):
            folder = Course.at(os.getcwd(), path.parent.name).feedback(path.parent.parent.name)
            (folder / f"{path.stem}.html").unlink(missing_ok=True)
            if folder.is_dir() and not any(folder.iterdir()):  # a student who handed in nothing: no folder either
                folder.rmdir()
                with contextlib.suppress(OSError):
                    folder.parent.rmdir()


def is_stand_in(path):
    """True for an autograded notebook that stands in for one never handed in."""
    return bool(nbformat.read(path, as_version=4).metadata.get(STAND_IN))


def _stand_in():
    nb = new_notebook(cells=[not_handed_in_note()])
    nb.metadata[STAND_IN] = True
    return nb


def _handed_in(course, student, name):
    """Handed in, readable or not (an unreadable one has its own stand-in)."""
    folder = course.submitted(student)
    return (folder / f"{name}.ipynb").exists() or (folder / f"{name}.ipynb.invalid").exists()


def _graded_or_empty(book, course, student):
    """The student's submission is in the gradebook, or they handed in nothing: not one handed in but not graded."""
    try:
        book.find_submission(course.assignment, student)
        return True
    except MissingEntry:
        return not any(course.submitted(student).glob("*.ipynb*"))


def _flagged_path(course, student):
    return course.grading / student / FLAGGED


def _remember(course, student, missing):
    path = _flagged_path(course, student)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(sorted(set(missing) | set(_flagged_here(course, student)))))


def _flagged_here(course, student):
    path = _flagged_path(course, student)
    return json.loads(path.read_text()) if path.exists() else []


def _unflag_handed_in(book, course, student):
    """Take the flag off each notebook flagged here as not handed in that has been handed in and graded since,
    unless its grading found something that needs a person."""
    flagged = _flagged_here(course, student)
    graded = [
        name
        for name in flagged
        if (course.submitted(student) / f"{name}.ipynb").exists()
        and records.record_path(course, student, name).exists()
    ]
    for name in graded:
        if not records.read(records.record_path(course, student, name)).needs_attention:
            book.find_submission_notebook(name, course.assignment, student).flagged = False
    if graded:
        book.db.commit()
        _flagged_path(course, student).write_text(json.dumps([n for n in flagged if n not in graded]))
