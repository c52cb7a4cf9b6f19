"""The warm worker: heavy imports done once, a fresh isolated process forked for each notebook.

It reads jobs from stdin and writes results to stdout (length-prefixed JSON). It never runs
student code itself: each job runs in a forked child inside new namespaces, as nobody, in a
cgroup, and the worker watches it from outside. When the child dies or hangs, the worker
starts a new one that skips what killed the last, so the rest of the notebook is still graded.
"""
import os
import select
import signal
import sys
import time

from . import isolation, levels, protocol
from .cgroup import Cgroup

MAX_JOB_BYTES = 64 << 20
GRACE_SECONDS = 2.0
MAX_RESTARTS = 8


def warm_up():
    """Import and exercise what notebooks use, so that a forked child starts ready."""
    os.environ["MPLBACKEND"] = "Agg"
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy  # noqa: F401
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(1)
    x = torch.randn(2, 3, 4)
    F.softmax(x @ x.transpose(-2, -1), dim=-1)
    F.scaled_dot_product_attention(x, x, x, is_causal=True)
    torch.nn.MultiheadAttention(4, 2, batch_first=True)(x, x, x)
    fig, ax = plt.subplots(squeeze=False)
    fig.colorbar(ax[0, 0].imshow(numpy.eye(3)), ax=ax)
    plt.close("all")
    from . import runner  # noqa: F401 (imported here, so that every forked child has it)


class Run:
    """One forked attempt at a job: its events, and how it ended."""

    def __init__(self):
        self.events, self.current, self.ended, self.died = [], None, False, None


def _child(job, skip, write_fd, zygote):
    """In the fork: wall it in at the worker's isolation level (see levels.py), then run the job."""
    from .runner import run_job
    isolation.die_with_parent(zygote)
    isolation.isolate_fds(write_fd)
    levels.enter(job)
    for _ in range(2):  # PID 1 of the namespace only waits: the kernel spares an init from its own faults
        parent = os.getpid()
        pid = os.fork()
        if pid:
            _, status = os.waitpid(pid, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        isolation.die_with_parent(parent)
    levels.seal(job)
    run_job(job, skip, lambda event: protocol.write(write_fd, event))
    os._exit(0)


def attempt(job, skip, deadline, name):
    """Fork one sandbox for ``job`` and follow its events until it finishes, dies or runs out of time."""
    limits = job["limits"]
    group = Cgroup(name, limits["memory_bytes"], limits["processes"])
    read_fd, write_fd = os.pipe()
    zygote = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            group.add(os.getpid())
            _child(job, skip, write_fd, zygote)
        finally:
            os._exit(70)
    os.close(write_fd)
    run, buffer = Run(), protocol.MessageBuffer(MAX_JOB_BYTES)
    unit_deadline = time.monotonic() + limits["unit_seconds"] + GRACE_SECONDS
    oom_before = group.oom_kills()
    try:
        while not run.ended:
            now = time.monotonic()
            if now > min(deadline, unit_deadline):
                run.died = "timeout"
                break
            ready, _, _ = select.select([read_fd], [], [], min(deadline, unit_deadline) - now)
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                break
            for event in buffer.feed(chunk):
                run.events.append(event)
                if event.get("event") == "start":
                    run.current = event.get("unit")
                    unit_deadline = time.monotonic() + limits["unit_seconds"] + GRACE_SECONDS
                elif event.get("event") == "end":
                    run.current = None
                elif event.get("event") == "done":
                    run.ended = True
    except protocol.ProtocolError as error:
        run.died = f"error: {error}"
    finally:
        os.close(read_fd)
        group.kill_all()
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        if not run.ended and run.died is None:
            run.died = "memory" if group.oom_kills() > oom_before else "crashed"
        group.remove()
    return run


def supervise(job, name):
    """Run a job to the end: each unit that kills its sandbox is skipped with its reason next time."""
    started = time.monotonic()
    deadline = started + job["limits"]["notebook_seconds"]
    skip, restarts = {}, 0
    while True:
        run = attempt(job, skip, deadline, f"{name}-{restarts}")
        if run.ended or run.current is None or restarts >= MAX_RESTARTS or time.monotonic() >= deadline:
            break
        skip[run.current] = run.died
        restarts += 1
    status = "graded" if run.ended else (run.died or "crashed")
    if not run.ended and time.monotonic() >= deadline:
        status = "timeout"
    return {"status": status, "skipped": skip, "events": [e for e in run.events if e.get("event") == "end"],
            "restarts": restarts, "unfinished": None if run.ended else run.current,
            "seconds": round(time.monotonic() - started, 3)}


def self_test():
    """Run a tiny job: None when the sandbox works here, else why not (no root, no namespaces...)."""
    job = {"cells": [[0, "x = 1"]], "exercises": [], "hide": [],
           "limits": {"memory_bytes": 1 << 30, "processes": 16, "unit_seconds": 10, "notebook_seconds": 20,
                      "output_chars": 1000, "file_bytes": 1 << 20, "tmp_bytes": 1 << 20}}
    result = supervise(job, f"attention-kit-{os.getpid()}-selftest")
    return None if result["status"] == "graded" else (
        f"the sandbox cannot start on this machine: a test job at isolation level {levels.describe()!r} "
        f"ended as '{result['status']}'")


def main():
    isolation.die_with_parent(os.getppid())
    warm_up()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    _, problem = levels.choose(sys.argv[1] if len(sys.argv) > 1 else "auto")
    problem = problem or self_test()
    protocol.write(stdout, {"ready": problem is None, "error": problem, "pid": os.getpid(),
                            "isolation": levels.describe()})
    if problem:
        return
    serial = 0
    while True:
        try:
            job = protocol.read(stdin, MAX_JOB_BYTES)
        except protocol.ProtocolError:
            return
        serial += 1
        protocol.write(stdout, supervise(job, f"attention-kit-{os.getpid()}-{serial}"))


if __name__ == "__main__":
    main()
