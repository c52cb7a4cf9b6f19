"""The answer cells of a course, read as plain JSON and never run: each student's, the released stubs', the
reference solution's.

An answer is the source of an nbgrader solution cell (``metadata.nbgrader.solution``) of type code, by its
``grade_id``. A notebook that is not a readable notebook is skipped and named, not a reason to stop.
"""

import dataclasses
import re

from ..checks.cells import definition, nbgrader_metadata
from ..checks.notebook import read

MARKER = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$")  # nbgrader's solution delimiters, as the kit writes them


@dataclasses.dataclass
class ClassAnswers:
    """What the comparison needs. ``students[student][notebook][grade_id]`` is a student's answer;
    ``stubs`` and ``references`` are ``[notebook][grade_id]`` of the release and the solutions."""

    stubs: dict
    references: dict
    students: dict
    unreadable: list  # "<student>/<notebook>" of the notebooks that could not be read


def solution_sources(nb):
    """{grade_id: source} of the notebook's code solution cells; an unexpected shape raises ValueError."""
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("not a notebook")
    found = {}
    for cell in nb["cells"]:
        meta = nbgrader_metadata(cell) if isinstance(cell, dict) else {}
        grade_id, source = meta.get("grade_id"), cell.get("source") if isinstance(cell, dict) else None
        if (
            cell.get("cell_type") == "code"
            and meta.get("solution")
            and isinstance(grade_id, str)
            and isinstance(source, str)
        ):
            found[grade_id] = source
    return found


def exercise_names(stubs):
    """{notebook: {grade_id: name}}: each exercise by the function or class its released cell defines, as the
    notebook shows it (``show_heatmaps``, not the cell's id ``show_heatmaps_from_02``), else by its grade_id."""
    names = {}
    for notebook, cells in stubs.items():
        names[notebook] = {}
        for grade_id, stub in cells.items():
            defined = definition().search(stub)
            names[notebook][grade_id] = defined[1] if defined else grade_id
    return names


def without_markers(source):
    """A solution cell's source without nbgrader's ``### BEGIN/END SOLUTION`` lines."""
    return "\n".join(line for line in source.splitlines() if not MARKER.match(line))


def class_answers(course):
    """The :class:`ClassAnswers` of a :class:`~grader.course.Course`: the release's notebooks, and each student's
    notebook of the same name in ``submitted/``."""
    stubs = {path.name: solution_sources(read(path)) for path in sorted(course.release.glob("*.ipynb"))}
    references = {}
    for name in stubs:
        path = course.source / name
        references[name] = (
            {grade_id: without_markers(source) for grade_id, source in solution_sources(read(path)).items()}
            if path.is_file()
            else {}
        )
    students, unreadable = {}, []
    for folder in sorted(course.every_student("submitted").glob(f"*/{course.assignment}")):
        student = folder.parent.name
        for name in stubs:
            path = folder / name
            if not path.is_file():
                continue
            try:
                answers = solution_sources(read(path))
            except (ValueError, UnicodeDecodeError, OSError, AttributeError):  # json's errors are ValueErrors
                unreadable.append(f"{student}/{name}")
                continue
            students.setdefault(student, {})[name] = {g: s for g, s in answers.items() if g in stubs[name]}
    return ClassAnswers(stubs, references, students, unreadable)
