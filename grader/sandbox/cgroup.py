"""A cgroup (v1 memory and pids controllers) per sandbox: a hard memory limit and a process count.

Where the machine has no writable cgroup, the sandbox runs without one and says so.
"""
import os
import pathlib
import signal
import time

CONTROLLERS = ("memory", "pids")


def _own_path(controller):
    for line in pathlib.Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            return pathlib.Path("/sys/fs/cgroup", controller) / path.lstrip("/")
    return None


class Cgroup:
    """One group of processes with a memory limit and a cap on how many there may be."""

    def __init__(self, name, memory_bytes, processes):
        self.dirs = {}
        for controller in CONTROLLERS:
            base = _own_path(controller)
            if base is None:
                continue
            path = base / name
            try:
                path.mkdir(exist_ok=True)
            except OSError:
                continue
            self.dirs[controller] = path
        self._write("memory", "memory.limit_in_bytes", memory_bytes)
        self._write("memory", "memory.memsw.limit_in_bytes", memory_bytes)
        self._write("pids", "pids.max", processes)

    @property
    def limits_memory(self):
        return "memory" in self.dirs

    def _write(self, controller, name, value):
        if controller in self.dirs:
            try:
                (self.dirs[controller] / name).write_text(str(value))
            except OSError:
                pass

    def add(self, pid):
        for controller in self.dirs:
            self._write(controller, "cgroup.procs", pid)

    def oom_kills(self):
        if "memory" not in self.dirs:
            return 0
        try:
            text = (self.dirs["memory"] / "memory.oom_control").read_text()
        except OSError:
            return 0
        fields = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
        return int(fields.get("oom_kill", 0))

    def pids(self):
        found = set()
        for path in self.dirs.values():
            try:
                found |= {int(p) for p in (path / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return found

    def kill_all(self):
        """SIGKILL every process in the group until none is left."""
        for _ in range(200):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.005)

    def remove(self):
        self.kill_all()
        for path in self.dirs.values():
            for _ in range(100):
                try:
                    path.rmdir()
                    break
                except OSError:
                    time.sleep(0.01)
