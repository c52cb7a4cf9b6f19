"""Students get no answers: the wheel and the student zip that ``release`` writes, and the student-safe files they
are built from (all a sandbox can read of the kit), hold no definition of an exercise, no line of the hidden
checks or the references and no line of a solution (tests/release/leaks.py says what each is)."""

import pytest

from grader.boundary.student_safe import exercise_modules
from grader.checks.registry import exercise_names
from grader.release.wheel import student_sources, wheel_name

from ..conftest import ROOT, SOLUTIONS
from .leaks import exercises, files_of, hidden_lines, leaks, solution_lines


@pytest.fixture(scope="module")
def downloads(student_release):
    """The ``downloads/`` folder of a course released from the kit's solutions: the wheel and the student zip."""
    return student_release / "downloads"


@pytest.mark.slow
@pytest.mark.parametrize("download", [wheel_name(), "self_attention-student.zip"])
def test_what_students_download_holds_no_answer(downloads, download):
    found = leaks(files_of(downloads / download))
    assert found == [], found[:10]


def test_the_student_safe_files_hold_no_answer():
    """What the wheel is built from and a sandbox can read (grader/boundary/student_safe.py), the exercise modules
    compiled as the build compiles them, without building a wheel."""
    found = leaks({name: data.decode() for name, data in student_sources().items()})
    assert found == [], found[:10]


def test_the_exercise_modules_as_written_would_leak():
    """The scan sees each kind of secret in the exercise modules as written: the build's compiling is what keeps
    them out."""
    found = leaks({name: path.read_text() for name, path in exercise_modules().items()})
    assert {kind for _, kind, _ in found} >= {"hidden line", "source in a string"}


def test_the_scan_finds_each_kind_of_answer_in_the_instructors_files():
    assert exercises() >= set(exercise_names())
    assert len(hidden_lines()) > 300 and len(solution_lines()) > 50
    solutions = leaks({path.name: path.read_text() for path in SOLUTIONS.glob("*.ipynb")})
    assert {what for _, kind, what in solutions if kind == "definition"} >= set(exercise_names())
    assert {kind for _, kind, _ in solutions} >= {"definition", "solution line"}
    hidden = leaks({path.name: path.read_text() for path in (ROOT / "grader" / "hidden").glob("*.py")})
    assert {kind for _, kind, _ in hidden} >= {"hidden line"}
