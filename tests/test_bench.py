"""The benchmark scripts still run, on a class small enough for CI (their figures are not asserted), and the
memory they report is measured."""

import json
import subprocess
import sys

import psutil
import pytest

from bench import autograde_speed as speed
from bench.cpu import CpuGroup
from bench.memory import MemoryGroup, TreeSampler

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

HOLDS_64_MIB = "import time\nblock = bytearray(64 << 20)\ntime.sleep(1.5)"
# A parent that spins for a second in a child it forks, then for a second itself: two CPU seconds in the tree.
SPINS_IN_A_CHILD = """import os, time
def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
pid = os.fork()
if pid == 0:
    spin(1.0)
    os._exit(0)
os.waitpid(pid, 0)
spin(1.0)
"""


def test_benchmark_runs_on_a_tiny_class(capsys, monkeypatch, tmp_path):
    """One student, one notebook: the fewest the script takes (one notebook graded by stock nbgrader, then by the kit
    with 1 and with 2 workers, as the lines below say). Only a run of its own samples the processes' memory: the
    sampling slows the processes it reads (2-worker runs of 40 students in turn: 76 and 77 s unsampled, 87 and 89 s
    sampled). The run appends its record to the results file it is given (bench/results.py), not to the kit's."""
    sampled = []

    class Recorded(TreeSampler):
        def __init__(self, pid, *args, **kwargs):
            sampled.append(psutil.Process(pid).cmdline())
            super().__init__(pid, *args, **kwargs)

    monkeypatch.setattr(speed, "TreeSampler", Recorded)
    results = tmp_path / "results.jsonl"
    assert speed.main(["--students", "1", "--notebooks", "01_attention_basics.ipynb", "--results", str(results)]) == 0
    printed = capsys.readouterr().out
    for line in (
        "stock nbgrader autograde (sequential)",
        "kit autograde, 2 workers",
        "ratio kit",
        "PSS summed",
        "RSS summed",
        "peak: cgroup",
        "CPU ",
        "grades agree: yes",
        "kept outputs the same (from run to run): yes",
        "kit autograde, 2 workers, its processes' memory sampled",
    ):
        assert line in printed
    assert [command[-3:] for command in sampled] == [["--force", "--workers", "2"]]
    [entry] = [json.loads(line) for line in results.read_text().splitlines()]
    assert entry["benchmark"] == "autograde_speed" and entry["cores"] >= 1 and entry["import_torch_s"] > 0
    assert entry["figures"]["notebooks"] == 1 and entry["figures"]["grades_agree"] is True


def test_the_memory_a_process_holds_is_counted_by_pss_and_by_its_cgroup():
    group = MemoryGroup()
    process = subprocess.Popen([sys.executable, "-c", HOLDS_64_MIB], preexec_fn=group.enter)
    sampler = TreeSampler(process.pid, interval=0.05)
    process.wait()
    sampler.stop()
    peak = group.peak()
    group.remove()
    assert sampler.peak_pss >= 64 << 20 and sampler.peak_rss >= sampler.peak_pss
    if group.folder is not None:  # a cgroup could be made here (as root, or in a delegated group)
        assert peak >= 64 << 20


def test_the_cpu_of_a_process_tree_counts_the_children_that_ended():
    group = CpuGroup()
    subprocess.run([sys.executable, "-c", SPINS_IN_A_CHILD], preexec_fn=group.enter, check=True)
    seconds = group.seconds()
    group.remove()
    if group.folder is not None:  # a cpuacct cgroup could be made here (cgroup v1, as root)
        assert 2.0 <= seconds < 3.5
