"""Real nbgrader courses as test data: the corpus in tests/courses/, released by stock nbgrader, handed in by
students made from the release, and graded as course folders with stock nbgrader's config, or with that config
brought to the kit by ``python -m grader adopt``.

Each course of tests/courses/<name>/ is an nbgrader source folder (``source/<assignment>/``: one notebook, and the
course's own helper modules and data files beside it), with a SOURCE.md saying where it comes from. Its students:

- ``release``: the notebook as ``nbgrader generate_assignment`` releases it, untouched;
- ``solutions``: the release with every answer cell holding the instructor's answer;
- ``buggy``: the solutions with one plausible bug (:attr:`RealCourse.bug`, an edit of one answer);
- ``mixed``: the release with every other answer cell from the solutions;
- and the course's own example submissions, where it ships some (``submitted/<student>/<assignment>/``).

A student hands in the notebook only, as from an LMS: nbgrader's autograde copies the source folder's other files
(helpers, data) beside it before running it.
"""

import dataclasses
import os
import pathlib
import shutil
import subprocess

import nbformat

from grader.course import path_with_venv, venv_on_path
from grader.demo.fill import MARKER, fill

CORPUS = pathlib.Path(__file__).resolve().parent / "courses"
MADE = ("release", "solutions", "buggy", "mixed")


@dataclasses.dataclass(frozen=True)
class RealCourse:
    """A course of the corpus: its folder's name, its assignment and notebook, and the bug of ``buggy``
    (grade_id of an answer cell, text in the instructor's answer, the text that replaces it)."""

    name: str
    assignment: str
    notebook: str
    bug: tuple[str, str, str]

    @property
    def folder(self):
        return CORPUS / self.name

    @property
    def source(self):
        return self.folder / "source" / self.assignment

    def source_notebook(self):
        return nbformat.read(self.source / self.notebook, as_version=4)

    def shipped_students(self):
        """{student: folder of the submission} of the example submissions the course ships."""
        return {p.parent.name: p for p in sorted((self.folder / "submitted").glob(f"*/{self.assignment}"))}

    def test_cells(self):
        """The grade_ids of the notebook's autograder tests (graded code cells that are not answers)."""
        return [
            cell.metadata.nbgrader["grade_id"]
            for cell in self.source_notebook().cells
            if cell.cell_type == "code"
            and cell.metadata.get("nbgrader", {}).get("grade")
            and not cell.metadata.nbgrader.get("solution")
        ]


COURSES = (
    RealCourse("nbgrader_ps1", "ps1", "problem1.ipynb", ("squares", "range(1, n + 1)", "range(1, n)")),
    RealCourse("experiment", "experiment", "experiment.ipynb", ("normalise", "x.std()", "x.std(ddof=1)")),
    RealCourse("newton", "newton_iter", "newton_iter.ipynb", ("newton_iteration", "x = x - step", "x = x + step")),
)
ALL = {course.name: course for course in COURSES}


def stock_config(course):
    """nbgrader's defaults: the course's id only."""
    return f"c = get_config()\nc.CourseDirectory.course_id = {course.name!r}\n"


def new_course(course, folder):
    """A course folder with the corpus's source of ``course`` and stock nbgrader's config."""
    folder = pathlib.Path(folder)
    shutil.copytree(
        course.source,
        folder / "source" / course.assignment,
        ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"),
    )
    (folder / "nbgrader_config.py").write_text(stock_config(course))
    return folder


def run_together(commands):
    """Run [(arguments, folder)] at once, each in its folder with this environment's commands first on PATH;
    wait for all and return their finished processes (stdout and stderr as text)."""
    env = {**os.environ, "PATH": path_with_venv()}
    started = [
        subprocess.Popen(arguments, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for arguments, folder in commands
    ]
    done = []
    for process, (arguments, _) in zip(started, commands):
        out, err = process.communicate(timeout=600)
        done.append(subprocess.CompletedProcess(arguments, process.returncode, out, err))
    return done


def release_all(folder, gradebook, courses=COURSES):
    """{name: course folder} of every course released by stock nbgrader's generate_assignment (the release
    folder and a gradebook that knows the assignment), under ``folder``. Released in this process, by nbgrader's
    API: a process each would spend seconds importing nbgrader. ``gradebook``: an empty gradebook to start from
    (conftest's ``empty_gradebook``: nbgrader would spend seconds making one per course)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    made = {}
    for course in courses:
        made[course.name] = new_course(course, pathlib.Path(folder) / course.name)
        shutil.copy(gradebook, made[course.name] / "gradebook.db")
        config = Config({"CourseDirectory": {"course_id": course.name, "root": str(made[course.name])}})
        with venv_on_path():
            done = NbGraderAPI(CourseDirectory(config=config), config=config).generate_assignment(course.assignment)
        if not done["success"]:
            raise RuntimeError(
                f"{course.name}: nbgrader generate_assignment failed:\n{done.get('error')}\n{done.get('log')}"
            )
    return made


def answers(course):
    """{grade_id: the instructor's answer} of every answer cell, without the solution markers."""
    return {
        cell.metadata.nbgrader["grade_id"]: "\n".join(
            line for line in cell.source.splitlines() if not MARKER.match(line)
        )
        for cell in course.source_notebook().cells
        if cell.metadata.get("nbgrader", {}).get("solution")
    }


def students(course, released):
    """{student: notebook} of the made students (:data:`MADE`), from the release in the course folder
    ``released``."""
    release = nbformat.read(released / "release" / course.assignment / course.notebook, as_version=4)
    solutions = answers(course)
    grade_id, old, new = course.bug
    assert old in solutions[grade_id], f"{course.name}: the bug's text is not in the answer {grade_id}"
    half = {grade_id: answer for number, (grade_id, answer) in enumerate(solutions.items()) if number % 2 == 0}
    return {
        "release": release,
        "solutions": fill(release, solutions),
        "buggy": fill(release, {**solutions, grade_id: solutions[grade_id].replace(old, new)}),
        "mixed": fill(release, half),
    }


def hand_in(course, folder, made):
    """Put ``made`` ({student: notebook}) and the course's own example submissions in ``folder``'s submitted/."""
    for student, nb in made.items():
        target = folder / "submitted" / student / course.assignment
        target.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target / course.notebook)
    for student, shipped in course.shipped_students().items():
        target = folder / "submitted" / student / course.assignment
        target.mkdir(parents=True, exist_ok=True)
        for name in (course.notebook, "timestamp.txt"):
            if (shipped / name).exists():
                shutil.copy(shipped / name, target / name)


def graded_copy(course, released, folder, config):
    """A copy of the released course folder ``released`` at ``folder``, with ``config`` as its nbgrader_config.py
    and every student handed in."""
    shutil.copytree(released, folder)
    (folder / "nbgrader_config.py").write_text(config)
    hand_in(course, folder, students(course, released))
    return folder


def every_student(course):
    return [*MADE, *course.shipped_students()]
