"""Warm workers started together come from one warm-up (grader/sandbox/zygote.py): the second and later cost a fork,
not another PyTorch import, and each is still a worker of its own: its own folder, its own sandboxes, its own end."""

import os

import psutil
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grader.autograde.jobs import build_job
from grader.sandbox.pool import start_workers

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

WHERE = "import os\nprint(os.getcwd())"


@pytest.fixture
def job(tmp_path):
    job, _ = build_job(new_notebook(cells=[new_code_cell(WHERE)]), tmp_path)
    return job


def _printed(result):
    (unit,) = result["units"]
    assert unit["status"] == "ok", unit
    return "".join(output["text"] for output in unit["outputs"]).strip()


def _cpu_seconds(pid):
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


def _gone(pid):
    """Exited: no such process, or a zombie that its new parent has not reaped yet."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_workers_started_together_share_one_warm_up_and_each_has_its_own_folder(job):
    workers = start_workers("none", 2)
    try:
        for worker in workers:
            worker.start()
        warm_up = psutil.Process(workers[0].warm_up.pid)
        assert warm_up.ppid() == os.getpid()
        assert {psutil.Process(worker.pid).ppid() for worker in workers} == {warm_up.pid}
        assert all(_cpu_seconds(worker.pid) < _cpu_seconds(warm_up.pid) / 3 for worker in workers)
        scratch = [_printed(worker.run(job)) for worker in workers]
        assert [os.path.dirname(path) for path in scratch] == [worker.folder for worker in workers]
    finally:
        for worker in workers:
            worker.close()


def test_a_worker_closed_leaves_its_sibling_working_and_the_last_close_ends_the_family(job):
    first, second = start_workers("none", 2)
    try:
        first.start()
        second.start()
        closer = os.fork()
        if closer == 0:  # as a grading process closes the worker it adopted (grader.sandbox.worker.adopt_sandbox)
            first.close()
            os._exit(0)
        assert os.waitstatus_to_exitcode(os.waitpid(closer, 0)[1]) == 0
        assert _gone(first.pid)
        assert _printed(second.run(job)).startswith(second.folder)
    finally:
        second.close()
        first.close()
    assert second.warm_up.returncode is not None and _gone(second.pid)
    assert not os.path.exists(first.folder) and not os.path.exists(second.folder)
