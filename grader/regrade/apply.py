"""Applying a regrade's result set to the live course, and putting the previous one back (``--undo``).

Applying writes, through nbgrader's gradebook API, each regraded cell's autograded score, its "needs manual grade"
(not where a manual grade stands: a grade typed in formgrader is never touched, and counts), the solution cells'
automatic comments, and the notebook's late penalty and hand-in time; a flag is added, never taken off. It copies
the new autograded notebooks (a note at the top saying what changed for the student) and grading records; the
changed students' feedback is written next (grader.regrade.run), once the result set is marked applied. What it
replaces, the feedback folders included, is kept first in ``<result set>/previous/``, which :func:`undo` puts back.
"""

import contextlib
import datetime
import json
import os
import pathlib
import shutil
import stat
import tempfile

import nbformat
from nbgrader.api import MissingEntry

from .. import records
from . import ledger
from .note import note_cell, with_note

APPLIED, UNDONE, PREVIOUS = "applied.json", "undone.json", "previous"


def _submission_notebook(book, course, student, notebook):
    return book.find_submission_notebook(notebook.removesuffix(".ipynb"), course.assignment, student)


def _state(book, course, student, notebook, cells):
    """The gradebook's values that applying changes, for one notebook (``cells``: its grade_ids, None for all)."""
    submitted = _submission_notebook(book, course, student, notebook)
    return {
        "flagged": submitted.flagged,
        "late_penalty": submitted.late_submission_penalty,
        "timestamp": submitted.assignment.timestamp.isoformat() if submitted.assignment.timestamp else None,
        "grades": {
            g.name: {"auto_score": g.auto_score, "needs_manual_grade": g.needs_manual_grade}
            for g in submitted.grades
            if cells is None or g.name in cells
        },
        "comments": {c.name: c.auto_comment for c in submitted.comments if cells is None or c.name in cells},
    }


def _put(book, course, student, notebook, state, cells, flag_kept):
    """Write ``state`` (as :func:`_state` reads it) into the gradebook; manual grades stay as they are."""
    submitted = _submission_notebook(book, course, student, notebook)
    for grade in submitted.grades:
        if grade.name in state["grades"] and (cells is None or grade.name in cells):
            grade.auto_score = state["grades"][grade.name]["auto_score"]
            if grade.manual_score is None:
                grade.needs_manual_grade = state["grades"][grade.name]["needs_manual_grade"]
    for comment in submitted.comments:
        if comment.name in state["comments"] and (cells is None or comment.name in cells):
            comment.auto_comment = state["comments"][comment.name]
    if cells is None:
        submitted.late_submission_penalty = state["late_penalty"]
        submitted.flagged = bool(state["flagged"]) or (flag_kept and submitted.flagged)
        when = state["timestamp"]
        submitted.assignment.timestamp = datetime.datetime.fromisoformat(when) if when else None
    book.db.commit()


