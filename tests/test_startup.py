"""The instructor's commands start without compiling a grammar or importing a library they never use."""
import subprocess
import sys

import pytest


def test_reading_notebooks_does_not_import_rfc3987_syntax():
    """jsonschema, under nbformat, imports rfc3987-syntax (1.5 s of grammar building) unless rfc3987 is there:
    every grader command and nbgrader process would pay it (requirements.txt)."""
    done = subprocess.run([sys.executable, "-c", "import sys, nbformat; print('rfc3987_syntax' in sys.modules)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# What an instructor's command has no use for unless it grades or compares: PyTorch (seconds to import), the
# similarity's copydetect and matplotlib.
HEAVY = ("torch", "copydetect", "matplotlib")


def test_a_command_that_runs_no_notebook_loads_no_pytorch():
    verbs = ["collect", "feedback", "export", "report", "roster", "passback", "jwks"]
    loaded = subprocess.run([sys.executable, "-c", f"import sys; from grader.api import {', '.join(verbs)}; "
                             f"print(*(name for name in {HEAVY!r} if name in sys.modules))"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []


@pytest.mark.slow  # a gradebook made by nbgrader (alembic): seconds
def test_autograde_with_nothing_new_to_grade_loads_no_pytorch(tmp_path):
    """A rerun after the class is graded (or before anyone hands in) plans no check: planning imports PyTorch and
    computes every reference answer, seconds of CPU for no student."""
    from grader.demo.run import new_course
    course = new_course(tmp_path / "course")
    done = subprocess.run([sys.executable, "-c", "import sys; from grader.api import autograde; "
                           f"autograde({str(course)!r}); print(*(name for name in {HEAVY!r} if name in sys.modules))"],
                          capture_output=True, text=True, cwd=course)
    assert done.returncode == 0, done.stderr
    assert "nothing to grade: no notebook handed in" in done.stderr
    assert done.stdout.split() == []


@pytest.mark.slow  # a course copied, autograde in a new process
def test_autograde_of_a_released_assignment_with_nothing_to_grade_loads_no_pytorch(course_copy):
    """The same once the notebooks are released (their exercises known, so there is a plan to skip)."""
    done = subprocess.run([sys.executable, "-c", "import sys; from grader.api import autograde; "
                           f"autograde({str(course_copy)!r}); "
                           f"print(*(name for name in {HEAVY!r} if name in sys.modules))"],
                          capture_output=True, text=True, cwd=course_copy)
    assert done.returncode == 0, done.stderr
    assert "nothing to grade: no notebook handed in" in done.stderr
    assert done.stdout.split() == []


@pytest.mark.slow  # one notebook graded
def test_autograde_plans_the_checks_of_the_notebooks_handed_in_only(course_copy):
    """A run that grades one notebook plans that notebook's exercises before its grading processes are forked, not
    all of them (planning every exercise: seconds more of CPU)."""
    from grader.course import Course
    numpy_notebook = "03_attention_in_numpy.ipynb"
    course = Course.at(course_copy, "self_attention")
    handed_in = course.submitted("ann") / numpy_notebook
    handed_in.parent.mkdir(parents=True)
    handed_in.write_bytes((course.release / numpy_notebook).read_bytes())
    done = subprocess.run([sys.executable, "-c", "from grader.api import autograde; "
                           "from grader.checks.running import _plan; "
                           f"autograde({str(course.root)!r}); print(_plan.cache_info().currsize)"],
                          capture_output=True, text=True, cwd=course.root)
    assert done.returncode == 0, done.stderr
    assert "graded 1 notebook of 1 student" in done.stderr
    assert int(done.stdout.split()[-1]) == len(course.released_exercises()[numpy_notebook]) == 4


@pytest.mark.slow  # the solution notebooks run in a new process, PyTorch imported: seconds
def test_planning_a_notebook_that_draws_nothing_imports_no_matplotlib():
    """The reference answers run the solution notebook; matplotlib (pyplot: about a second of CPU) is imported, on
    Agg, for the notebooks that draw only."""
    found = subprocess.run([sys.executable, "-c", "import sys; from grader.reference import namespace; "
                            "namespace('01_attention_basics.ipynb'); print('matplotlib' in sys.modules); "
                            "namespace('02_self_attention_step_by_step.ipynb'); import matplotlib; "
                            "print(matplotlib.get_backend().lower(), 'matplotlib.pyplot' in sys.modules)"],
                           capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["False", "agg", "True"]
