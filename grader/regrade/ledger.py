"""What each graded notebook was graded with: the hash of its exercise module (grader/exercises/<module>.py) and
of the submitted file, so that a regrade can name the notebooks whose check or submission changed since.

The kit's autograde records neither, so the ledger (``grading/<assignment>/regrade/ledger/graded.json``) is
written by the regrade: an entry holds the hashes a notebook's grading record was made with, and the time of that
record (its file's ``mtime_ns``); an entry whose record has been written since (an ``autograde --force``) no longer
counts. Where no entry counts, the files' times decide, which is honest one way: a module or a submission last
modified before the record was written is the one it was graded with (and is stamped so); one modified after it
may have changed (a reverted edit reads as a change, and the regrade's diff then shows nothing).
"""

import hashlib
import json
import os
import pathlib

from ..checks.registry import modules
from ..records import record_path

CHECK, SUBMISSION = "check", "submission"


def ledger_path(course):
    return course.grading / "regrade" / "ledger" / "graded.json"


def module_files():
    """{notebook file name: the exercise module's file} of the kit this process imports."""
    return {module.NOTEBOOK: pathlib.Path(module.__file__) for module in modules().values()}


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def read(course):
    path = ledger_path(course)
    return json.loads(path.read_text()) if path.exists() else {}


def write(course, entries):
    path = ledger_path(course)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(entries, indent=1, sort_keys=True))
    os.replace(tmp, path)


def key(student, notebook):
    return f"{student}/{notebook}"


def hashes(course, student, notebook):
    """The hashes a grading now would use: ``{"check": module's or None, "submission": the file's}``."""
    module = module_files().get(notebook)
    return {CHECK: sha256(module) if module else None, SUBMISSION: sha256(course.submitted(student) / notebook)}


def changed(course, student, notebook, entries):
    """What changed since ``student``'s ``notebook`` was last graded: a subset of {"check", "submission"}
    (both when it has no grading record). ``entries``: :func:`read`'s."""
    record = record_path(course, student, notebook)
    if not record.exists():
        return {CHECK, SUBMISSION}
    graded_ns = record.stat().st_mtime_ns
    entry = entries.get(key(student, notebook))
    now = hashes(course, student, notebook)
    if entry and entry["graded_ns"] == graded_ns:
        return {what for what in (CHECK, SUBMISSION) if entry[what] != now[what]}
    files = {CHECK: module_files().get(notebook), SUBMISSION: course.submitted(student) / notebook}
    return {what for what, path in files.items() if path is not None and path.stat().st_mtime_ns > graded_ns}


def stamp_unchanged(course, pairs, entries):
    """Stamp the ``pairs`` (student, notebook) that :func:`changed` finds unchanged with today's hashes (the ones
    they were graded with); return the entries."""
    for student, notebook in pairs:
        record = record_path(course, student, notebook)
        if record.exists() and not changed(course, student, notebook, entries):
            entries[key(student, notebook)] = {
                "graded_ns": record.stat().st_mtime_ns,
                **hashes(course, student, notebook),
            }
    return entries


def stamp(course, student, notebook, graded_with, entries):
    """Record that ``student``'s ``notebook``, whose record was just written, was graded with ``graded_with``."""
    record = record_path(course, student, notebook)
    entries[key(student, notebook)] = {"graded_ns": record.stat().st_mtime_ns, **graded_with}
    return entries
