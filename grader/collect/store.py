"""Copy the chosen notebooks into nbgrader's ``submitted/`` folder, keeping what they replace.

Each collection writes ``collected/<assignment>/<UTC time>/log.json`` in the course: every file copied,
from where, with the student's LMS identity and submission time; a notebook or ``timestamp.txt`` that is
replaced is first moved to ``replaced/`` beside the log. ``collected/<assignment>/identities.json`` keeps
each student's latest LMS identity, for ``export``.
"""
import dataclasses
import datetime
import json
import pathlib

from .. import course as courses

TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"  # nbgrader's own (Exchange.timestamp_format), read by parse_utc


def store(course, assignment, kept):
    """Write each (student, Found) of ``kept``; return the log's path."""
    course = pathlib.Path(course).resolve()
    now = datetime.datetime.now(datetime.timezone.utc)
    run = course / "collected" / assignment / now.strftime("%Y%m%dT%H%M%S.%fZ")
    log = {"collected_at": now.isoformat(), "files": [], "replaced": []}
    by_student = {}
    for student, found in kept:
        by_student.setdefault(student, []).append(found)
    for student, founds in sorted(by_student.items()):
        folder = _inside(course, courses.folder(course, "submitted", student, assignment))
        folder.mkdir(parents=True, exist_ok=True)
        for found in founds:
            target = folder / pathlib.PurePath(found.notebook).name  # a released notebook's name
            _write(target, found.read(), run / "replaced" / student, log)
            log["files"].append({"student": student, "notebook": found.notebook, "source": found.source,
                                 "submitted_at": _iso(found.submitted_at), "late": found.late,
                                 "identity": dataclasses.asdict(found.identity)})
        times = [f.submitted_at for f in founds if f.submitted_at]
        if times:
            _write(folder / "timestamp.txt", max(times).strftime(TIMESTAMP_FORMAT).encode(),
                   run / "replaced" / student, log)
    run.mkdir(parents=True, exist_ok=True)
    (run / "log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))
    _remember_identities(course / "collected" / assignment / "identities.json", log["files"])
    return run / "log.json"


def identities(course, assignment):
    """{student: the LMS identity of their latest collected file} (empty before any collection)."""
    path = pathlib.Path(course) / "collected" / assignment / "identities.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _write(target, data, replaced, log):
    """Write ``data`` to ``target``; an existing, different file is moved under ``replaced`` first."""
    if target.is_symlink():
        target.unlink()
    elif target.exists():
        if target.read_bytes() == data:
            return
        kept = replaced / target.name
        kept.parent.mkdir(parents=True, exist_ok=True)
        target.rename(kept)
        log["replaced"].append({"file": str(target), "kept_as": str(kept)})
    temporary = target.with_name(f".{target.name}.collecting")
    temporary.write_bytes(data)
    temporary.replace(target)


def _inside(root, path):
    """``path``, refused unless it resolves inside ``root``."""
    resolved = pathlib.Path(path).resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise ValueError(f"refusing to write outside {root}: {path}")
    return resolved


def _iso(moment):
    return moment.isoformat() + "Z" if moment else None


def _remember_identities(path, files):
    known = json.loads(path.read_text()) if path.exists() else {}
    for entry in files:
        known[entry["student"]] = entry["identity"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(known, indent=1, ensure_ascii=False, sort_keys=True))
