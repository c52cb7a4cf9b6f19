"""Shared helpers for the kit's tests."""

import fcntl
import os
import pathlib
import re
import shutil
import sys
import tempfile

import pytest

from . import ports

# course_builder (PyTorch and nbgrader with it, 6 s) is imported by the fixtures that use it, not here: pytest-xdist's
# first process, which only hands the tests out, then starts the workers in under a second.

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions" / "self_attention"
EXERCISES = ROOT / "exercises" / "self_attention"

# nbgrader runs `alembic` and `jupyter` by name: the venv's must come first on PATH.
os.environ["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


# The modules whose grades hang on timing: the attack suite's memory bombs and crashes must end as themselves within
# a unit's 10 s, and the resilience test kills a grader while a sandbox runs. Under ``make test`` they run first,
# one after another on one worker, while no ``sandbox`` module runs (``sandboxes_apart``). Their checks that nothing
# is left look at their own graders' processes only (tests/sandbox/leftovers.py), so another module's sandbox, of
# the same user, cannot fail them. They are marked ``sandbox_alone`` from here, the one place that names them,
# because pytest-xdist's scheduler sees only the tests' ids.
SANDBOX_ALONE = ("test_grader_resilience.py", "test_sandbox_attacks.py")
# The modules that take longest on one worker, longest first (each module's time with ``-n 1``): started first
# among their kind, in this order, so that none of them is left running alone at the end. Not
# test_student_install.py: it waits for the students' environments that ``make test`` builds meanwhile, and
# leaves its worker idle if it starts first.
LONGEST = (
    "test_demo.py",
    "test_postgres_gradebook.py",
    "test_isolation_levels.py",
    "test_gradescope_attacks.py",
    "test_gradescope.py",
    "test_bench.py",
    "test_new_exercise.py",
    "test_dask_grading.py",
    "test_gradebook_agreement.py",
    "test_exchange.py",
    "test_startup.py",
)


# The end-to-end runs that ``make test`` (CI) leaves to ``make test-all``, marked ``extended`` from here, the one place
# that names them. Each repeats, in another configuration or through another route, a path that a test of
# ``make test`` runs end to end, or checks a tool rather than a grade: without them, ``make test`` fits in CI's
# time. A pattern is a regular expression that a test's id starts with; its value says what stays in make test.
EXTENDED = {
    r"tests/release/test_student_install\.py::\w+\[(colab-like|hub-like|oldest)\]": "the clean environment stays",
    r"tests/selfcheck/test_validate\.py::\w+\[0[2-5]_": "notebook 01 stays",
    r"tests/selfcheck/test_validate_button\.py": "the dialog in a browser; test_validate.py checks its verdicts",
    r"tests/test_bench\.py::test_benchmark_runs_on_a_tiny_class": "a tool, not a grade",
    r"tests/autograde/test_postgres_gradebook\.py::(test_two_graders_at_once_lose_nothing\[postgresql\]"
    r"|test_a_regrade_applies_to_a_postgresql_gradebook)": "every verb on PostgreSQL, and two graders on SQLite, stay",
    r"tests/autograde/test_dask_grading\.py::(test_a_worker_killed|test_a_student_is_graded_by_one_worker)": (
        "a class graded on a real Dask cluster stays"
    ),
    r"tests/regrade/test_preview_apply\.py::(test_apply_after_the_submission_changed|test_the_allow_lower_hint"
    r"|test_the_feedback_and_undo_hints)": "the apply and undo hints stay; test_preview_stale.py checks what changed",
    r"tests/autograde/test_missing_in_formgrader\.py": "test_lists_agree.py checks formgrader's list",
    r"tests/autograde/test_machine_paths_graded\.py": "test_machine_paths.py checks each way a path is hidden",
    r"tests/feedback/test_accessibility\.py::(test_the_class_is|test_axe_finds|test_each_figure|test_a_page_shows)": (
        "the page's language, figures and scrolling regions, checked on the template, stay"
    ),
    r"tests/autograde/test_exchange\.py": (
        "collect, grade and feedback through nbgrader's exchange; test_collect.py checks collecting in process"
    ),
    r"tests/autograde/test_new_exercise\.py": "the extending tutorial's exercise, added to a copy of the kit",
    r"tests/gradescope/test_gradescope\.py": "test_gradescope_parts.py checks the image's parts",
    r"tests/gradescope/test_gradescope_attacks\.py": (
        "test_sandbox_attacks.py runs the attacks in the sandbox; test_upload_files.py the uploads' files"
    ),
}


def extended(nodeid):
    """Whether the test ``nodeid`` is one of :data:`EXTENDED`."""
    return any(re.match(pattern, nodeid) for pattern in EXTENDED)


def work_unit(nodeid):
    """What pytest-xdist sends to one worker at once: a test module, or all the ``SANDBOX_ALONE`` modules."""
    module = nodeid.split("::", 1)[0]
    return "sandbox_alone" if pathlib.PurePath(module).name in SANDBOX_ALONE else module


def pytest_xdist_make_scheduler(config, log):
    """``make test`` (``--dist loadscope --no-loadscope-reorder``): each work unit stays on one worker, so a
    module's fixtures are made once, and the units are handed out in the order collected (below).

    pytest-xdist's ``loadgroup`` would do it by marks, but it renames the tests to carry them, which pytest 9
    no longer allows: every test would go to any worker on its own (pytest-xdist issue 1386, open)."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByWorkUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return work_unit(nodeid)

    return ByWorkUnit(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """The :data:`EXTENDED` tests are marked ``extended`` (before ``-m`` selects), the ``sandbox_alone`` modules come
    first, so that the other workers run the modules without a sandbox meanwhile; the ``sandbox`` modules come last;
    the longest modules first of their kind, in ``LONGEST``'s order."""
    for item in items:
        if extended(item.nodeid):
            item.add_marker(pytest.mark.extended)
        module = item.getparent(pytest.Module)
        if module.path.name in SANDBOX_ALONE and not module.get_closest_marker("sandbox_alone"):
            module.add_marker(pytest.mark.sandbox_alone)

    def rank(item):
        kind = 0 if item.get_closest_marker("sandbox_alone") else 2 if item.get_closest_marker("sandbox") else 1
        name = item.path.name
        return kind, LONGEST.index(name) if name in LONGEST else len(LONGEST)

    items.sort(key=rank)


@pytest.fixture(scope="module", autouse=True)
def sandboxes_apart(request):
    """Under pytest-xdist (``make test``), a module marked ``sandbox_alone`` runs while no ``sandbox`` module
    runs; ``sandbox`` modules run side by side."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    alone = request.node.get_closest_marker("sandbox_alone") is not None
    if run is None or not (alone or request.node.get_closest_marker("sandbox")):
        yield
        return
    with open(pathlib.Path(tempfile.gettempdir()) / f"self-attention-kit-tests-{run}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        yield


@pytest.fixture(scope="session")
def kernels():
    """Config for the Jupyter kernels a test starts: on Unix sockets in a short folder of this worker's, not on TCP
    ports that another test's connection may take first (``tests/ports.py``)."""
    with tempfile.TemporaryDirectory(prefix="kit-kernels-") as folder:
        yield ports.kernel_config(folder)


@pytest.fixture(scope="session")
def root():
    return ROOT


def made_once(tmp_path_factory, name, make):
    """What ``make(folder)`` returns (a path in ``folder``), made once for the whole run: under pytest-xdist, by
    the first worker that needs it, in the run's folder that every worker shares, while the others wait for it."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return make(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent / name
    with open(shared.with_name(f"{name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = shared / ".made"
        if not made.exists():
            shutil.rmtree(shared, ignore_errors=True)
            shared.mkdir()
            made.write_text(str(make(shared).relative_to(shared)))
        return shared / made.read_text()


@pytest.fixture(scope="session")
def released_course(tmp_path_factory):
    """The kit's course released once for the run, with test limits; never changed: copy it
    (``course_builder.make_course``, or the ``course_copy`` fixture)."""
    from . import course_builder

    return made_once(tmp_path_factory, "released", lambda folder: course_builder.release_course(folder / "course"))


@pytest.fixture(scope="session")
def student_release(tmp_path_factory):
    """A course released once for the run by the kit's ``release`` (its ``downloads/``: the student wheel and zip),
    from the kit's solutions and config; never changed."""

    def release_with_downloads(folder):
        from grader.release import release

        course = folder / "course"
        course.mkdir()
        shutil.copy(ROOT / "nbgrader_config.py", course)
        shutil.copytree(SOLUTIONS, course / "solutions" / "self_attention")
        release(course, "self_attention")
        return course

    return made_once(tmp_path_factory, "student_release", release_with_downloads)


@pytest.fixture
def course_copy(released_course, tmp_path):
    """A released course of this test's own."""
    from . import course_builder

    return course_builder.make_course(released_course, tmp_path / "course")


@pytest.fixture(scope="session")
def empty_gradebook(tmp_path_factory):
    """A new, empty gradebook file made once for the run: copy it to a course's gradebook.db."""
    from . import course_builder

    return made_once(tmp_path_factory, "gradebook", course_builder.empty_gradebook)
