"""Whom a regrade grades again: the notebooks handed in (readable ones: a file set aside as unreadable has nothing
to grade), narrowed by student, notebook, exercise, or to those whose exercise module changed since grading."""

from dataclasses import dataclass

from ..cli.errors import UsageError
from . import ledger


@dataclass(frozen=True)
class Selection:
    notebooks: dict  # {student: [notebook file name, ...]}, sorted
    cells: frozenset | None  # the grade_ids to regrade (None: every cell of those notebooks)
    changed: dict  # {(student, notebook): what changed since grading, see ledger.changed}

    @property
    def pairs(self):
        return [(student, notebook) for student, found in self.notebooks.items() for notebook in found]


def handed_in(course):
    """{student: [readable notebook handed in, ...]} of the released notebooks."""
    released = {path.name for path in course.release.glob("*.ipynb")}
    found = {}
    for folder in sorted(course.every_student("submitted").glob(f"*/{course.assignment}")):
        names = sorted(path.name for path in folder.glob("*.ipynb") if path.name in released)
        if names:
            found[folder.parent.name] = names
    return found


def notebook_named(name, released):
    """The released notebook file that ``name`` stands for: its file name, its stem or its number ("01")."""
    found = [n for n in released if name in (n, n.removesuffix(".ipynb")) or n.split("_", 1)[0] == name]
    if len(found) != 1:
        raise UsageError(f"no notebook {name!r} in the release (one of: {', '.join(sorted(released))})")
    return found[0]


def exercise_cells(name, released):
    """{notebook: grade_id} of the test cell (or any graded cell) ``name`` names: an exercise or a grade_id."""
    found = {}
    for notebook, nb in released.items():
        for cell in nb.cells:
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id in (name, f"{name}_test"):
                found[notebook] = grade_id
    if not found:
        raise UsageError(f"no exercise or graded cell {name!r} in the release")
    return found


def select(course, students=(), notebooks=(), exercises=(), changed_checks=False):
    """The :class:`Selection`: each filter given narrows it (no filter: everyone's every notebook)."""
    everyone = handed_in(course)
    released = course.released_notebooks()
    unknown = sorted(set(students) - set(everyone))
    if unknown:
        raise UsageError(f"no notebook handed in by {', '.join(unknown)}")
    wanted_notebooks = {notebook_named(n, released) for n in notebooks}
    cells = {}
    for name in exercises:
        for notebook, grade_id in exercise_cells(name, released).items():
            cells.setdefault(notebook, set()).add(grade_id)
    entries = ledger.read(course)
    chosen, changed = {}, {}
    for student, names in everyone.items():
        if students and student not in students:
            continue
        for notebook in names:
            if (wanted_notebooks and notebook not in wanted_notebooks) or (cells and notebook not in cells):
                continue
            what = ledger.changed(course, student, notebook, entries)
            if changed_checks and ledger.CHECK not in what:
                continue
            chosen.setdefault(student, []).append(notebook)
            changed[(student, notebook)] = what
    grade_ids = frozenset(g for found in cells.values() for g in found) if cells else None
    return Selection(chosen, grade_ids, changed)
