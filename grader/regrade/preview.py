"""The preview a regrade leaves in its result set (``preview.json``), and whether ``--apply`` may apply it as it is,
without grading again.

A preview holds the hashes of what its notebooks were graded from (:func:`inputs`: the files handed in, the release
and source, the kit's code and the packages it runs on, the course's configuration, what the live gradebook holds of
the assignment, of those students and of those notebooks' grades, and their grading records), the hashes of what
grading left in its scratch course (its files, and the grades of its gradebook), and the changes it showed.
``--apply`` takes the latest preview of the same notebooks not applied yet, and applies it only when all of that is
still as it was: everything is computed again and compared, and the first difference is said in one line.

The result set sits in a folder that others may be able to write, so the preview is read as data only: a regular
file, checked against a JSON schema; the result set holds no link nor special file; its scratch course's
configuration (Python, run when its gradebook is opened) must be the kit's own text; and the changes applied are
the diff computed again, which must equal the one shown.
"""

import dataclasses
import hashlib
import importlib.metadata
import json
import os
import pathlib
import stat
import sys

import jsonschema
from nbgrader.api import MissingEntry

from .. import records
from ..boundary.uploads import TOO_LARGE, Refused, entries
from ..course import CONFIG
from . import page, scratch
from .apply import APPLIED, PREVIOUS, UNDONE
from .diff import Change, diff

PREVIEW = "preview.json"
KIND = "attention-kit regrade preview"
KIT = pathlib.Path(__file__).resolve().parents[1]  # the grader package this process grades with
MAX_BYTES = 64 << 20
INPUTS = {  # what grading and the diff read, in the words that say which changed
    "submission": "a file handed in",
    "release": "the release",
    "kit": "the kit's grading code",
    "environment": "the Python environment",
    "configuration": "the course's configuration",
    "gradebook": "the gradebook",
    "record": "a grading record",
}
OUTPUTS = {"files": "a file of the preview's scratch course", "grades": "a grade of the preview's scratch gradebook"}
SCRATCH_BOOK = "course/gradebook.db"  # the scratch gradebook and its journals: compared by their grades

HASHES = {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}
STRINGS = {"type": "array", "items": {"type": "string"}}
CHANGE = {
    "type": "object",
    "additionalProperties": False,
    "required": [f.name for f in dataclasses.fields(Change)],
    "properties": {
        **{name: {"type": "string"} for name in ("student", "name", "notebook", "exercise")},
        "grade_id": {"type": ["string", "null"]},
        **{name: {"type": "number"} for name in ("before", "after", "max_score")},
        "reasons": STRINGS,
        "told": STRINGS,
    },
}
SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "selection", "inputs", "outputs", "changes"],
    "properties": {
        "kind": {"const": KIND},
        "selection": {
            "type": "object",
            "additionalProperties": False,
            "required": ["notebooks", "cells"],
            "properties": {
                "notebooks": {"type": "object", "additionalProperties": STRINGS},
                "cells": {"anyOf": [STRINGS, {"type": "null"}]},
            },
        },
        "inputs": {"type": "object", "additionalProperties": False, "required": list(INPUTS), "properties": {}},
        "outputs": {"type": "object", "additionalProperties": False, "required": list(OUTPUTS), "properties": {}},
        "changes": {"type": "array", "items": CHANGE},
    },
}
for part, names in (("inputs", INPUTS), ("outputs", OUTPUTS)):
    SCHEMA["properties"][part]["properties"] = dict.fromkeys(names, HASHES)


class Unusable(Exception):
    """Why a stored preview cannot be used, in words."""


@dataclasses.dataclass(frozen=True)
class Preview:
    """A preview that still holds: its result set, its scratch course and its changes, computed again."""

    folder: pathlib.Path
    scratch: object
    changes: list


def digest(data):
    return hashlib.sha256(data).hexdigest()


def digest_of(value):
    """The hash of a plain value (a date, a class: as text)."""
    return digest(json.dumps(value, sort_keys=True, default=str).encode())


