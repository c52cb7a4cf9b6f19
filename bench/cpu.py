"""CPU seconds of a command's whole process tree, the processes that ended included (the grading processes, the
warm workers and their sandboxes): a cpuacct cgroup made for the command (cgroup v1, as root), else None."""
import contextlib
import os
import pathlib
import time

PREFIX = "attention-kit-bench-cpu-"


def _cpuacct_root():
    for line in pathlib.Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpuacct" in controllers.split(","):
            return pathlib.Path("/sys/fs/cgroup/cpuacct") / path.lstrip("/")
    return None


class CpuGroup:
    """A cpuacct cgroup for one command: ``enter`` (in a preexec_fn) puts the new process in it; ``seconds``."""

    def __init__(self):
        parent, self.folder = _cpuacct_root(), None
        if parent is not None:
            folder = parent / f"{PREFIX}{os.getpid()}-{time.monotonic_ns()}"
            with contextlib.suppress(OSError):
                folder.mkdir()
                self.folder = folder

    def enter(self):
        if self.folder is not None:
            with contextlib.suppress(OSError):
                (self.folder / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self):
        if self.folder is None:
            return None
        try:
            return int((self.folder / "cpuacct.usage").read_text()) / 1e9
        except (OSError, ValueError):
            return None

    def remove(self):
        if self.folder is not None:
            for _ in range(50):  # a process of the tree that is still ending keeps the group
                with contextlib.suppress(OSError):
                    self.folder.rmdir()
                    return
                time.sleep(0.1)
