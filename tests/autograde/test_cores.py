"""How many students ``autograde`` grades at once by default: one per core this process may use. Its CPU affinity
(``taskset``, a container's cpuset) and its cgroup's CPU quota (``docker run --cpus``, a Kubernetes CPU limit)
count: a hub's grader allowed 2 cores of a 64-core machine starts 2 warm workers, not 64 (a 2-worker run of the
benchmark peaks at about 880 MiB)."""
import os
import subprocess
import sys

import pytest

from bench.cgroups import enter, made_under, removed
from grader.sandbox import cgroup

from ..course_builder import submission, submit

PRINT_CORES = "from grader.sandbox.cgroup import usable_cores; print(usable_cores())"


@pytest.mark.slow
@pytest.mark.sandbox
def test_autograde_grades_as_many_students_at_once_as_its_cpu_affinity_allows(course_copy):
    """Two students, one core: one worker. Without a limit, the attack suite's class is graded on every core
    (tests/sandbox/test_sandbox_attacks.py)."""
    for student in ("ada", "bo"):
        submit(course_copy, student, submission(course_copy))
    first_core = {min(os.sched_getaffinity(0))}
    done = subprocess.run([sys.executable, "-m", "grader", "autograde", "--course", str(course_copy)],  # no --workers
                          preexec_fn=lambda: os.sched_setaffinity(0, first_core), capture_output=True, text=True,
                          timeout=600)
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
        said = subprocess.run([sys.executable, "-c", PRINT_CORES], preexec_fn=lambda: enter(inside),
                              capture_output=True, text=True, timeout=60, check=True)
    finally:
        removed(limited)  # and the group inside it
    assert int(said.stdout) == min(cores, len(os.sched_getaffinity(0)))


@pytest.mark.parametrize("above, own, cores", [("50000 100000", "max 100000", 1), ("max 100000", "150000 100000", 2),
                                               (None, "max 100000", None)])
def test_a_cgroup_v2_quota_is_read_up_the_processs_own_groups(tmp_path, monkeypatch, above, own, cores):
    """cgroup v2's ``cpu.max`` ("<quota> <period>", or "max <period>": no quota), read from folders laid out as the
    unified hierarchy lays them out: no test here can set one in a real group (this machine's cpu controller is v1)."""
    folder = tmp_path / "pod" / "container"
    folder.mkdir(parents=True)
    (folder / "cpu.max").write_text(own + "\n")
    if above is not None:
        (folder.parent / "cpu.max").write_text(above + "\n")
    monkeypatch.setattr(cgroup, "_v1_path", lambda controller: None)
    monkeypatch.setattr(cgroup, "_v2_own", lambda: (tmp_path, folder))
    affinity = len(os.sched_getaffinity(0))
    assert cgroup.usable_cores() == (affinity if cores is None else min(cores, affinity))
