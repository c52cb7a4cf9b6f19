"""The instructor's commands start without compiling a grammar or importing a library they never use."""

import json
import pathlib
import subprocess
import sys
import tempfile

import psutil
import pytest

from grader.sandbox.pool import WORKER_FOLDER

from .conftest import SOLUTIONS

BASICS = "01_attention_basics.ipynb"
NUMPY_NOTEBOOK = "03_attention_in_numpy.ipynb"
ASSIGNMENT = "self_attention"


def test_reading_notebooks_does_not_import_rfc3987_syntax():
    """jsonschema, under nbformat, imports rfc3987-syntax (1.5 s of grammar building) unless rfc3987 is there:
    every grader command and nbgrader process would pay it (requirements.txt)."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys, nbformat; print('rfc3987_syntax' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


# What an instructor's command has no use for unless it grades or draws: PyTorch (seconds to import) and matplotlib.
HEAVY = ("torch", "matplotlib")


def test_a_command_that_runs_no_notebook_loads_no_pytorch():
    verbs = ["collect", "feedback", "export", "report", "roster", "passback", "jwks"]
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; from grader.api import {', '.join(verbs)}; "
            f"print(*(name for name in {HEAVY!r} if name in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert loaded == []


@pytest.mark.slow  # a gradebook made by nbgrader (alembic): seconds
def test_autograde_with_nothing_new_to_grade_loads_no_pytorch(tmp_path):
    """A rerun after the class is graded (or before anyone hands in) plans no check: planning imports PyTorch and
    computes every reference answer, seconds of CPU for no student."""
    from grader.demo.run import new_course

    course = new_course(tmp_path / "course")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from grader.api import autograde; "
            f"autograde({str(course)!r}); print(*(name for name in {HEAVY!r} if name in sys.modules))",
        ],
        capture_output=True,
        text=True,
        cwd=course,
    )
    assert done.returncode == 0, done.stderr
    assert "nothing to grade: no notebook handed in" in done.stderr
    assert done.stdout.split() == []


@pytest.mark.slow  # a course copied, autograde in a new process
def test_autograde_of_a_released_assignment_with_nothing_to_grade_loads_no_pytorch(course_copy):
    """The same once the notebooks are released (their exercises known, so there is a plan to skip)."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from grader.api import autograde; "
            f"autograde({str(course_copy)!r}); "
            f"print(*(name for name in {HEAVY!r} if name in sys.modules))",
        ],
        capture_output=True,
        text=True,
        cwd=course_copy,
    )
    assert done.returncode == 0, done.stderr
    assert "nothing to grade: no notebook handed in" in done.stderr
    assert done.stdout.split() == []


@pytest.fixture(scope="module")
def one_notebook_graded(released_course, tmp_path_factory):
    """A course where ann hands in notebook 03 as released, graded by one ``python -m grader autograde`` (watched,
    ``_grader_watched``): the two tests below read the same run."""
    from grader.course import Course

    from .course_builder import make_course

    course = Course.at(make_course(released_course, tmp_path_factory.mktemp("one_notebook") / "course"), ASSIGNMENT)
    handed_in = course.submitted("ann") / NUMPY_NOTEBOOK
    handed_in.parent.mkdir(parents=True)
    handed_in.write_bytes((course.release / NUMPY_NOTEBOOK).read_bytes())
    return course, *_grader_watched(course.root, "autograde", "--workers", "1")


@pytest.mark.slow  # one notebook graded
def test_autograde_plans_the_checks_of_the_notebooks_handed_in_only(one_notebook_graded):
    """A run that grades one notebook plans that notebook's exercises before its grading processes are forked, not
    all of them (planning every exercise: seconds more of CPU)."""
    course, grader, said, watched = one_notebook_graded
    assert grader.returncode == 0, said
    assert "graded 1 notebook of 1 student" in said
    assert watched["planned"] == len(course.released_exercises()[NUMPY_NOTEBOOK]) == 4


