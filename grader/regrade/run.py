"""``regrade``: grade again whom the instructor names, into a new result set, show what changes, then apply it.

Steps, under the course's grading lock: choose the notebooks (grader.regrade.select); grade them with the kit's own
``autograde`` in a scratch course of the result set, ``grading/<assignment>/regrade/<time>/`` (grader.regrade.
scratch); compare with the live gradebook (grader.regrade.diff) and write the diff as ``diff.csv`` and
``diff.html`` there (grader.regrade.page). Nothing students or the gradebook see changes until the result set is
applied (``apply``, or a yes in a terminal), and a lower grade only with ``allow_lower``
(grader.regrade.apply); ``undo`` puts back what the last application replaced.

The one module of the verb that drives others (autograde, export), as the demo does: the rest of the package is
its own.
"""

import datetime
import sys
from dataclasses import dataclass, field

from ..autograde.nbgrader_pass import done_marker
from ..autograde.run import autograde, grading_lock
from ..cli.counts import count
from ..cli.errors import NbgraderFailed, UsageError
from ..course import Course
from ..export import export
from ..export.lms import sheet
from . import ledger, page, scratch
from .apply import apply as apply_set
from .apply import latest_applied
from .apply import undo as undo_set
from .diff import diff
from .select import handed_in, select


@dataclass
class Regrade:
    """What a regrade did: its changes, where its result set is, whether it was applied, whose grade went down."""

    folder: object
    changes: list
    applied: bool = False
    lowered: list = field(default_factory=list)

    def __str__(self):
        lines = [page.table(self.changes), f"diff: {self.folder / 'diff.html'} and diff.csv"]
        if self.applied:
            lines.append(
                f"applied: the gradebook, the autograded notebooks, the records and the feedback of "
                f"{count(len({c.student for c in self.changes}), 'student')}; python -m grader regrade "
                "--undo puts them back"
            )
            if self.lowered:
                lines.append("grades lowered: " + ", ".join(self.lowered))
        elif self.changes:
            lines.append("not applied: nothing changed yet (python -m grader regrade ... --apply applies it)")
        return "\n".join(lines)


def regrade(
    course=".",
    assignment="self_attention",
    students=(),
    notebooks=(),
    exercises=(),
    changed_checks=False,
    apply=None,
    allow_lower=False,
    undo=False,
    workers=None,
):
    """Grade again the chosen notebooks (each filter narrows; none: everyone) into a new result set and return
    its :class:`Regrade`; ``apply`` it (None: ask when standard input is a terminal), lowering a grade only with
    ``allow_lower``. ``undo``: put back what the last applied regrade replaced, and nothing else."""
    live = Course.at(course, assignment)  # as given: the paths printed are the instructor's
    if not any(live.every_student("autograded").glob(f"*/{live.assignment}/*.ipynb")):
        raise UsageError(f"nothing of {live.assignment} is graded yet: run python -m grader autograde first")
    with grading_lock(live):
        if undo:
            return _undo(live)
        everyone = handed_in(live)
        ledger.write(
            live, ledger.stamp_unchanged(live, [(s, n) for s, ns in everyone.items() for n in ns], ledger.read(live))
        )
        selection = select(live, students, notebooks, exercises, changed_checks)
        if not selection.notebooks:
            return "regrade: nothing to regrade" + (
                ": no exercise module changed since the last grading" if changed_checks else ""
            )
        folder = _new_folder(live)
        graded_with = {(s, n): ledger.hashes(live, s, n) for s, n in selection.pairs}
        scratch_course = scratch.make(live, folder / "course", selection)
        autograde(scratch_course, scratch_course.assignment, force=True, workers=workers)
        changes = diff(live, scratch_course, selection)
        result = Regrade(folder, changes)
        regraded = (
            f"Graded again: {count(len(selection.pairs), 'notebook')} of "
            f"{count(len(selection.notebooks), 'student')}, into {folder}"
        )
        write_csv(folder / "diff.csv", changes)
        page.write_html(folder / "diff.html", live.assignment, changes, regraded, "Not applied yet.")
        if not changes or not _agreed(apply, result):
            return result
        result.lowered = sorted(
            {
                f"{c.student} ({c.notebook.split('_', 1)[0]} {c.exercise} "
                f"{page.number(c.before)} → {page.number(c.after)})"
                for c in changes
                if c.lower
            }
        )
        if result.lowered and not allow_lower:
            raise UsageError(
                "refused: this regrade lowers " + ", ".join(result.lowered) + "; nothing was applied "
                f"(--allow-lower applies it; the diff: {folder / 'diff.html'})"
            )
        changed = apply_set(live, scratch_course, changes, selection, folder, graded_with, done_marker)
        try:
            _feedback(live, changed)
        except NbgraderFailed as failed:  # marked applied already: --undo finds it
            raise NbgraderFailed(
                f"applied to the gradebook, the autograded notebooks and the records, but the "
                f"feedback was not written (python -m grader feedback writes it; python -m grader "
                f"regrade --undo puts back what this regrade replaced): {failed}"
            ) from failed
        finally:
            _export_again(live)  # from the changed gradebook, the pages written or not
        result.applied = True
        page.write_html(
            folder / "diff.html",
            live.assignment,
            changes,
            regraded,
            "Applied" + (f"; grades lowered: {', '.join(result.lowered)}." if result.lowered else "."),
        )
        return result


def write_csv(path, changes):
    """The diff as a CSV file, neutralised as the export's sheets are (no formula runs in a spreadsheet)."""
    sheet.write(path, page.COLUMNS, page.rows(changes))
    return path


def _agreed(apply, result):
    """``apply``, or when it is None and a person is at the terminal, their answer."""
    if apply is not None or not sys.stdin.isatty():
        return bool(apply)
    print(page.table(result.changes), file=sys.stderr)
    return input(f"Apply these {count(len(result.changes), 'change')}? [y/N] ").strip().lower() in ("y", "yes")


def _new_folder(live):
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H-%M-%S")
    folder, n = live.grading / "regrade" / stamp, 1
    while folder.exists():
        n += 1
        folder = live.grading / "regrade" / f"{stamp}-{n}"
    return folder


def _feedback(live, students):
    """Write the feedback pages of ``students`` again (nbgrader's generate_feedback, in one process for them all)."""
    if students:
        live.run_module("grader.feedback.students", live.assignment, "--", *students)


def _export_again(live):
    """Write the grades' CSV again where the export verb wrote it before."""
    if (live.reports / f"{live.assignment}_grades.csv").exists():
        export(live, live.assignment)


def _undo(live):
    folder = latest_applied(live)
    if folder is None:
        raise UsageError("no applied regrade to undo")
    students = undo_set(live, folder, lambda: _export_again(live))
    return (
        f"regrade --undo: put back the grades, autograded notebooks, records and feedback of "
        f"{count(len(students), 'student')} ({', '.join(students)}) as they were before {folder.name}"
    )
