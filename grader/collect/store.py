"""Copy the chosen notebooks into nbgrader's ``submitted/`` folder, keeping what they replace.

Each collection writes ``collected/<assignment>/<UTC time>/log.json`` in the course: every file copied,
from where, with the student's LMS identity and submission time; a notebook or ``timestamp.txt`` that is
replaced is first moved to ``replaced/`` beside the log. ``collected/<assignment>/identities.json`` keeps
each student's latest LMS identity, for ``export``; ``versions.json`` the submission time of each
notebook collected, so that a later collection of an older download never replaces a newer version.
"""

import dataclasses
import datetime
import json
import pathlib

from ..course.identities import identities, identities_path

TIMESTAMP_FORMAT = "%Y-%m-%d %H:%M:%S.%f UTC"  # nbgrader's own (Exchange.timestamp_format), read by parse_utc


def store(course, kept):
    """Write each (student, Found) of ``kept`` in ``course`` (a resolved :class:`~grader.course.Course`);
    return the log's path."""
    now = datetime.datetime.now(datetime.UTC)
    run = course.collected / now.strftime("%Y%m%dT%H%M%S.%fZ")
    log = {"collected_at": now.isoformat(), "files": [], "replaced": []}
    by_student = {}
    for student, found in kept:
        by_student.setdefault(student, []).append(found)
    for student, founds in sorted(by_student.items()):
        folder = _inside(course.root, course.submitted(student))
        folder.mkdir(parents=True, exist_ok=True)
        for found in founds:
            target = folder / pathlib.PurePath(found.notebook).name  # a released notebook's name
            _write(target, found.read(), run / "replaced" / student, log)
            log["files"].append(
                {
                    "student": student,
                    "notebook": found.notebook,
                    "source": found.source,
                    "renamed_from": found.renamed_from,
                    "submitted_at": _iso(found.submitted_at),
                    "late": found.late,
                    "identity": dataclasses.asdict(found.identity),
                }
            )
        times = [f.submitted_at for f in founds if f.submitted_at]
        if times:
            _write(
                folder / "timestamp.txt",
                max(times).strftime(TIMESTAMP_FORMAT).encode(),
                run / "replaced" / student,
                log,
            )
    run.mkdir(parents=True, exist_ok=True)
    (run / "log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))
    _remember(course, log["files"])
    return run / "log.json"


def older_than_collected(course, kept):
    """(still to store, [(Found, why not)]): a version older than the one collected before is left out."""
    collected = _read(_versions_path(course))
    fresh, stale = [], []
    for student, found in kept:
        before = collected.get(student, {}).get(found.notebook)
        if before and found.submitted_at and found.submitted_at < _parse_iso(before):
            stale.append((found, f"older than {student}'s {found.notebook} collected before (submitted {before})"))
        else:
            fresh.append((student, found))
    return fresh, stale


def _read(path):
    return json.loads(path.read_text()) if path.exists() else {}


def _versions_path(course):
    return course.collected / "versions.json"


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
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ") if moment else None


def _parse_iso(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ")


def _remember(course, files):
    """Update identities.json and versions.json with the files just collected."""
    known, versions = identities(course), _read(_versions_path(course))
    for entry in files:
        known[entry["student"]] = entry["identity"]
        versions.setdefault(entry["student"], {})[entry["notebook"]] = entry["submitted_at"]
    for path, data in ((identities_path(course), known), (_versions_path(course), versions)):
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True))