@pytest.mark.slow  # the solution notebooks run in a new process, PyTorch imported: seconds
def test_planning_a_notebook_that_draws_nothing_imports_no_matplotlib():
    """The reference answers run the solution notebook; matplotlib (pyplot: about a second of CPU) is imported, on
    Agg, for the notebooks that draw only."""
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from grader.reference import namespace; "
            "namespace('01_attention_basics.ipynb'); print('matplotlib' in sys.modules); "
            "namespace('02_self_attention_step_by_step.ipynb'); import matplotlib; "
            "print(matplotlib.get_backend().lower(), 'matplotlib.pyplot' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == ["False", "agg", "True"]


# ``python -m grader`` with each warm-up of sandbox workers it starts watched: printed (on stderr, last) as whether
# nbgrader was imported by then and its process id, and how many exercises the command planned (None: it planned
# nothing).
WARM_UPS_WATCHED = """
import json, subprocess, sys
started = []
class Watched(subprocess.Popen):
    def __init__(self, args, *rest, **options):
        super().__init__(args, *rest, **options)
        if "grader.sandbox.zygote" in args:
            started.append(["nbgrader" in sys.modules, self.pid])
subprocess.Popen = Watched
from grader.cli import main
try:
    main(sys.argv[1:])
finally:
    running = sys.modules.get("grader.checks.running")
    planned = running and running._plan.cache_info().currsize
    print(json.dumps({"warm_ups": started, "planned": planned}), file=sys.stderr)
"""


