"""Peak memory of a command's process tree, three ways: resident memory summed over the processes (what the
benchmark printed before: a page shared by several forks counts once per fork), proportional memory summed
(PSS: a shared page split among the processes that share it, so the tree's pages count once), and the peak of a
memory cgroup made for the command (what a container's limit counts, page cache included), where this machine
lets us make one (cgroup v1's memory controller or v2, writable: as root, or in a delegated group)."""

import contextlib
import pathlib
import threading

import psutil

from .cgroups import enter, made_under, removed


def _own_group():
    """(version, folder of this process's memory cgroup), or (None, None)."""
    for line in pathlib.Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return 1, pathlib.Path("/sys/fs/cgroup/memory") / path.lstrip("/")
    for line in pathlib.Path("/proc/self/cgroup").read_text().splitlines():
        number, _, path = line.split(":", 2)
        if number == "0":
            folder = pathlib.Path("/sys/fs/cgroup") / path.lstrip("/")
            if (folder / "memory.peak").exists() or (folder / "cgroup.controllers").exists():
                return 2, folder
    return None, None


class MemoryGroup:
    """A memory cgroup for one command: ``enter`` (a preexec_fn) puts the new process in it; ``peak`` in bytes."""

    def __init__(self):
        self.version, parent = _own_group()
        self.folder = made_under(parent)

    def enter(self):
        enter(self.folder)

    def peak(self):
        if self.folder is None:
            return None
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        try:
            return int((self.folder / name).read_text())
        except (OSError, ValueError):
            return None

    def remove(self):
        removed(self.folder)


class TreeSampler:
    """Samples a process tree's summed RSS and PSS every ``interval`` seconds, in a thread; keeps the peaks."""

    def __init__(self, pid, interval=0.2):
        self.root, self.interval = psutil.Process(pid), interval
        self.peak_rss = self.peak_pss = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.is_set():
            rss = pss = 0
            try:
                tree = [self.root] + self.root.children(recursive=True)
            except psutil.Error:
                return
            for process in tree:
                with contextlib.suppress(psutil.Error):
                    info = process.memory_full_info()
                    rss, pss = rss + info.rss, pss + info.pss
            self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)
            self.done.wait(self.interval)

    def stop(self):
        self.done.set()
        self.thread.join()
