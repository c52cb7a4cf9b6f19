"""How many students ``autograde`` grades at once by default: one per core this process may use, as many as fit in
the memory it may use. Its CPU affinity (``taskset``, a container's cpuset), its cgroup's CPU quota (``docker run
--cpus``, a Kubernetes CPU limit) and memory limit (``docker run --memory``) count: a hub's grader allowed 2 cores of
a 64-core machine starts 2 warm workers, not 64, and one allowed 1 GiB starts 2 (a 2-worker run of the benchmark
peaks at about 880 MiB)."""

import functools
import os
import subprocess
import sys

import pytest

from bench.cgroups import enter, made_under, removed
from grader.sandbox import cgroup

from ..course_builder import submission, submit

PRINT_CORES = "from grader.sandbox.cgroup import usable_cores; print(usable_cores())"


def memory_group(limit):
    """A new group of cgroup v1's memory controller under this process's own, holding ``limit`` bytes; None where
    none can be made."""
    group = made_under(cgroup._v1_path("memory"))
    if group is not None:
        (group / "memory.limit_in_bytes").write_text(str(limit))
    return group


@pytest.mark.slow
@pytest.mark.sandbox
@pytest.mark.parametrize("limit", ["one core", "Gradescope's 768 MB"])
def test_autograde_grades_as_many_students_at_once_as_its_cores_and_memory_allow(course_copy, limit):
    """Two students, one core or 768 MB: one worker. Without a limit, the attack suite's class is graded on every
    core (tests/sandbox/test_sandbox_attacks.py)."""
    for student in ("ada", "bo"):
        submit(course_copy, student, submission(course_copy))
    group = None
    if limit == "one core":
        limited = functools.partial(os.sched_setaffinity, 0, {min(os.sched_getaffinity(0))})
    else:
        group = memory_group(768 * 10**6)
        if group is None:
            pytest.skip("no group of cgroup v1's memory controller can be made here (it takes root, on cgroup v1)")
        limited = functools.partial(enter, group)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "grader", "autograde", "--course", str(course_copy)],  # no --workers
            preexec_fn=limited,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        removed(group)
    assert done.returncode == 0, done.stderr
    assert "recording grades with nbgrader (1 worker)" in done.stderr


def cpu_group(parent=None):
    """A new group of cgroup v1's cpu controller, under ``parent`` or this process's own group (where the kit reads
    quotas from); None where none can be made (not root, or cgroup v2 only)."""
    return made_under(parent if parent is not None else cgroup._v1_path("cpu"))


@pytest.mark.parametrize("quota, where, cores", [(50_000, "own", 1), (150_000, "own", 2), (50_000, "above", 1)])
def test_a_cpu_quota_counts_as_the_cores_it_pays_for_rounded_up(quota, where, cores):
    """A quota of 0.5 or 1.5 cores per period, on the process's own group or on the group above it."""
    limited = cpu_group()
    if limited is None:
        pytest.skip("no group of cgroup v1's cpu controller can be made here (it takes root, on cgroup v1)")
    inside = cpu_group(limited) if where == "above" else limited
    try:
        (limited / "cpu.cfs_period_us").write_text("100000")
        (limited / "cpu.cfs_quota_us").write_text(str(quota))
        said = subprocess.run(
            [sys.executable, "-c", PRINT_CORES],
            preexec_fn=lambda: enter(inside),
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    finally:
        removed(limited)  # and the group inside it
    assert int(said.stdout) == min(cores, len(os.sched_getaffinity(0)))


def v2_groups(tmp_path, monkeypatch, name, own, above):
    """This process's cgroup v2 group, as the kit reads it, made of folders laid out as the unified hierarchy lays
    them out: a group whose file ``name`` says ``own``, in a group whose file says ``above`` (None: no such file)."""
    folder = tmp_path / "pod" / "container"
    folder.mkdir(parents=True)
    (folder / name).write_text(own + "\n")
    if above is not None:
        (folder.parent / name).write_text(above + "\n")
    monkeypatch.setattr(cgroup, "_v1_path", lambda controller: None)
    monkeypatch.setattr(cgroup, "_v2_own", lambda: (tmp_path, folder))


@pytest.mark.parametrize(
    "above, own, cores",
    [("50000 100000", "max 100000", 1), ("max 100000", "150000 100000", 2), (None, "max 100000", None)],
)
def test_a_cgroup_v2_quota_is_read_up_the_processs_own_groups(tmp_path, monkeypatch, above, own, cores):
    """cgroup v2's ``cpu.max`` ("<quota> <period>", or "max <period>": no quota), read from folders laid out as the
    unified hierarchy lays them out: no test here can set one in a real group (this machine's cpu controller is v1)."""
    v2_groups(tmp_path, monkeypatch, "cpu.max", own, above)
    affinity = len(os.sched_getaffinity(0))
    assert cgroup.usable_cores() == (affinity if cores is None else min(cores, affinity))


PRINT_MEMORY = "from grader.sandbox.cgroup import usable_memory; print(usable_memory())"
MIB = 2**20


@pytest.mark.parametrize("where", ["own", "above"])
def test_a_memory_limit_on_the_processs_group_or_one_above_counts(where):
    """700 MiB on the process's own cgroup v1 memory group, or on the group above it."""
    limited = memory_group(700 * MIB)
    if limited is None:
        pytest.skip("no group of cgroup v1's memory controller can be made here (it takes root, on cgroup v1)")
    inside = made_under(limited) if where == "above" else limited
    try:
        said = subprocess.run(
            [sys.executable, "-c", PRINT_MEMORY],
            preexec_fn=lambda: enter(inside),
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    finally:
        removed(limited)
    assert int(said.stdout) == 700 * MIB


@pytest.mark.parametrize(
    "above, own, limit", [("734003200", "max", 700 * MIB), ("max", "1073741824", 1024 * MIB), (None, "max", None)]
)
def test_a_cgroup_v2_memory_limit_is_read_up_the_processs_own_groups(tmp_path, monkeypatch, above, own, limit):
    """cgroup v2's ``memory.max`` (bytes, or "max": no limit), from folders laid out as the unified hierarchy lays
    them out (this machine's memory controller is v1). No limit: the machine's memory."""
    v2_groups(tmp_path, monkeypatch, "memory.max", own, above)
    machine = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert cgroup.usable_memory() == (machine if limit is None else min(limit, machine))


@pytest.mark.parametrize(
    "cores, mib, workers",
    [(8, 768, 1), (8, 1024, 2), (8, 1536, 4), (2, 24 * 1024, 2), (64, 32 * 1024, 64), (4, 256, 1)],
)
def test_autograde_starts_a_worker_per_core_as_far_as_memory_holds_them(monkeypatch, cores, mib, workers):
    """Gradescope's 768 MB holds one worker (595 MiB measured), 1 GiB two (881 MiB); too little memory still
    grades, on one."""
    from grader.autograde import run

    monkeypatch.setattr(run, "usable_cores", lambda: cores)
    monkeypatch.setattr(run, "usable_memory", lambda: mib * MIB)
    assert run.default_workers() == workers
