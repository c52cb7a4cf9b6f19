"""The grader's side of the sandbox: warm workers started once, each job run on a free one."""
import os
import queue
import subprocess
import sys
import threading

from . import protocol

MAX_RESULT_BYTES = 256 << 20


class WorkerDied(Exception):
    """A warm worker stopped answering; its job is retried on a new worker."""


class SandboxUnavailable(RuntimeError):
    """The machine cannot run the sandbox: grading stops rather than record wrong zeros."""


class Worker:
    """One warm worker process (see zygote.py) and its pipes."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "grader.sandbox.zygote"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env={**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"})
        self.isolation = None

    def run(self, job):
        try:
            if self.isolation is None:
                hello = protocol.read(self.process.stdout.fileno(), 1 << 12)
                if not hello.get("ready"):
                    raise SandboxUnavailable(hello.get("error"))
                self.isolation = hello.get("isolation", "root")
            protocol.write(self.process.stdin.fileno(), job)
            self.process.stdin.flush()
            return {**protocol.read(self.process.stdout.fileno(), MAX_RESULT_BYTES), "isolation": self.isolation}
        except (OSError, protocol.ProtocolError) as error:
            raise WorkerDied(str(error)) from None

    def close(self):
        self.process.kill()
        self.process.wait()


class Pool:
    """Warm workers, one per core by default, started when first needed."""

    def __init__(self, workers=None):
        self.size = workers or os.cpu_count() or 1
        self.idle = queue.Queue()
        self.started = []
        self.lock = threading.Lock()

    def _take(self):
        with self.lock:
            if self.idle.empty() and len(self.started) < self.size:
                worker = Worker()
                self.started.append(worker)
                return worker
        return self.idle.get()

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
