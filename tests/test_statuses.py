"""One table of statuses (grader/records/statuses.py): every status the grading code can write is in it, and the
table's word is what formgrader, the grade table and the export say of it, a grader's error included."""

import ast
import importlib
import inspect
import shutil

import pytest

from grader import records
from grader.autograde.flags import mark
from grader.autograde.table import grade_table
from grader.course import Course
from grader.course.grades import CellGrade, NotebookGrade
from grader.export.rows import table
from grader.records import ExerciseRecord, NotebookRecord
from grader.records.statuses import STATUSES
from grader.sandbox.zygote import Failed

from .conftest import ROOT

PACKAGE = ROOT / "grader"
# The code that gives a unit, a test cell or a notebook its status: the sandbox, autograde, the grades.
WRITERS = [
    *sorted((PACKAGE / "sandbox").glob("*.py")),
    *sorted((PACKAGE / "autograde").glob("*.py")),
    PACKAGE / "course" / "grades.py",
]
STATUS_ARGUMENT = {
    made.__name__: list(inspect.signature(made).parameters).index("status")
    for made in (NotebookRecord, ExerciseRecord, CellGrade, NotebookGrade, Failed)
}
SANDBOX_ONLY = {"ok"}  # a unit that ran, in the sandbox's words: its record says graded, or what its checks found


def module_of(path):
    return importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))


class StatusWords:
    """The status words the writers' code puts where a status goes: under a "status" key, in a variable named
    status, as the status of a record, a grade or a sandbox failure, or returned by a function whose result goes
    there. A name is read as the module holds it (``GRADED``); a local variable is not followed: what it holds was
    found where it was set."""

    def __init__(self, paths):
        self.trees = {path: ast.parse(path.read_text()) for path in paths}
        self.functions = {
            node.name: (path, node)
            for path, tree in self.trees.items()
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
        }

    def found(self):
        words = set()
        for path, tree in self.trees.items():
            names = vars(module_of(path))
            for node in ast.walk(tree):
                for expr, position in self._places(node):
                    words |= self._words(expr, position, names)
        return words

    def _places(self, node):
        """(expression, position in a tuple or None) of every status ``node`` sets."""
        if isinstance(node, ast.Dict):
            return [
                (value, None)
                for key, value in zip(node.keys, node.values)
                if isinstance(key, ast.Constant) and key.value == "status"
            ]
        if isinstance(node, ast.Assign):
            return [
                (node.value, index)
                for target in node.targets
                for index, name in (enumerate(target.elts) if isinstance(target, ast.Tuple) else [(None, target)])
                if isinstance(name, ast.Name) and name.id == "status"
            ]
        if isinstance(node, ast.Call) and _called(node) in STATUS_ARGUMENT:
            index = STATUS_ARGUMENT[_called(node)]
            given = (
                node.args[index]
                if len(node.args) > index
                else next((k.value for k in node.keywords if k.arg == "status"), None)
            )
            return [(given, None)] if given is not None else []
        return []

    def _words(self, expr, position, names):
        if isinstance(expr, ast.IfExp):
            return self._words(expr.body, position, names) | self._words(expr.orelse, position, names)
        if isinstance(expr, ast.Tuple) and position is not None:
            return self._words(expr.elts[position], None, names)
        if isinstance(expr, ast.Call) and _called(expr) in self.functions:
            path, function = self.functions[_called(expr)]
            returned = [node.value for node in ast.walk(function) if isinstance(node, ast.Return) and node.value]
            return set().union(*(self._words(value, position, vars(module_of(path))) for value in returned))
        if position is None and isinstance(expr, ast.Constant):
            return {expr.value} if isinstance(expr.value, str) else set()
        if position is None and isinstance(expr, ast.Name) and isinstance(names.get(expr.id), str):
            return {names[expr.id]}
        return set()


def _called(call):
    """The name of the function or class a call calls: ``f(...)``, ``self.f(...)`` or ``module.f(...)``."""
    return (
        call.func.id
        if isinstance(call.func, ast.Name)
        else call.func.attr
        if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        else None
    )


def test_every_status_the_grading_code_writes_is_in_the_table_and_no_other():
    written = StatusWords(WRITERS).found() - SANDBOX_ONLY
    assert {"graded", "timeout", "memory", "not_run", "undefined", "grader_error", "invalid", "missing"} <= written
    assert written - set(STATUSES) == set(), "statuses the code writes that the table does not know"
    assert set(STATUSES) - written == set(), "rows of the table that no code writes"


def test_the_export_says_each_status_in_plain_words_of_its_own():
    assert {s: w.csv for s, w in STATUSES.items() if "_" in w.csv or w.csv != w.csv.strip()} == {}
    assert len({w.csv for w in STATUSES.values()}) == len(STATUSES)
    assert STATUSES["undefined"].csv == "not written"


STEPS = "02_self_attention_step_by_step.ipynb"
NB02 = STEPS.removesuffix(".ipynb")
PROBLEM = "the grader could not check show_heatmaps (AttributeError: 'SubplotSpec' object has no attribute 'x')"


@pytest.fixture
def course(tmp_path, empty_gradebook):
    """ada's notebook 02 as autograde leaves it where the grader could not check show_heatmaps: its test cell
    scored 0 by nbgrader, its record ``grader_error``; attention_weights right."""
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    shutil.copy(empty_gradebook, tmp_path)
    course = Course.at(tmp_path)
    with course.gradebook() as book:
        book.add_assignment(course.assignment)
        book.add_notebook(NB02, course.assignment)
        for grade_id, points in (("attention_weights_test", 2), ("show_heatmaps_test", 3)):
            book.add_grade_cell(grade_id, NB02, course.assignment, max_score=points, cell_type="code")
        book.add_student("ada")
        book.add_submission(course.assignment, "ada")
        for grade_id, score in (("attention_weights_test", 2), ("show_heatmaps_test", 0)):  # as SaveAutoGrades
            grade = book.find_grade(grade_id, NB02, course.assignment, "ada")
            grade.auto_score, grade.needs_manual_grade = score, False
        book.db.commit()
    course.submitted("ada").mkdir(parents=True)
    (course.submitted("ada") / STEPS).write_text("{}")
    records.write(
        course,
        NotebookRecord(
            "ada",
            course.assignment,
            STEPS,
            exercises=[
                ExerciseRecord("attention_weights", 2, 2, grade_id="attention_weights_test"),
                ExerciseRecord("show_heatmaps", 0, 3, "grader_error", PROBLEM, grade_id="show_heatmaps_test"),
            ],
        ),
    )
    return course


def test_a_grader_error_needs_a_manual_grade_and_is_said_in_words(course):
    with course.gradebook() as book:
        mark(book, records.read(records.record_path(course, "ada", STEPS)), NB02)
    with course.gradebook() as book:
        notebook = book.find_submission_notebook(NB02, course.assignment, "ada")
        manual = {grade.name: grade.needs_manual_grade for grade in notebook.grades}
        assert notebook.flagged and manual == {"attention_weights_test": False, "show_heatmaps_test": True}
    notes = grade_table(course).split("Needs attention:")[1]
    assert "ada 02: the grader could not check it (its own error, not the student's), grade by hand" in notes
    assert "grader_error" not in notes
    row = next(r for r in table(course) if r["exercise"] == "show_heatmaps")
    assert (row["score"], row["status"], row["reason"], row["needs_attention"]) == (
        "",
        "grader could not check",
        PROBLEM,
        "yes",
    )