def tree(folder, under):
    """{``under``/path: hash} of the files in ``folder`` (compiled bytecode left out)."""
    found = {}
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name != "__pycache__"]
        for name in files:
            path = pathlib.Path(top, name)
            if path.is_file():
                found[f"{under}/{path.relative_to(folder).as_posix()}"] = digest(path.read_bytes())
    return found


def environment():
    """{package: hash of its version} of the packages this Python has, and of Python's own version."""
    found = {"Python": digest_of(sys.version)}
    for package in importlib.metadata.distributions():
        found[(package.metadata["Name"] or "").lower()] = digest_of(package.version)
    return found


def grades(course, pairs):
    """{(student, notebook): its grades, comments, late penalty, flag and hand-in time in ``course``'s gradebook, or
    None}: what the diff reads and applying replaces."""
    found = {}
    with course.gradebook() as book:
        for student, notebook in pairs:
            try:
                handed = book.find_submission_notebook(notebook.removesuffix(".ipynb"), course.assignment, student)
            except MissingEntry:
                found[(student, notebook)] = None
                continue
            found[(student, notebook)] = {
                "grades": {
                    g.name: [g.auto_score, g.manual_score, g.extra_credit, g.needs_manual_grade] for g in handed.grades
                },
                "comments": {c.name: [c.auto_comment, c.manual_comment] for c in handed.comments},
                "late_penalty": handed.late_submission_penalty,
                "flagged": handed.flagged,
                "timestamp": handed.assignment.timestamp,
            }
    return found


def inputs(live, selection):
    """{part: {name: hash}} of everything that grading ``selection``'s notebooks and comparing them reads, now."""
    defined = scratch.definition(live, selection.notebooks)
    people = defined.pop("students")
    return {
        "submission": {
            f"{student}/{path.name}": digest(path.read_bytes())
            for student, notebooks in selection.notebooks.items()
            for path in scratch.handed_files(live, student, notebooks)
        },
        "release": {**tree(live.release, "release"), **tree(live.source, "source")},
        "kit": tree(KIT, "grader"),
        "environment": environment(),
        "configuration": {CONFIG: digest_of(live.config)},
        "gradebook": {
            "the assignment": digest_of(defined),
            **{f"student {student}": digest_of(values) for student, values in people.items()},
            **{f"{s}/{n}": digest_of(values) for (s, n), values in grades(live, selection.pairs).items()},
        },
        "record": {
            f"{s}/{n}": digest(path.read_bytes()) if path.is_file() else digest_of(None)
            for s, n in selection.pairs
            for path in [records.record_path(live, s, n)]
        },
    }


def save(folder, selection, graded_from, scratch_course, changes):
    """Write the preview of the result set in ``folder``: ``graded_from`` is :func:`inputs` as it was before grading.
    A result set whose files cannot all be read as data gets none (it is never applied as it is)."""
    try:
        outputs = _outputs(_walk(folder), scratch_course, selection.pairs)
    except Unusable:
        return None
    stored = {
        "kind": KIND,
        "selection": _selection(selection),
        "inputs": graded_from,
        "outputs": outputs,
        "changes": _plain(changes),
    }
    fresh = folder / f".{PREVIEW}.new"
    fresh.write_text(json.dumps(stored, indent=1, sort_keys=True))
    os.replace(fresh, folder / PREVIEW)
    return folder / PREVIEW


def current(live, selection, now):
    """The latest preview of ``selection``'s notebooks not applied yet, and ``now`` (:func:`inputs`): (the
    :class:`Preview`, None) when nothing it depends on changed since; (None, why not, in words) when something
    did; (None, None) when there is none."""
    for folder in reversed(_result_sets(live)):
        try:
            stored = _read(folder / PREVIEW)
        except Unusable as why:
            return None, f"the preview in {folder} cannot be used: {why}"
        if stored["selection"] == _selection(selection):
            try:
                return _still(live, folder, stored, selection, now), None
            except Unusable as why:
                return None, str(why)
    return None, None