def _grader_watched(course, *arguments):
    """(the finished ``python -m grader`` process, its standard error, {"warm_ups": [nbgrader imported when each
    warm-up started, its process id], "planned": exercises planned})."""
    grader = subprocess.Popen(
        [sys.executable, "-c", WARM_UPS_WATCHED, *arguments, "--course", str(course)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=course,
    )
    _, said = grader.communicate(timeout=600)
    return grader, said, json.loads(said.splitlines()[-1])


@pytest.mark.slow  # a notebook graded in a new process
def test_autograde_warms_its_sandbox_up_while_it_imports_nbgrader(one_notebook_graded):
    """The warm-up (PyTorch, matplotlib, IPython: seconds) needs neither nbgrader nor the course's configuration to
    begin: ``autograde`` starts it first, and it is the one its grading processes use."""
    _, grader, said, watched = one_notebook_graded
    assert grader.returncode == 0, said
    assert "graded 1 notebook of 1 student" in said
    assert [loaded for loaded, _ in watched["warm_ups"]] == [False]


@pytest.mark.slow  # a course copied, autograde in a new process
def test_a_warm_up_that_nothing_needed_is_stopped_and_leaves_no_folder(course_copy):
    """With nothing to grade, the warm-up started early is stopped as the command exits: no process of it
    runs on, and no worker folder of the grader's is left in the temporary folder."""
    grader, said, watched = _grader_watched(course_copy, "autograde")
    assert grader.returncode == 0, said
    assert "nothing to grade: no notebook handed in" in said
    warm_ups = watched["warm_ups"]
    assert len(warm_ups) == 1 and not psutil.pid_exists(warm_ups[0][1])
    assert list(pathlib.Path(tempfile.gettempdir()).glob(f"{WORKER_FOLDER}{grader.pid}-*")) == []


def test_a_command_run_in_a_process_of_several_threads_starts_no_warm_up_it_cannot_use(course_copy, monkeypatch):
    """A process that runs other threads (a Jupyter kernel, a web service, a test runner calling ``main``) does not
    fork its grading processes: each starts in a new interpreter and warms up its own sandbox. So ``main`` starts no
    early warm-up there (one would cost seconds of CPU and its memory for nothing)."""
    import threading

    from grader.cli import main
    from grader.sandbox import pool

    started = []

    class CountedWarmUp(pool.WarmUp):
        def __init__(self, *arguments, **options):
            started.append(self)
            super().__init__(*arguments, **options)

    monkeypatch.setattr(pool, "WarmUp", CountedWarmUp)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        main(["autograde", "--course", str(course_copy), "--workers", "1"])
    finally:
        stop.set()
        other.join()
    assert started == []


# What a feedback page asks of the registry and the misconceptions, then the same asked with the exercise modules
# imported.
ASKED_WITHOUT_PYTORCH = """
import sys
from grader.checks import registry
from grader.checks.cells import is_test_cell, kit_exercise
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.notebook import read, sources_before
nb = read(sys.argv[1])
names = registry._declared()
asked = [registry.graded_exercise(f"{name}_test") for name in ("attention_scores", "MultiHeadAttention", "mine")]
sources = sources_before(nb, "attention_scores")
words = list(MISCONCEPTIONS.items())
print(*(name for name in ("torch", "grader.exercises.basics") if name in sys.modules))
before = []
for cell in nb.cells:
    if kit_exercise(cell) == "attention_scores":
        break
    if cell.cell_type == "code" and not is_test_cell(cell):
        before.append(cell.source)
print(asked == ["attention_scores", "MultiHeadAttention", None], sources == before != [],
      names == set(registry._parts()), words == list(MISCONCEPTIONS.items()) != [])
"""


def test_what_a_feedback_page_asks_of_the_checks_is_answered_without_importing_pytorch():
    """A feedback page asks which exercise each test cell grades (the export and the report too), the code cells
    before an exercise's test cell, and the words of each misconception found (the report too): the exercise modules'
    source is read, and the answers are those that importing the modules gives."""
    done = subprocess.run(
        [sys.executable, "-c", ASKED_WITHOUT_PYTORCH, str(SOLUTIONS / BASICS)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines() == ["", "True True True True"]


@pytest.mark.slow  # a gradebook made by nbgrader, then two commands in new processes
def test_the_export_and_the_report_of_a_graded_class_load_no_pytorch(tmp_path, empty_gradebook):
    """They read the gradebook and ask which exercise each test cell grades; the report draws (matplotlib)."""
    from .course_builder import dated_course

    course = dated_course(tmp_path / "course", empty_gradebook, {"ann": "2026-03-01 10:00:00.000000 UTC"})
    for verb in ("export", "report"):
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                f"import sys; from grader.api import {verb}; "
                f"{verb}({str(course)!r}); print('loaded:', 'torch' in sys.modules)",
            ],
            capture_output=True,
            text=True,
            cwd=course,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == "loaded: False", verb


@pytest.mark.parametrize(
    "source",
    [
        "NOTEBOOK = '06.ipynb'\nPARTS = {'x': []}\nPARTS.update(y=[])",
        "NOTEBOOK = '06.ipynb'\nPARTS = {**OTHER}",
        "NOTEBOOK = '06.ipynb'\nPARTS = dict(x=[])",
        "from .basics import *",
        "from .basics import PARTS\nNOTEBOOK = '06.ipynb'",
        "NOTEBOOK = '06.ipynb'\nif True:\n    PARTS = {'x': []}",
        "NOTEBOOK = '06.ipynb'\nPARTS = {'x': []}\nNOTEBOOK = '07.ipynb'",
        "NOTEBOOK = '06.ipynb'\nPARTS = {'x': []}\nMISCONCEPTIONS = (Misconception('k', TITLE, 'a', 'b'),)",
        "NOTEBOOK = '06.ipynb'\nPARTS = {'x': []}\nMISCONCEPTIONS = ()\nMISCONCEPTIONS += (OTHER,)",
        "import other as PARTS\nNOTEBOOK = '06.ipynb'\nPARTS = {'x': []}",
        "NOTEBOOK = '06.ipynb'\nPARTS = {'x': []}\ndef PARTS():\n    pass",
    ],
)
def test_a_module_whose_declarations_the_reading_cannot_be_sure_of_is_imported_instead(source):
    from grader.checks.declared import _read

    assert _read(source) is None
