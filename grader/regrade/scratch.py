"""The regrade's new result set: a scratch course of its own, for the kit's ``autograde`` to grade.

The scratch course (``<result set>/course/``) has the live course's configuration (loaded from it, with the
gradebook, the root and one more folder to hide from submissions set here), its release and source, the chosen
students' notebooks as handed in, and a new SQLite gradebook that holds the assignment as the live gradebook
defines it (its notebooks, cells, due date) and the students with their extensions, copied through nbgrader's
gradebook API (the live one may be PostgreSQL). Nothing the students or the live gradebook see is touched.

The new gradebook gets nbgrader's tables and the live gradebook's schema version before nbgrader opens it: for a
gradebook it finds empty, nbgrader starts ``alembic`` to learn the version, a process of its own.
"""

import shutil

from nbgrader.api import MissingEntry
from sqlalchemy import text

from ..course import CONFIG, Course, new_gradebook
from ..course.gradebook import students as gradebook_students

SCRATCH_CONFIG = """# A regrade's scratch course: the live course's configuration, its own root and gradebook.
c = get_config()  # noqa: F821 (provided by traitlets)
load_subconfig({config!r}, path={live!r})  # noqa: F821
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db_url!r}
# the live course is covered as well as this one: a submission graded here must not read it
c.SandboxExecute.hidden_folders = {hidden!r}
"""


def config_text(live, root):
    """The configuration file of the scratch course in the folder ``root`` (absolute) of the ``live`` course."""
    hidden = [*live.config.SandboxExecute.get("hidden_folders", []), str(live.root.resolve())]
    return SCRATCH_CONFIG.format(
        config=CONFIG,
        live=str(live.root.resolve()),
        root=str(root),
        db_url=f"sqlite:///{root / 'gradebook.db'}",
        hidden=hidden,
    )


def at(folder, live):
    """The scratch :class:`~grader.course.Course` in ``folder`` (a result set's ``course/``) of ``live``."""
    return Course(folder.resolve(), live.assignment)


def handed_files(live, student, notebooks):
    """The files of ``student``'s submission that the scratch course gets: the ``notebooks`` chosen, and the other
    regular files beside them (``timestamp.txt``) as handed in."""
    return [
        path
        for path in sorted(live.submitted(student).iterdir())
        if path.is_file()
        and not path.is_symlink()
        and not path.name.endswith(".invalid")
        and (path.suffix != ".ipynb" or path.name in notebooks)
    ]


def make(live, folder, selection):
    """The scratch :class:`~grader.course.Course` in ``folder`` for ``selection``'s notebooks, not graded yet."""
    folder.mkdir(parents=True)
    scratch = at(folder, live)
    (scratch.root / CONFIG).write_text(config_text(live, scratch.root))
    for step in ("release", "source"):
        if live.folder(step).is_dir():
            shutil.copytree(live.folder(step), scratch.folder(step))
    for student, notebooks in selection.notebooks.items():
        into = scratch.submitted(student)
        into.mkdir(parents=True)
        for path in handed_files(live, student, notebooks):
            shutil.copy2(path, into / path.name)
    copy_assignment(live, scratch, selection.notebooks)
    return scratch


def definition(live, students):
    """What the scratch gradebook takes from the live one: the assignment as it defines it (due date, notebooks,
    cells) and ``students`` (names, e-mail, LMS id, extension), as plain values."""
    people = {person.id: person for person in gradebook_students(live)}
    with live.gradebook() as book:
        assignment = book.find_assignment(live.assignment)
        notebooks = {
            notebook.name: {
                "kernelspec": notebook.kernelspec,
                "grade_cells": {
                    c.name: {"max_score": c.max_score, "cell_type": c.cell_type} for c in notebook.grade_cells
                },
                "solution_cells": sorted(c.name for c in notebook.solution_cells),
                "task_cells": {
                    c.name: {"max_score": c.max_score, "cell_type": c.cell_type} for c in notebook.task_cells
                },
                "source_cells": {
                    c.name: {"cell_type": c.cell_type, "locked": c.locked, "source": c.source, "checksum": c.checksum}
                    for c in notebook.source_cells
                },
            }
            for notebook in assignment.notebooks
        }
        found = {}
        for student in students:
            person = people.get(student)
            names = ("first_name", "last_name", "email", "lms_user_id")
            found[student] = {name: (getattr(person, name) or None) if person else None for name in names}
            try:
                found[student]["extension"] = book.find_submission(live.assignment, student).extension
            except MissingEntry:
                found[student]["extension"] = None
        version = book.db.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        return {"duedate": assignment.duedate, "notebooks": notebooks, "students": found, "schema": version}


def copy_assignment(live, scratch, students):
    """The live gradebook's definition of the assignment, and ``students`` with their extensions, into the scratch
    course's new gradebook."""
    defined = definition(live, students)
    name = live.assignment
    new_gradebook.make(scratch.directory.db_url, defined["schema"])
    with scratch.gradebook() as target:
        target.update_or_create_assignment(name, duedate=defined["duedate"])
        for notebook, cells in defined["notebooks"].items():
            target.update_or_create_notebook(notebook, name, kernelspec=cells["kernelspec"])
            for cell, values in cells["grade_cells"].items():
                target.update_or_create_grade_cell(cell, notebook, name, **values)
            for cell in cells["solution_cells"]:
                target.update_or_create_solution_cell(cell, notebook, name)
            for cell, values in cells["task_cells"].items():
                target.update_or_create_task_cell(cell, notebook, name, **values)
            for cell, values in cells["source_cells"].items():
                target.update_or_create_source_cell(cell, notebook, name, **values)
        for student, values in defined["students"].items():
            extension = values.pop("extension")
            target.update_or_create_student(student, **{k: v for k, v in values.items() if v is not None})
            if extension is not None:
                target.update_or_create_submission(name, student, extension=extension)
