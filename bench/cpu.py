"""CPU seconds of a command's whole process tree, the processes that ended included (the grading processes, the
warm workers and their sandboxes): a cpuacct cgroup made for the command (cgroup v1, as root), else None."""

import pathlib

from .cgroups import enter, made_under, removed


def _cpuacct_root():
    for line in pathlib.Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpuacct" in controllers.split(","):
            return pathlib.Path("/sys/fs/cgroup/cpuacct") / path.lstrip("/")
    return None


class CpuGroup:
    """A cpuacct cgroup for one command: ``enter`` (in a preexec_fn) puts the new process in it; ``seconds``."""

    def __init__(self):
        self.folder = made_under(_cpuacct_root())

    def enter(self):
        enter(self.folder)

    def seconds(self):
        if self.folder is None:
            return None
        try:
            return int((self.folder / "cpuacct.usage").read_text()) / 1e9
        except (OSError, ValueError):
            return None

    def remove(self):
        removed(self.folder)
