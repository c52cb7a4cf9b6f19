"""The grader's side of the sandbox: warm workers started once, each job run on a free one."""

import contextlib
import fcntl
import os
import pathlib
import queue
import select
import signal
import subprocess
import sys
import tempfile
import threading

from . import levels, protocol
from .cgroup import usable_cores

MAX_RESULT_BYTES = 256 << 20
# glibc (2.35 and later) asks the kernel for 2 MiB pages for the worker's heap as it grows: a fork copies one
# page-table entry per 2 MiB of it instead of 512 (see hugepages.py). Other C libraries ignore it.
HUGE_HEAP = "glibc.malloc.hugetlb=1"


class WorkerDied(Exception):
    """A warm worker stopped answering; its job is retried on a new worker."""


class SandboxUnavailable(RuntimeError):
    """The machine cannot run the sandbox: grading stops rather than record wrong zeros."""


WORKER_FOLDER = "attention-kit-worker-"


def worker_environment(folder):
    """All a worker inherits: nothing of the grader's environment reaches a sandbox, not even
    through /proc/self/environ."""
    kept = {name: os.environ[name] for name in ("PATH", "PYTHONPATH") if name in os.environ}
    return {
        **kept,
        "HOME": folder,
        "TMPDIR": folder,
        "LANG": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "GLIBC_TUNABLES": HUGE_HEAP,
    }


def worker_folder():
    """A private temporary folder for a new worker, named after this grader; the folders of graders
    that were killed before they could remove theirs are removed first."""
    root = pathlib.Path(tempfile.gettempdir())
    for old in root.glob(WORKER_FOLDER + "*"):
        pid = old.name.removeprefix(WORKER_FOLDER).split("-")[0]
        with contextlib.suppress(FileNotFoundError):  # another grader starting now may remove it first
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}") and old.stat().st_uid == os.getuid():
                levels.remove_tree(old)
    return tempfile.mkdtemp(prefix=f"{WORKER_FOLDER}{os.getpid()}-")


def start_workers(isolation="auto", count=1):
    """``count`` warm workers (see zygote.py) at ``isolation`` ('auto' or a level), forked from one process that
    imports and warms up once for all of them: the second and later cost a fork, not another PyTorch import."""
    return WarmUp(count).workers(isolation, count)


class WarmUp:
    """The process that imports and warms up once for up to ``most`` workers (zygote.py), started now with their
    pipes and folders: it warms up while this process goes on (to learn its course's isolation setting and how
    many students it has), then forks the workers that :meth:`workers` asks for."""

    def __init__(self, most):
        self.most = most
        self.folders = [worker_folder() for _ in range(most)]
        self.pipes = [(_pipe(), _pipe()) for _ in range(most)]  # each worker's jobs in, its results out
        theirs = [fd for (jobs, _), (_, results) in self.pipes for fd in (jobs, results)]
        arguments = []
        for ((jobs, _), (_, results)), folder in zip(self.pipes, self.folders):
            arguments += [str(jobs), str(results), folder]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grader.sandbox.zygote", *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=theirs,
            cwd=pathlib.Path(__file__).resolve().parents[2],
            env=worker_environment(self.folders[0]),
        )
        for fd in theirs:
            os.close(fd)

    def workers(self, isolation, count):
        """The first ``count`` of its workers, at ``isolation``: forked once the warm-up is done. The pipes and
        folders of the others are given up."""
        with contextlib.suppress(OSError):  # it has died: each worker's hello says so (Worker.start)
            protocol.write(self.process.stdin.fileno(), {"isolation": isolation, "count": count})
        self.process.stdin.close()
        self._give_up(count)
        return [
            Worker(isolation, self.process, os.fdopen(jobs, "wb"), os.fdopen(results, "rb"), folder)
            for ((_, jobs), (results, _)), folder in zip(self.pipes[:count], self.folders[:count])
        ]

    def close(self):
        """Stop a warm-up that no worker was asked of."""
        self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        self._give_up(0)

    def _give_up(self, kept):
        for ((_, jobs), (results, _)), folder in zip(self.pipes[kept:], self.folders[kept:]):
            os.close(jobs)
            os.close(results)
            levels.remove_tree(folder)