def _result_sets(live):
    """The result sets that hold a preview and are neither applied nor undone, oldest first."""
    sets = live.grading / "regrade"
    found = sorted(sets.glob(f"*/{PREVIEW}")) if sets.is_dir() else []
    return [
        path.parent
        for path in found
        if not path.parent.is_symlink() and not any(os.path.lexists(path.parent / n) for n in (APPLIED, UNDONE))
    ]


def _read(path):
    """The preview at ``path``: a regular file of JSON that :data:`SCHEMA` holds."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise Unusable(f"it cannot be opened as a file ({error.strerror})") from None
    with open(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise Unusable("it is not a regular file")
        data = file.read(MAX_BYTES + 1)
    try:
        if len(data) > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES >> 20} MB")
        stored = json.loads(data)
        jsonschema.validate(stored, SCHEMA)
    except (ValueError, RecursionError, jsonschema.ValidationError) as error:
        raise Unusable(f"it is not a preview the kit wrote ({getattr(error, 'message', error)})") from None
    return stored


def _still(live, folder, stored, selection, now):
    """``stored`` (the preview in ``folder``) as a :class:`Preview` when all it depends on is as it was; else raise
    :class:`Unusable` saying the first thing that changed."""
    if os.path.lexists(folder / PREVIOUS):
        raise Unusable(f"the preview in {folder} was partly applied already")
    _compare(INPUTS, stored["inputs"], now)
    walked = _walk(folder)
    scratch_course = scratch.at(folder / "course", live)
    expected = scratch.config_text(live, scratch_course.root).encode()
    if _content(walked, f"course/{CONFIG}") != expected:
        raise Unusable(f"the configuration of the preview's scratch course is not the kit's ({folder / 'course'})")
    _compare(OUTPUTS, stored["outputs"], _outputs(walked, scratch_course, selection.pairs))
    changes = diff(live, scratch_course, selection)
    if _plain(changes) != stored["changes"]:
        raise Unusable("the scores found now are not those the preview showed")
    return Preview(folder, scratch_course, changes)


def _walk(folder):
    """{path in ``folder``: its entry} of every file of the result set; :class:`Unusable` for a link or any other
    file that is not a regular one (the scratch gradebook may be larger than a notebook)."""
    found, refused = entries(folder)
    refused = [(path, why) for path, why in refused if not (path.startswith(SCRATCH_BOOK) and why == TOO_LARGE)]
    if refused:
        path, why = refused[0]
        raise Unusable(f"the preview's result set holds {page.printable(path)}: {why}")
    return {entry.path.as_posix(): entry for entry in found}


def _content(walked, path):
    try:
        return walked[path].read() if path in walked else None
    except Refused as why:
        raise Unusable(f"the preview's result set holds {page.printable(path)}: {why}") from None


def _outputs(walked, scratch_course, pairs):
    """{"files": hashes of the scratch course's files but its gradebook, "grades": of its gradebook's grades}."""
    files = {
        path: digest(_content(walked, path))
        for path in walked
        if path.startswith("course/") and not path.startswith(SCRATCH_BOOK)
    }
    graded = {f"{s}/{n}": digest_of(values) for (s, n), values in grades(scratch_course, pairs).items()}
    return {"files": files, "grades": graded}


def _compare(words, then, now):
    """Raise :class:`Unusable` naming the first of ``then``'s hashes that ``now`` does not hold, part by part."""
    for part, label in words.items():
        for name in sorted(set(then[part]) | set(now[part])):
            if then[part].get(name) != now[part].get(name):
                how = "appeared" if name not in then[part] else "is gone" if name not in now[part] else "changed"
                raise Unusable(f"{label} {how} since the preview: {page.printable(name)}")


def _selection(selection):
    return {"notebooks": selection.notebooks, "cells": sorted(selection.cells) if selection.cells is not None else None}


def _plain(changes):
    """``changes`` as JSON holds them."""
    return json.loads(json.dumps([dataclasses.asdict(change) for change in changes]))
