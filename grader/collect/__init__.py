"""``collect``: students' notebooks from an LMS download or a folder into nbgrader's ``submitted/`` folder.

Every file is recognised on its own (see :mod:`grader.collect.formats`), its LMS identity matched to the
course's roster, its name to a released notebook (see :mod:`grader.collect.names`), and the latest version
of each student's notebook kept; nothing is copied in a dry run.
"""

import zoneinfo

from ..boundary.uploads import entries
from ..cli.errors import UsageError
from ..course import Course
from . import roster
from .choose import latest
from .formats import Found, Ignored, recognise
from .names import release_name
from .report import CollectReport, Imported, Skipped
from .store import older_than_collected, store


def collect(source, course=".", assignment="self_attention", roster_csv=None, dry_run=False, timezone="UTC"):
    """Collect from a zip or a folder; return a :class:`~grader.collect.report.CollectReport`.

    ``roster_csv``: a CSV of the students (default: the gradebook's). ``timezone``: the LMS's time zone,
    for the formats whose times are local (Blackboard, Brightspace). Only the released notebooks are
    collected; every other file is reported with the reason.
    """
    _check_time_zone(timezone)
    course = Course.at(course, assignment).resolved()
    released = set(course.released_exercises())
    files, refused = entries(source)
    report = CollectReport(dry_run=dry_run, skipped=[Skipped(name, reason, "unsafe file") for name, reason in refused])
    students = roster.load(course, roster_csv)
    report.roster = [s.id for s in students]
    matched = []
    for result in recognise(files, course.assignment, timezone):
        if isinstance(result, Ignored):
            report.skipped.append(Skipped(result.source, result.reason, result.kind, result.listed))
        elif not isinstance(result, Found):
            report.unmatched.append(Skipped(*result))
        elif not _released(result, released):
            report.skipped.append(
                Skipped(
                    result.source,
                    f"unknown notebook {result.notebook} (the assignment has {', '.join(sorted(released))})",
                    "unknown notebook",
                )
            )
        else:
            student, why = roster.match(result.identity, students)
            if student:
                result.matched = f"{result.identity.lms} {result.identity.shown}, {why}"
                matched.append((student, result))
            else:
                (report.ambiguous if why.startswith("ambiguous") else report.unmatched).append(
                    Skipped(result.source, why)
                )
    kept, superseded, ambiguous = latest(matched)
    kept, stale = older_than_collected(course, kept)
    report.skipped += [Skipped(f.source, why, "older version") for f, why in superseded + stale]
    report.ambiguous += [Skipped(f.source, why) for f, why in ambiguous]
    report.imported = [Imported(student, f.notebook, f.source, f.matched, f.renamed_from) for student, f in kept]
    if not dry_run and kept:
        report.log = str(store(course, kept))
    return report


def _check_time_zone(name):
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"unknown time zone {name!r} (give a name such as Europe/Paris or America/Toronto)") from None


def _released(found, released):
    """Whether ``found`` is a released notebook; a renamed one takes the released name."""
    name = release_name(found.notebook, released)
    if name and name != found.notebook:
        found.renamed_from, found.notebook = found.notebook, name
    return name is not None