def _pipe():
    """A pipe whose ends are not 0, 1 or 2 (taken when this process runs with one of them closed): the warm-up
    process's own standard streams would replace them."""
    ends = []
    for fd in os.pipe():
        if fd <= 2:
            fd, low = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3), fd
            os.close(low)
        ends.append(fd)
    return tuple(ends)


class Worker:
    """One warm worker process and its pipes, forked by ``warm_up`` (the process that :func:`start_workers`
    started): ``pid`` is known from its hello."""

    def __init__(self, setting, warm_up, jobs, results, folder):
        self.setting, self.isolation, self.pid, self._pidfd = setting, None, None, None
        self.warm_up, self.jobs, self.results, self.folder = warm_up, jobs, results, folder
        self.owner = os.getpid()  # the process that started warm_up, the only one to stop it

    def start(self):
        """Wait for the worker's hello: its isolation level, or why the sandbox cannot start here."""
        if self.isolation is None:
            try:
                hello = protocol.read(self.results.fileno(), 1 << 14)
            except (OSError, protocol.ProtocolError) as error:
                raise WorkerDied(str(error)) from None
            self.pid = hello.get("pid")
            self._pidfd = _child_of(self.pid, self.warm_up.pid)
            if not hello.get("ready"):
                raise SandboxUnavailable(hello.get("error"))
            self.isolation = hello.get("isolation")

    def run(self, job):
        self.start()
        try:
            protocol.write(self.jobs.fileno(), job)
            return {**protocol.read(self.results.fileno(), MAX_RESULT_BYTES), "isolation": self.isolation}
        except (OSError, protocol.ProtocolError) as error:
            raise WorkerDied(str(error)) from None

    def close(self):
        """Kill the worker and wait until it is gone; in the process that started them, kill its warm-up process
        too, and with it the workers it forked that no one closed."""
        if self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            select.select([self._pidfd], [], [], 10)  # readable once the worker has exited
            os.close(self._pidfd)
            self._pidfd = None
        if os.getpid() == self.owner:
            self.warm_up.kill()
            self.warm_up.wait()
        self.forget()
        levels.remove_tree(self.folder)

    def forget(self):
        """Close this process's copies of the worker's pipes, leaving the worker to the process it belongs to."""
        self.jobs.close()
        self.results.close()


def _child_of(pid, parent):
    """A pidfd for ``pid`` when it is a child of ``parent`` (so no other process that took a freed pid), else
    None."""
    if not isinstance(pid, int):
        return None
    with contextlib.suppress(OSError):
        pidfd = os.pidfd_open(pid)
        if f"\nPPid:\t{parent}\n" in pathlib.Path(f"/proc/{pid}/status").read_text():
            return pidfd
        os.close(pidfd)
    return None


class Pool:
    """Warm workers, one per core this process may use by default, started when first needed."""

    def __init__(self, workers=None, isolation="auto"):
        self.size, self.isolation = workers or usable_cores(), isolation
        self.idle = queue.Queue()
        self.started = []
        self.lock = threading.Lock()

    def _take(self):
        with self.lock:
            if self.idle.empty() and len(self.started) < self.size:
                (worker,) = start_workers(self.isolation)
                self.started.append(worker)
                return worker
        return self.idle.get()

    def start(self):
        """Start a worker now: raises SandboxUnavailable at once where the sandbox cannot run here."""
        worker = self._take()
        try:
            worker.start()
        except (SandboxUnavailable, WorkerDied):
            with self.lock:
                self.started.remove(worker)
            worker.close()
            raise
        self.idle.put(worker)
        return worker.isolation

    def run(self, job):
        """Run one job on a free worker; a worker that dies is replaced and the job tried once more."""
        for attempt in range(2):
            worker = self._take()
            try:
                result = worker.run(job)
            except WorkerDied:
                with self.lock:
                    self.started.remove(worker)
                worker.close()
                if attempt:
                    raise
                continue
            self.idle.put(worker)
            return result

    def close(self):
        for worker in self.started:
            worker.close()
        self.started.clear()
