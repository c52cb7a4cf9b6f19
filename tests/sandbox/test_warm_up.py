"""The warm worker prints tensors and shows a traceback before any sandbox is forked (zygote.WARM_CELL), so that no
sandbox pays for them; a notebook still starts as in a fresh kernel, and its tracebacks are its own. Its memory is
gathered into huge pages before the first fork (grader/sandbox/hugepages.py)."""

import pathlib
import platform
import re

import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grader.autograde.jobs import build_job
from grader.sandbox.pool import Pool, start_workers

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

FIRST = (
    "import sys\nprint(sorted(n for n in ('last_type', 'last_value', 'last_traceback') if hasattr(sys, n)))\n"
    "print('warm' in dir(), any(cell.startswith('import numpy, torch') for cell in In))"
)
FAILS = "def mine(x):\n    return x.nothing\nmine(1)"


@pytest.fixture(scope="module")
def units(tmp_path_factory):
    job, _ = build_job(
        new_notebook(cells=[new_code_cell(FIRST), new_code_cell(FAILS)]), tmp_path_factory.mktemp("course")
    )
    pool = Pool(1, "none")
    try:
        return pool.run(job)["units"]
    finally:
        pool.close()


def test_the_first_cell_finds_no_error_no_name_and_no_history_of_the_warm_up(units):
    first = units[0]
    assert first["status"] == "ok" and first["count"] == 1
    assert "".join(o["text"] for o in first["outputs"]) == "[]\nFalse False\n"


def test_a_traceback_shows_the_students_cell_only(units):
    error = units[1]["outputs"][-1]
    assert error["ename"] == "AttributeError" and units[1]["count"] == 2
    shown = "\n".join(error["traceback"])
    assert "mine(1)" in shown and "x.nothing" in shown and "warm" not in shown


def _anon_huge_kib(pid):
    rollup = pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text()
    return int(re.search(r"^AnonHugePages:\s+(\d+) kB", rollup, re.M).group(1))


THP = pathlib.Path("/sys/kernel/mm/transparent_hugepage/enabled")
HUGE_PAGES_OFFERED = (
    tuple(map(int, re.findall(r"\d+", platform.release())[:2])) >= (6, 1)  # MADV_COLLAPSE
    and THP.exists()
    and "[never]" not in THP.read_text()
)


@pytest.mark.skipif(not HUGE_PAGES_OFFERED, reason="needs Linux 6.1 (MADV_COLLAPSE) with transparent huge pages on")
def test_the_warm_worker_holds_its_memory_in_huge_pages_so_each_sandbox_forks_cheaply():
    (worker,) = start_workers("none")
    try:
        worker.start()
        assert _anon_huge_kib(worker.pid) >= 64 << 10  # about 150 MiB of its ~180 MiB here; none before
    finally:
        worker.close()
