"""What ``python -m grader`` prints after a command: one line that says what was done, not a list of paths."""

import csv
import pathlib

from .counts import count


def summary(verb, result, course):
    """The line to print for ``verb``'s ``result`` (as :mod:`grader.api` returns it) on a
    :class:`~grader.course.Course`."""
    if verb == "release":
        released = course.released_exercises()
        return (
            f"release: {count(len(released), 'notebook')} in {course.release}; for students: {result}"
            + inside_summary(course)
        )
    if verb == "feedback":
        return feedback_summary(result, course)
    if verb == "export" and isinstance(result, pathlib.Path):
        with result.open(newline="", encoding="utf-8") as sheet:
            students = {row["student"] for row in csv.DictReader(sheet)}
        return f"export: the grades of {count(len(students), 'student')} in {result}"
    if verb == "adopt":
        return adopt_summary(result)
    if verb in ("export", "report", "similarity"):
        return f"{verb}: {result}"
    return str(result)


def inside_summary(course):
    """The test cells judged in the student's process, each named, or nothing."""
    import nbformat

    from ..autograde.plain_tests import judged_inside

    found = judged_inside(
        {path.name: nbformat.read(path, as_version=4) for path in sorted(course.source.glob("*.ipynb"))}
    )
    if not found:
        return ""
    cells = ", ".join(f"{notebook} {grade_id} ({name})" for notebook, grade_id, name in found)
    return (
        f"\n{count(len(found), 'test cell')} judged in the student's process, where the student's code could "
        f"change the verdict (flagged on every student's grade for a person to check): {cells}"
    )


def feedback_summary(pages, course):
    """How many pages, for how many students, where; and each notebook handed in that has no page, with why."""
    submitted = course.every_student("submitted")
    name = lambda path: f"{path.parent.parent.name}/{path.name.removesuffix('.invalid')}"  # noqa: E731
    unread = {name(p) for p in submitted.glob(f"*/{course.assignment}/*.ipynb.invalid")}
    handed_in = unread | {name(p) for p in submitted.glob(f"*/{course.assignment}/*.ipynb")}
    paged = {f"{p.parent.parent.name}/{p.stem}.ipynb" for p in map(pathlib.Path, pages)}
    folder = course.every_student("feedback")
    students = {p.split("/")[0] for p in paged}
    line = f"feedback: {count(len(paged), 'page')} for {count(len(students), 'student')} in {folder}"
    without = sorted(handed_in - paged)
    if without:
        line += f"; none for {count(len(without), 'notebook')} handed in: " + ", ".join(
            f"{n} ({'could not be read' if n in unread else 'not graded yet'})" for n in without
        )
    return line


def adopt_summary(adoption):
    """Whether the course's configuration changed; if so, where the file as it was is, the sandbox's time limits,
    and the kit's settings the course sets its own way."""
    if adoption.backup is None:
        return f"adopt: {adoption.config} grades in the kit's sandbox already: nothing changed"
    cell, notebook = adoption.limits
    line = (
        f"adopt: {adoption.config} now grades in the kit's sandbox, the course's own settings kept (the file as "
        f"it was: {adoption.backup}); a cell may run {cell:g} s, a notebook {notebook:g} s "
        "(c.SandboxExecute.unit_seconds, notebook_seconds)"
    )
    if adoption.kept:
        line += f"; kept the course's own {', '.join(adoption.kept)} where the kit has its own"
    return line
