"""A cgroup per sandbox: a hard memory limit and a process count, on cgroup v1 or v2.

v1: a group in this process's own memory and pids hierarchies (``memory.limit_in_bytes``).
v2: a group beside this process's own, in the nearest folder of the unified hierarchy whose
memory and pids controllers can be handed to children (``memory.max``, ``memory.swap.max``,
``pids.max``; OOM kills read from ``memory.events``). A delegated subtree works the same way.
Where neither is writable, the sandbox runs without a group, :func:`memory_limit` says so, and
the walls fall back to rlimits; :func:`kill_below` then ends what a sandbox leaves behind.

It also says how many cores grading may keep busy (:func:`usable_cores`) and how much memory it may hold
(:func:`usable_memory`): a container's CPU quota and memory limit are a cgroup's.
"""

import contextlib
import ctypes
import math
import os
import pathlib
import signal
import time

CONTROLLERS = ("memory", "pids")
PR_SET_CHILD_SUBREAPER = 36


def _cgroup_lines():
    return [line.split(":", 2) for line in pathlib.Path("/proc/self/cgroup").read_text().splitlines()]


def _v1_path(controller):
    for _, names, path in _cgroup_lines():
        if controller in names.split(","):
            mount = pathlib.Path("/sys/fs/cgroup", controller)
            return mount / path.lstrip("/") if mount.is_dir() else None
    return None


def _v2_mount():
    for line in pathlib.Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        if fields[fields.index("-") + 1] == "cgroup2":
            return pathlib.Path(fields[4])
    return None


def _v2_own():
    """(the unified hierarchy's mount, this process's group's folder in it), or None."""
    mount = _v2_mount()
    own = next((path for number, _, path in _cgroup_lines() if number == "0"), None)
    return None if mount is None or own is None else (mount, mount / own.lstrip("/"))


def _v2_base():
    """The nearest folder at or above this process's v2 group where sandbox groups can get memory
    and pids controllers, or None."""
    own = _v2_own()
    if own is None:
        return None
    mount, folder = own
    for candidate in [folder, *folder.parents]:
        if not candidate.is_relative_to(mount):
            break
        try:
            available = set((candidate / "cgroup.controllers").read_text().split())
            if not set(CONTROLLERS) <= available:
                return None
            enabled = set((candidate / "cgroup.subtree_control").read_text().split())
            if not set(CONTROLLERS) <= enabled:  # fails on a group that holds processes (but the root)
                (candidate / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in CONTROLLERS))
            if os.access(candidate, os.W_OK) and os.access(candidate / "cgroup.procs", os.W_OK):
                return candidate
        except OSError:
            continue
    return None


def _version():
    if _v1_path("memory") is not None:
        return 1
    return 2 if _v2_base() is not None else None


class Cgroup:
    """One group of processes with a memory limit and a cap on how many there may be."""

    def __init__(self, name, memory_bytes, processes):
        self.dirs, self.version = {}, _version()
        if self.version == 1:
            for controller in CONTROLLERS:
                base = _v1_path(controller)
                if base is not None:
                    self._make(controller, base / name)
            self._write("memory", "memory.limit_in_bytes", memory_bytes)
            self._write("memory", "memory.memsw.limit_in_bytes", memory_bytes)
            self._write("pids", "pids.max", processes)
        elif self.version == 2 and self._make("unified", _v2_base() / name):
            self._write("unified", "memory.swap.max", 0)
            self._write("unified", "pids.max", processes)
            if not self._write("unified", "memory.max", memory_bytes):  # no limit: no group
                self._remove_dirs(self.dirs.values())
                self.dirs.clear()

    def _make(self, key, path):
        try:
            path.mkdir(exist_ok=True)
        except OSError:
            return False
        self.dirs[key] = path
        return True

    @property
    def limits_memory(self):
        return "memory" in self.dirs or "unified" in self.dirs

    def _memory_dir(self):
        return self.dirs.get("memory") or self.dirs.get("unified")

    def _write(self, controller, name, value):
        if controller in self.dirs:
            try:
                (self.dirs[controller] / name).write_text(str(value))
                return True
            except OSError:
                pass
        return False

    def add(self, pid):
        for controller in self.dirs:
            if not self._write(controller, "cgroup.procs", pid) and controller in ("memory", "unified"):
                self.dirs.pop(controller)  # not in the group: its memory is not limited by it
                break

    def oom_kills(self):
        folder = self._memory_dir()
        if folder is None:
            return 0
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        try:
            text = (folder / name).read_text()
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
        kill_until_gone(self.pids)

    def remove(self):
        self.kill_all()
        self._remove_dirs(self.dirs.values())

    @staticmethod
    def _remove_dirs(paths):
        for path in paths:
            for _ in range(100):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def memory_limit():
    """How this machine limits a sandbox's memory: 'cgroup v1', 'cgroup v2' or 'rlimit' (address space only)."""
    probe = Cgroup(f"attention-kit-{os.getpid()}-probe", 1 << 30, 16)
    try:
        return f"cgroup v{probe.version}" if probe.limits_memory else "rlimit"
    finally:
        probe.remove()


