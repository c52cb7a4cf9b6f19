"""Real nbgrader courses (tests/courses/, see tests/real_courses.py), graded by stock ``nbgrader autograde`` and by
the kit: every test cell of every student has the same score in both gradebooks, or the kit's grading record
flags it ``disputed`` (for a person, with both outcomes). No cell may differ silently.

The courses use what courses in the wild do and the kit's own never meet: helper modules and data files beside
the notebook, test cells that ``del`` a helper, set a global the student's function reads, seed a generator, or
hand lambdas, functions and callable objects to the student's code."""

import json
import pathlib
import sys
import tempfile

import nbformat
import pytest
from nbgrader.api import Gradebook, MissingEntry

from grader.course import Course, venv_on_path
from grader.records import record_path

from .. import real_courses
from ..real_courses import COURSES

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

DISPUTED = "disputed"


@pytest.fixture(scope="module")
def released(tmp_path_factory, empty_gradebook):
    """{course name: course folder} released once by stock nbgrader; never changed."""
    return real_courses.release_all(tmp_path_factory.mktemp("released"), empty_gradebook)


@pytest.fixture(scope="module")
def stock(released, tmp_path_factory):
    """{course name: course folder} graded by stock ``nbgrader autograde`` with nbgrader's defaults (its kernels
    on Unix sockets, tests/ports.py)."""
    top = tmp_path_factory.mktemp("stock")
    folders = {
        c.name: real_courses.graded_copy(c, released[c.name], top / c.name, real_courses.stock_config(c))
        for c in COURSES
    }
    with tempfile.TemporaryDirectory(prefix="kit-real-") as sockets:
        done = real_courses.run_together(
            [
                (
                    [
                        sys.executable,
                        "-m",
                        "nbgrader",
                        "autograde",
                        c.assignment,
                        "--log-level=ERROR",
                        "--KernelManager.transport=ipc",
                        f"--KernelManager.ip={sockets}/{c.name}",
                    ],
                    folders[c.name],
                )
                for c in COURSES
            ]
        )
    for process in done:
        assert process.returncode == 0, f"{' '.join(process.args)} failed:\n{process.stderr[-3000:]}"
    return folders


@pytest.fixture(scope="module")
def kit(released, tmp_path_factory):
    """{course name: (course folder, finished process)} brought to the kit by ``adopt`` (as an instructor would,
    from the same stock configuration) and graded by ``python -m grader autograde``."""
    from grader.course.adopt import adopt

    top = tmp_path_factory.mktemp("kit")
    folders = {
        c.name: real_courses.graded_copy(c, released[c.name], top / c.name, real_courses.stock_config(c))
        for c in COURSES
    }
    for course in COURSES:
        adopt(folders[course.name], course.assignment)
    done = real_courses.run_together(
        [
            (
                [
                    sys.executable,
                    "-m",
                    "grader",
                    "autograde",
                    "--course",
                    str(folders[c.name]),
                    "--assignment",
                    c.assignment,
                    "--workers",
                    "1",
                ],
                folders[c.name],
            )
            for c in COURSES
        ]
    )
    return {c.name: (folders[c.name], process) for c, process in zip(COURSES, done)}


def scores(course, folder):
    """{(student, grade_id): score} of the course's test cells in the gradebook of the course folder ``folder``;
    a cell the gradebook has no grade for is left out."""
    found = {}
    stem = pathlib.PurePath(course.notebook).stem
    with venv_on_path(), Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as book:
        for student in real_courses.every_student(course):
            try:
                grades = book.find_submission_notebook(stem, course.assignment, student).grades
            except MissingEntry:
                continue
            found.update({(student, grade.name): grade.score for grade in grades if grade.name in course.test_cells()})
    return found


def statuses(course, folder):
    """{(student, grade_id): status} from the kit's grading records."""
    found = {}
    for student in real_courses.every_student(course):
        path = record_path(Course(folder, course.assignment), student, course.notebook)
        if path.exists():
            for exercise in json.loads(path.read_text())["exercises"]:
                found[student, exercise.get("grade_id") or f"{exercise['name']}_test"] = exercise["status"]
    return found


def shown_error(course, folder, student, grade_id):
    """What the autograded notebook shows under the test cell ``grade_id``: its error, or its last output line."""
    path = folder / "autograded" / student / course.assignment / course.notebook
    if not path.exists():
        return "(no autograded notebook)"
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id:
            errors = [f"{o.ename}: {o.evalue}" for o in cell.get("outputs", []) if o.output_type == "error"]
            texts = [o.get("text", "") for o in cell.get("outputs", []) if o.output_type == "stream"]
            shown = " | ".join(errors) or "".join(texts).strip()
            return shown.replace("\n", " ")[:300] or "(no output)"
    return "(cell not found)"


def disagreements(stock, kit):
    """[(course, student, cell, stock score, kit score, kit status, kit's shown error)] of every test cell whose
    scores differ and which the kit did not flag as disputed."""
    rows = []
    for course in COURSES:
        folder, _ = kit[course.name]
        expected, got, status = scores(course, stock[course.name]), scores(course, folder), statuses(course, folder)
        for student in real_courses.every_student(course):
            for cell in course.test_cells():
                key = (student, cell)
                if got.get(key) != expected.get(key) and status.get(key) != DISPUTED:
                    rows.append(
                        (
                            course.name,
                            student,
                            cell,
                            expected.get(key),
                            got.get(key),
                            status.get(key),
                            shown_error(course, folder, student, cell),
                        )
                    )
    return rows


def table(rows):
    head = ("course", "student", "cell", "stock", "kit", "status", "kit shows")
    lines = [head, *[tuple("-" if v is None else str(v) for v in row) for row in rows]]
    widths = [max(len(line[i]) for line in lines) for i in range(len(head) - 1)]
    return "\n".join("  ".join(v.ljust(w) for v, w in zip(line, widths)) + "  " + line[-1] for line in lines)


def test_stock_nbgrader_grades_every_test_cell_and_tells_solutions_from_release(stock):
    """The reference is sound: stock nbgrader graded every student's every test cell, full marks for the
    instructor's solutions, none for the untouched release."""
    for course in COURSES:
        got = scores(course, stock[course.name])
        cells = course.test_cells()
        assert {key for key in got if key[0] in real_courses.MADE} == {
            (student, cell) for student in real_courses.MADE for cell in cells
        }, course.name
        with venv_on_path(), Gradebook(f"sqlite:///{stock[course.name] / 'gradebook.db'}") as book:
            most = {
                cell: book.find_grade_cell(cell, pathlib.PurePath(course.notebook).stem, course.assignment).max_score
                for cell in cells
            }
        assert {cell: got["solutions", cell] for cell in cells} == most, course.name
        assert all(got["release", cell] == 0 for cell in cells), course.name
        assert any(got["buggy", cell] < most[cell] for cell in cells), f"{course.name}: the bug changes no score"


def test_kit_scores_every_test_cell_as_stock_nbgrader_or_disputes_it(stock, kit):
    """Zero cells silently different; and on this corpus, where every student is honest, none disputed either."""
    rows = disagreements(stock, kit)
    notes = "\n".join(
        f"{name}: python -m grader autograde exited {process.returncode}\n{process.stderr[-2000:]}"
        for name, (_, process) in kit.items()
        if process.returncode != 0
    )
    assert not rows, f"{len(rows)} test cells scored differently, not disputed:\n{table(rows)}\n{notes}"
    disputed = [
        (name, key)
        for name, (folder, _) in kit.items()
        for key, status in statuses(real_courses.ALL[name], folder).items()
        if status == DISPUTED
    ]
    assert not disputed, disputed
