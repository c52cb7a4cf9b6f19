"""The grader's side of the sandbox: warm workers started once, each job run on a free one."""
import contextlib
import os
import pathlib
import queue
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
    return {**kept, "HOME": folder, "TMPDIR": folder, "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
            "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "GLIBC_TUNABLES": HUGE_HEAP}


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


class Worker:
    """One warm worker process (see zygote.py) and its pipes, at ``isolation`` ('auto' or a level)."""

    def __init__(self, isolation="auto"):
        self.folder = worker_folder()
        self.process = subprocess.Popen([sys.executable, "-m", "grader.sandbox.zygote", isolation],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        cwd=pathlib.Path(__file__).resolve().parents[2],
                                        env=worker_environment(self.folder))
        self.setting, self.isolation = isolation, None

    def start(self):
        """Wait for the worker's hello: its isolation level, or why the sandbox cannot start here."""
        if self.isolation is None:
            try:
                hello = protocol.read(self.process.stdout.fileno(), 1 << 14)
            except (OSError, protocol.ProtocolError) as error:
                raise WorkerDied(str(error)) from None
            if not hello.get("ready"):
                raise SandboxUnavailable(hello.get("error"))
            self.isolation = hello.get("isolation")

    def run(self, job):
        self.start()
        try:
            protocol.write(self.process.stdin.fileno(), job)
            self.process.stdin.flush()
            return {**protocol.read(self.process.stdout.fileno(), MAX_RESULT_BYTES), "isolation": self.isolation}
        except (OSError, protocol.ProtocolError) as error:
            raise WorkerDied(str(error)) from None

    def close(self):
        self.process.kill()
        self.process.wait()  # in a process that adopted it (grader.worker.adopt_sandbox), its parent reaps it
        levels.remove_tree(self.folder)

    def forget(self):
        """Close this process's copies of the worker's pipes, leaving the worker to the process it belongs to."""
        self.process.stdin.close()
        self.process.stdout.close()


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
                worker = Worker(self.isolation)
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
