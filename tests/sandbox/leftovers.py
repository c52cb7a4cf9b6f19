"""What a graded class may not leave on the machine: processes of its grader's, or of the user its sandboxes ran as,
a shared memory segment, the scribbler's probe files."""

import contextlib
import ctypes
import os
import pathlib
import signal
import subprocess
import time

import psutil

from .attacks import PROBE_FILE, SHM_KEY

PR_SET_CHILD_SUBREAPER = 36


def processes_of(uid, seconds=10):
    """The processes of ``uid`` still there after up to ``seconds`` (one that is exiting gets that long to go),
    each with its parent's command line, to tell whose it is."""
    deadline = time.monotonic() + seconds
    while True:
        left = [
            p.info
            for p in psutil.process_iter(["pid", "ppid", "uids", "cmdline", "status"])
            if p.info["uids"] and p.info["uids"].real == uid
        ]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    for info in left:
        try:
            info["parent"] = psutil.Process(info["ppid"]).cmdline()
        except psutil.Error:
            info["parent"] = None
    return left


def still_running(processes, seconds=10):
    """Those of ``processes`` that still run after up to ``seconds``: neither gone nor a zombie (a zombie runs
    nothing and holds no memory; its new parent reaps it), each as its pid, user id and command line."""
    deadline = time.monotonic() + seconds
    while True:
        left = []
        for process in processes:
            try:
                if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                    left.append((process.pid, process.uids().real, process.cmdline()))
            except psutil.NoSuchProcess:
                pass
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@contextlib.contextmanager
def orphans_adopted(seconds=10):
    """Within the block, what a child of this process leaves behind when it exits becomes this process's child
    (Linux's child subreaper), not init's, so that it is known to be the block's and no other test's. Yields a
    list that the block's end fills with those of them still running after up to ``seconds`` (pid, user id,
    command line); they are then killed, and every one of them reaped."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    before = {child.pid for child in psutil.Process().children()}
    left = []
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield left
    finally:
        prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        orphans = [child for child in psutil.Process().children() if child.pid not in before]
        left.extend(still_running([p for orphan in orphans for p in tree(orphan)], seconds))
        for pid, _, _ in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for orphan in orphans:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(orphan.pid, 0)


def tree(process):
    """``process`` (a :class:`psutil.Process`) and every process below it now, or nothing if it is gone."""
    try:
        return [process, *process.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _shm_keys():
    lines = pathlib.Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    return {int(line.split()[0]) for line in lines}


def leftovers(home, course):
    """(whether the shared memory attack's segment is left, the probe files left), both removed."""
    shared_memory_left = SHM_KEY in _shm_keys()
    if shared_memory_left:
        subprocess.run(["ipcrm", "-M", str(SHM_KEY)])
    probes = [pathlib.Path(folder, PROBE_FILE) for folder in ("/run/lock", "/var/lock", "/dev/mqueue", home, course)]
    left = [p for p in probes if p.exists()]
    for path in left:
        path.unlink()
    return shared_memory_left, left
