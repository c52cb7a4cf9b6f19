"""The regrade's new result set: a scratch course of its own, for the kit's ``autograde`` to grade.

The scratch course (``<result set>/course/``) has the live course's configuration (loaded from it, with the
gradebook, the root and one more folder to hide from submissions set here), its release and source, the chosen
students' notebooks as handed in, and a new SQLite gradebook that holds the assignment as the live gradebook
defines it (its notebooks, cells, due date) and the students with their extensions, copied through nbgrader's
gradebook API (the live one may be PostgreSQL). Nothing the students or the live gradebook see is touched.
"""

import shutil

from nbgrader.api import MissingEntry
from traitlets.config.loader import PyFileConfigLoader

from ..course import CONFIG, Course
from ..course.gradebook import students as gradebook_students

SCRATCH_CONFIG = """# A regrade's scratch course: the live course's configuration, its own root and gradebook.
c = get_config()  # noqa: F821 (provided by traitlets)
load_subconfig({config!r}, path={live!r})  # noqa: F821
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = {db_url!r}
# the live course is covered as well as this one: a submission graded here must not read it
c.SandboxExecute.hidden_folders = {hidden!r}
"""


def make(live, folder, selection):
    """The scratch :class:`~grader.course.Course` in ``folder`` for ``selection``'s notebooks, not graded yet."""
    folder.mkdir(parents=True)
    root = folder.resolve()
    loaded = PyFileConfigLoader(CONFIG, path=str(live.root.resolve())).load_config()
    hidden = [*loaded.SandboxExecute.get("hidden_folders", []), str(live.root.resolve())]
    (root / CONFIG).write_text(
        SCRATCH_CONFIG.format(
            config=CONFIG,
            live=str(live.root.resolve()),
            root=str(root),
            db_url=f"sqlite:///{root / 'gradebook.db'}",
            hidden=hidden,
        )
    )
    scratch = Course(root, live.assignment)
    for step in ("release", "source"):
        if live.folder(step).is_dir():
            shutil.copytree(live.folder(step), scratch.folder(step))
    for student, notebooks in selection.notebooks.items():
        handed, into = live.submitted(student), scratch.submitted(student)
        into.mkdir(parents=True)
        for path in handed.iterdir():  # the chosen notebooks, and the other files (timestamp.txt) as handed in
            if (
                path.is_file()
                and not path.is_symlink()
                and not path.name.endswith(".invalid")
                and (path.suffix != ".ipynb" or path.name in notebooks)
            ):
                shutil.copy2(path, into / path.name)
    copy_assignment(live, scratch, selection.notebooks)
    return scratch


def copy_assignment(live, scratch, students):
    """The live gradebook's definition of the assignment, and ``students`` with their extensions, into the scratch
    course's new gradebook."""
    people = {person.id: person for person in gradebook_students(live)}
    with live.gradebook() as source, scratch.gradebook() as target:
        assignment = source.find_assignment(live.assignment)
        target.update_or_create_assignment(live.assignment, duedate=assignment.duedate)
        for notebook in assignment.notebooks:
            target.update_or_create_notebook(notebook.name, live.assignment, kernelspec=notebook.kernelspec)
            for cell in notebook.grade_cells:
                target.update_or_create_grade_cell(
                    cell.name, notebook.name, live.assignment, max_score=cell.max_score, cell_type=cell.cell_type
                )
            for cell in notebook.solution_cells:
                target.update_or_create_solution_cell(cell.name, notebook.name, live.assignment)
            for cell in notebook.task_cells:
                target.update_or_create_task_cell(
                    cell.name, notebook.name, live.assignment, max_score=cell.max_score, cell_type=cell.cell_type
                )
            for cell in notebook.source_cells:
                target.update_or_create_source_cell(
                    cell.name,
                    notebook.name,
                    live.assignment,
                    cell_type=cell.cell_type,
                    locked=cell.locked,
                    source=cell.source,
                    checksum=cell.checksum,
                )
        for student in students:
            person = people.get(student)
            names = (
                {
                    "first_name": person.first_name,
                    "last_name": person.last_name,
                    "email": person.email,
                    "lms_user_id": person.lms_user_id,
                }
                if person
                else {}
            )
            target.update_or_create_student(student, **{k: v or None for k, v in names.items()})
            try:
                extension = source.find_submission(live.assignment, student).extension
            except MissingEntry:
                extension = None
            if extension is not None:
                target.update_or_create_submission(live.assignment, student, extension=extension)
