"""What ``python -m grader`` prints after a command: one line that says what was done, not a list of paths."""
import csv
import pathlib

from .counts import count


def summary(verb, result, course):
    """The line to print for ``verb``'s ``result`` (as :mod:`grader.api` returns it) on a
    :class:`~grader.course.Course`."""
    if verb == "release":
        released = course.released_exercises()
        return f"release: {count(len(released), 'notebook')} in {course.release}; for students: {result}"
    if verb == "feedback":
        return feedback_summary(result, course)
    if verb == "export" and isinstance(result, pathlib.Path):
        with result.open(newline="", encoding="utf-8") as sheet:
            students = {row["student"] for row in csv.DictReader(sheet)}
        return f"export: the grades of {count(len(students), 'student')} in {result}"
    if verb in ("export", "report", "similarity"):
        return f"{verb}: {result}"
    return str(result)


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
            f"{n} ({'could not be read' if n in unread else 'not graded yet'})" for n in without)
    return line
