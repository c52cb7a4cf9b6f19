"""``regrade``: grade again whom the instructor names, into a new result set, show what changes, then apply it.

Steps, under the course's grading lock: choose the notebooks (grader.regrade.select); grade them with the kit's own
``autograde`` in a scratch course of the result set, ``grading/<assignment>/regrade/<time>/`` (grader.regrade.
scratch); compare with the live gradebook (grader.regrade.diff) and write the diff as ``diff.csv`` and
``diff.html`` there (grader.regrade.page), with the preview (grader.regrade.preview). Nothing students or the
gradebook see changes until the result set is applied (``apply``, or a yes in a terminal), and a lower grade only
with ``allow_lower`` (grader.regrade.apply); ``apply`` after a preview of the same notebooks applies the preview,
unless something it depends on changed since. ``undo`` puts back what the last application replaced. Every command
it prints for the instructor runs as printed.

The one module of the verb that drives others (autograde, export, the class report's command lines), as the demo
does: the rest of the package is its own.
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
from ..report.directions import Directions
from . import ledger, page, preview, scratch
from .apply import apply as apply_set
from .apply import latest_applied
from .apply import undo as undo_set
from .diff import diff
from .select import handed_in, select


@dataclass
class Regrade:
    """What a regrade did: its changes, where its result set is, whether it was applied (``from_preview``: as an
    earlier run previewed it, graded no more), whose grade went down; ``apply_command`` and ``undo_command``: the
    commands that apply it and put it back."""

    folder: object
    changes: list
    apply_command: str
    undo_command: str
    applied: bool = False
    from_preview: bool = False
    lowered: list = field(default_factory=list)

    def __str__(self):
        lines = [page.table(self.changes), f"diff: {self.folder / 'diff.html'} and diff.csv"]
        if self.applied:
            preview = " as previewed (nothing graded again)" if self.from_preview else ""
            lines.append(
                f"applied{preview}: the gradebook, the autograded notebooks, the records and the feedback of "
                f"{count(len({c.student for c in self.changes}), 'student')}; put them back: {self.undo_command}"
            )
            if self.lowered:
                lines.append("grades lowered: " + ", ".join(self.lowered))
        elif self.changes:
            lines.append(f"not applied: nothing changed yet; apply it: {self.apply_command}")
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
    ``allow_lower``. ``apply`` after a preview of the same notebooks applies that preview, grading nothing, unless
    something it depends on changed since (then it says what, and grades again). ``undo``: put back what the last
    applied regrade replaced, and nothing else."""
    live = Course.at(course, assignment)  # as given: the paths printed are the instructor's
    if not any(live.every_student("autograded").glob(f"*/{live.assignment}/*.ipynb")):
        raise UsageError(f"nothing of {live.assignment} is graded yet; grade it first: {_command(live, 'autograde')}")
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
        options = _options(students, notebooks, exercises, changed_checks, workers)
        graded_from = preview.inputs(live, selection)
        graded_with = {(s, n): ledger.hashes(live, s, n) for s, n in selection.pairs}
        kept, why = preview.current(live, selection, graded_from) if apply else (None, None)
        if why:
            print(f"regrade: grading again: {why}", file=sys.stderr)
        if kept is not None:
            folder, scratch_course, changes = kept.folder, kept.scratch, kept.changes
        else:
            folder, scratch_course, changes = _grade(live, selection, graded_from, workers)
        apply_command = _command(live, "regrade", *options, "--apply")
        result = Regrade(
            folder, changes, apply_command, _command(live, "regrade", "--undo"), from_preview=kept is not None
        )
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
                "refused: this regrade lowers " + ", ".join(result.lowered) + f"; nothing was applied (the diff: "
                f"{folder / 'diff.html'}); apply it anyway: {apply_command} --allow-lower"
            )
        changed = apply_set(live, scratch_course, changes, selection, folder, graded_with, done_marker)
        try:
            _feedback(live, changed)
        except NbgraderFailed as failed:  # marked applied already: --undo finds it
            raise NbgraderFailed(
                f"applied to the gradebook, the autograded notebooks and the records, but the feedback was not "
                f"written: {str(failed).strip()}\nwrite it: {_command(live, 'feedback')}\nput back what this "
                f"regrade replaced: {result.undo_command}"
            ) from failed
        finally:
            _export_again(live)  # from the changed gradebook, the pages written or not
        result.applied = True
        page.write_html(
            folder / "diff.html",
            live.assignment,
            changes,
            _graded_into(folder, selection),
            "Applied" + (f"; grades lowered: {', '.join(result.lowered)}." if result.lowered else "."),
        )
        return result


def _options(students, notebooks, exercises, changed_checks, workers):
    """The options of a regrade of these notebooks, as the instructor gave them (``--student=-x`` for a value that
    starts with a dash, which would otherwise read as an option)."""
    words = []
    for name, values in (("--student", students), ("--notebook", notebooks), ("--exercise", exercises)):
        for value in values:
            words += [f"{name}={value}"] if value.startswith("-") else [name, value]
    return words + ["--changed-checks"] * changed_checks + (["--workers", str(workers)] if workers else [])


def _command(live, verb, *words):
    """The whole command line of ``verb`` on the course ``live``, then ``words``, as the class report prints its own
    (the course's absolute path and the assignment named, every argument quoted for the shell): it runs as printed
    from any folder."""
    return Directions(live.assignment, str(live.root.resolve())).command(verb, *words)


def _grade(live, selection, graded_from, workers):
    """Grade ``selection``'s notebooks into a new result set, write its diff and its preview (``graded_from``:
    :func:`grader.regrade.preview.inputs` before grading); (its folder, its scratch course, the changes)."""
    folder = _new_folder(live)
    scratch_course = scratch.make(live, folder / "course", selection)
    autograde(scratch_course, scratch_course.assignment, force=True, workers=workers)
    changes = diff(live, scratch_course, selection)
    write_csv(folder / "diff.csv", changes)
    page.write_html(folder / "diff.html", live.assignment, changes, _graded_into(folder, selection), "Not applied yet.")
    preview.save(folder, selection, graded_from, scratch_course, changes)
    return folder, scratch_course, changes


def _graded_into(folder, selection):
    return (
        f"Graded again: {count(len(selection.pairs), 'notebook')} of "
        f"{count(len(selection.notebooks), 'student')}, into {folder}"
    )


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
