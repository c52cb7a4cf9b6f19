"""``make test`` runs on every core and keeps each test module on one worker, so a module's fixtures (a
released course, a graded class, the students' environments) are made once and never by two workers at once."""

import re
import subprocess
import sys

import pytest

from .conftest import EXTENDED, ROOT, extended, work_unit

pytestmark = pytest.mark.slow


def make_test_distribution():
    """The pytest-xdist options of the Makefile's ``test`` target (its ``RUN_TESTS``)."""
    recipe = re.search(r"^RUN_TESTS := (.* -m pytest .*)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    return re.search(r"--dist \S+(?: --no-loadscope-reorder)?", recipe).group(0).split()


def make_test_selection():
    """The ``-m`` expression of the Makefile's ``test`` target."""
    return re.search(
        r'^test: test-ready\n\t\$\(RUN_TESTS\) -m "([^"]+)" tests$', (ROOT / "Makefile").read_text(), re.M
    ).group(1)


def collected(files, selection):
    """The ids of the tests of ``files`` that pytest selects with ``-m selection``."""
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", "-m", selection, *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode in (0, 5), run.stdout[-3000:]  # 5: none selected
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_make_test_leaves_out_exactly_the_extended_runs_and_each_entry_names_some():
    files = sorted({re.match(r"(tests/[\w/]+)\\\.py", pattern).group(1) + ".py" for pattern in EXTENDED})
    left_out = collected(files, f"not ({make_test_selection()})")
    kept = collected(files, make_test_selection())
    assert left_out and all(extended(nodeid) for nodeid in left_out)
    assert kept and not any(extended(nodeid) for nodeid in kept)
    assert all(any(re.match(pattern, nodeid) for nodeid in left_out) for pattern in EXTENDED)


def test_each_module_runs_on_one_worker():
    modules = ["tests/feedback/test_maths.py", "tests/test_course.py"]  # several tests each, fast, light to import
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-n",
            "2",
            *make_test_distribution(),
            "-v",
            "-m",
            "not slow",
            *modules,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    workers = {}
    for worker, module in re.findall(r"^\[(gw\d+)\] \[ *\d+%\] PASSED (tests/[\w/]+\.py)::", run.stdout, re.M):
        workers.setdefault(module, set()).add(worker)
    assert set(workers) == set(modules)
    assert all(len(ran_on) == 1 for ran_on in workers.values()), workers


def test_the_modules_that_need_the_machine_alone_share_one_unit():
    attacks, resilience = (
        "tests/sandbox/test_sandbox_attacks.py::test_x[a]",
        "tests/sandbox/test_grader_resilience.py::t",
    )
    assert work_unit(attacks) == work_unit(resilience) == "sandbox_alone"
    assert work_unit("tests/checks/test_policy.py::test_x") == "tests/checks/test_policy.py"
