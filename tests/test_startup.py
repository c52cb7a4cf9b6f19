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


def test_the_exercises_names_and_notebooks_are_known_without_importing_pytorch():
    """Feedback pages, the export and the report ask which exercise a test cell grades: the names are read from the
    exercise modules' source, and they are the names and notebooks that importing the modules gives."""
    asked = ("from grader.checks import registry; "
             "names = (registry.exercise_names(), registry.notebooks(), "
             "[registry.notebook_of(n) for n in registry.exercise_names()], "
             "registry.exercise_of_grade_id('attention_scores_test'), registry.exercise_of_grade_id('mine_test')); "
             "print(*(name for name in ('torch', 'grader.exercises.basics') if name in sys.modules)); ")
    done = subprocess.run([sys.executable, "-c", f"import sys; {asked}"
                           "modules = registry.modules().values(); "
                           "print(names == ([n for m in modules for n in m.PARTS], sorted({m.NOTEBOOK for m in modules}), "
                           "[m.NOTEBOOK for m in modules for n in m.PARTS], 'attention_scores', None))"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["", "True"]


@pytest.mark.slow  # a gradebook made by nbgrader, then two commands in new processes
def test_the_export_and_the_report_of_a_graded_class_load_no_pytorch(tmp_path, empty_gradebook):
    """They read the gradebook and ask which exercise each test cell grades; the report draws (matplotlib)."""
    from .course_builder import dated_course
    course = dated_course(tmp_path / "course", empty_gradebook, {"ann": "2026-03-01 10:00:00.000000 UTC"})
    for verb in ("export", "report"):
        done = subprocess.run([sys.executable, "-c", f"import sys; from grader.api import {verb}; "
                               f"{verb}({str(course)!r}); print('loaded:', 'torch' in sys.modules)"],
                              capture_output=True, text=True, cwd=course)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "loaded: False", verb


@pytest.mark.parametrize("source", [
    "NOTEBOOK = '06.ipynb'\nPARTS = {'x': []}\nPARTS.update(y=[])", "NOTEBOOK = '06.ipynb'\nPARTS = {**OTHER}",
    "NOTEBOOK = NAME\nPARTS = {'x': []}", "from .basics import *", "from .basics import PARTS\nNOTEBOOK = '06.ipynb'"])
def test_a_module_whose_exercises_the_reading_cannot_be_sure_of_is_imported_instead(source):
    from grader.checks.registry import _literals
    assert _literals(source) is None