def usable_cores():
    """The cores this process may keep busy: those its CPU affinity allows (``taskset``, a container's cpuset),
    fewer where its group or one above it has a CPU quota (``docker run --cpus``, a Kubernetes CPU limit): the
    quota over its period, rounded up."""
    quotas = [math.ceil(quota / period) for quota, period in _cpu_quotas() if quota > 0 and period > 0]
    return max(1, min([len(os.sched_getaffinity(0)), *quotas]))


def _cpu_quotas():
    """(quota, period) of this process's CPU group and of each group above it, on cgroup v1 or v2 (-1: none)."""
    v1 = _v1_path("cpu")
    if v1 is not None:
        return _up_to(
            pathlib.Path("/sys/fs/cgroup", "cpu"),
            v1,
            lambda folder: (
                int((folder / "cpu.cfs_quota_us").read_text()),
                int((folder / "cpu.cfs_period_us").read_text()),
            ),
        )
    own = _v2_own()
    if own is None:
        return []
    mount, folder = own

    def v2_quota(folder):
        quota, period = (folder / "cpu.max").read_text().split()
        return -1 if quota == "max" else int(quota), int(period)

    return _up_to(mount, folder, v2_quota)


def usable_memory():
    """The bytes this process and its children may hold: the machine's memory, less where its group or one above it
    has a memory limit (``docker run --memory``, a Kubernetes memory limit)."""
    machine = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    return min([machine, *(limit for limit in _memory_limits() if limit > 0)])


def _memory_limits():
    """The memory limit of this process's group and of each group above it, on cgroup v1 or v2 (-1: none; v1's
    "none" is a number near 2**63, above any machine's memory)."""
    v1 = _v1_path("memory")
    if v1 is not None:
        return _up_to(
            pathlib.Path("/sys/fs/cgroup", "memory"),
            v1,
            lambda folder: int((folder / "memory.limit_in_bytes").read_text()),
        )
    own = _v2_own()
    if own is None:
        return []
    mount, folder = own

    def v2_limit(folder):
        limit = (folder / "memory.max").read_text().strip()
        return -1 if limit == "max" else int(limit)

    return _up_to(mount, folder, v2_limit)


def _up_to(mount, folder, read):
    """``read(group)`` for ``folder`` and each folder above it up to ``mount``, where it can be read."""
    found = []
    for candidate in [folder, *folder.parents]:
        if not candidate.is_relative_to(mount):
            break
        with contextlib.suppress(OSError, ValueError):
            found.append(read(candidate))
    return found


def become_subreaper():
    """Orphans of this process's descendants become its children (where no PID namespace holds them)."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _descendants(root):
    children = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            state, parent = stat.read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, ValueError):
            continue
        if state != "Z":  # a zombie is already dead; its parent (or the fork server) reaps it
            children.setdefault(int(parent), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_below(root):
    """SIGKILL every process below ``root`` (a subreaper: what a sandbox leaves is reparented to it)
    until none is left."""
    kill_until_gone(lambda: _descendants(root))


def kill_until_gone(find):
    """SIGKILL the processes ``find()`` names, again and again, until it names none (for about a second)."""
    for _ in range(500):
        pids = find()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.002)