def _replacing(target, write, keep_mode=True):
    """Make ``target`` anew: ``write(path)`` fills a new file beside it, which then takes its name (with the mode of
    the file it replaces, if ``keep_mode``). nbgrader leaves autograded notebooks read-only (0444): an instructor
    who is not root cannot open them for writing, but may replace them in a folder of their own."""
    target = pathlib.Path(target)
    mode = stat.S_IMODE(target.stat().st_mode) if keep_mode and target.exists() else None
    handle, fresh = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    os.close(handle)
    try:
        write(fresh)
        if mode is not None:
            os.chmod(fresh, mode)
        os.replace(fresh, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(fresh)
        raise
    return target


def _copy_over(source, target):
    """``shutil.copy2`` onto a file that may be read-only (see :func:`_replacing`): the copy keeps the source's mode."""
    return _replacing(target, lambda fresh: shutil.copy2(source, fresh), keep_mode=False)


def _files(course, student, notebook):
    """The live files a regrade of ``student``'s ``notebook`` replaces, by their path in the course."""
    return [course.autograded(student) / notebook, records.record_path(course, student, notebook)]


def _keep(course, paths, into):
    """Copy ``paths`` (in ``course``) under ``into``; return the relative paths of those that did not exist."""
    absent = []
    root = course.root.resolve()
    for path in paths:
        relative = path.resolve().relative_to(root)
        if path.is_dir():
            shutil.copytree(path, into / relative, dirs_exist_ok=True)
        elif path.exists():
            (into / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, into / relative)
        else:
            absent.append(str(relative))
    return absent


def apply(live, scratch, changes, selection, folder, graded_with, done_marker):
    """Apply ``changes`` (from :func:`grader.regrade.diff.diff`) of the result set in ``folder`` and mark it applied;
    ``graded_with``: {(student, notebook): the ledger's hashes the scratch grading used}; ``done_marker(course,
    student)``: autograde's completion marker. Returns the students whose grade changed: their feedback is to be
    written again."""
    pairs = sorted({(c.student, c.notebook) for c in changes})
    students = sorted({student for student, _ in pairs})
    previous = folder / PREVIOUS
    kept = [path for s, n in pairs for path in _files(live, s, n)]
    kept += [live.feedback(s) for s in students] + [done_marker(live, s) for s in students]
    absent = _keep(live, kept, previous / "files")
    states = {}
    with live.gradebook() as book, scratch.gradebook() as new:
        for student, notebook in pairs:
            states[f"{student}/{notebook}"] = _state(book, live, student, notebook, selection.cells)
            _put(
                book,
                live,
                student,
                notebook,
                _state(new, scratch, student, notebook, selection.cells),
                selection.cells,
                flag_kept=True,
            )
    (previous / "gradebook.json").write_text(json.dumps({"states": states, "absent": absent}, indent=1))
    when = datetime.datetime.now().strftime("%Y-%m-%d")
    entries = ledger.read(live)
    for student, notebook in pairs:
        copy_results(
            live,
            scratch,
            student,
            notebook,
            selection.cells,
            note_cell([c for c in changes if (c.student, c.notebook) == (student, notebook)], when),
        )
        if selection.cells is None:
            ledger.stamp(live, student, notebook, graded_with[(student, notebook)], entries)
    ledger.write(live, entries)
    for student in students:
        if sorted(p.name for p in live.submitted(student).glob("*.ipynb")) == sorted(
            p.name for p in scratch.submitted(student).glob("*.ipynb")
        ):
            _copy_over(done_marker(scratch, student), done_marker(live, student))
    (folder / APPLIED).write_text(json.dumps({"pairs": pairs, "cells": sorted(selection.cells or []) or None}))
    return students


def copy_results(live, scratch, student, notebook, cells, note):
    """The new autograded notebook (with the student's note) and grading record; only ``cells`` when given."""
    new_nb = nbformat.read(scratch.autograded(student) / notebook, as_version=4)
    new_record = records.read(records.record_path(scratch, student, notebook))
    target = live.autograded(student) / notebook
    if cells is not None and target.exists():
        nb = nbformat.read(target, as_version=4)
        fresh = {c.metadata.get("nbgrader", {}).get("grade_id"): c for c in new_nb.cells}
        nb.cells = [
            fresh[c.metadata["nbgrader"]["grade_id"]]
            if c.metadata.get("nbgrader", {}).get("grade_id") in cells and c.metadata["nbgrader"]["grade_id"] in fresh
            else c
            for c in nb.cells
        ]
        path = records.record_path(live, student, notebook)
        record = records.read(path) if path.exists() else new_record
        replaced = {e.cell: e for e in new_record.exercises if e.cell in cells}
        record.exercises = [replaced.pop(e.cell, e) for e in record.exercises] + list(replaced.values())
        new_nb, new_record = nb, record
    target.parent.mkdir(parents=True, exist_ok=True)
    _replacing(target, lambda fresh: nbformat.write(with_note(new_nb, note), fresh))
    records.write(live, new_record)


def latest_applied(live):
    """The folder of the last result set applied and not undone, or None."""
    sets = sorted((live.grading / "regrade").glob("*/" + APPLIED))
    found = [path.parent for path in sets if not (path.parent / UNDONE).exists()]
    return found[-1] if found else None


def undo(live, folder, regenerate_export):
    """Put back what applying the result set in ``folder`` replaced; return the students it concerned."""
    applied = json.loads((folder / APPLIED).read_text())
    cells = set(applied["cells"]) if applied["cells"] else None
    saved = json.loads((folder / PREVIOUS / "gradebook.json").read_text())
    with live.gradebook() as book:
        for key, state in saved["states"].items():
            student, notebook = key.split("/", 1)
            try:
                _put(book, live, student, notebook, state, cells, flag_kept=False)
            except MissingEntry:
                continue
    root = live.root.resolve()
    students = sorted({student for student, _ in applied["pairs"]})
    for student in students:
        shutil.rmtree(live.feedback(student), ignore_errors=True)
    for relative in saved["absent"]:
        path = root / relative
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    files = folder / PREVIOUS / "files"
    if files.exists():
        shutil.copytree(files, root, dirs_exist_ok=True, copy_function=_copy_over)
    entries = ledger.read(live)
    for student, notebook in applied["pairs"]:
        entries.pop(ledger.key(student, notebook), None)
    ledger.write(live, entries)
    regenerate_export()
    (folder / UNDONE).write_text(json.dumps({"at": datetime.datetime.now().isoformat(timespec="seconds")}))
    return students
