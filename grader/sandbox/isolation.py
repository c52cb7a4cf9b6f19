"""Walls around a sandbox process: namespaces, hidden paths, a fresh /proc, a read-only filesystem,
limits, an unprivileged user."""

import ctypes
import os
import pathlib
import re
import resource
import signal

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWIPC, CLONE_NEWUSER = (
    0x00020000,
    0x40000000,
    0x20000000,
    0x08000000,
    0x10000000,
)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = (
    0x1,
    0x2,
    0x4,
    0x8,
    0x20,
    0x1000,
    0x4000,
    0x40000,
)
KEPT_MOUNT_FLAGS = 0x1 | 0x2 | 0x4 | 0x8 | 0x400 | 0x800 | 0x1000  # statvfs f_flag bits that are also mount flags
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_CAP_AMBIENT = 1, 38, 24, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CAPABILITY_VERSION_3 = 0x20080522
NOBODY = 65534
PRIVATE_TMP = ("/tmp", "/var/tmp", "/dev/shm")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def enter_namespaces(user=False):
    """New mount, network, PID and IPC namespaces: the next child is PID 1 of a world of its own.
    With ``user``, inside a new user namespace where the caller is nobody (no root needed)."""
    uid, gid = os.geteuid(), os.getegid()
    _check(
        _libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | (CLONE_NEWUSER if user else 0)),
        "unshare",
    )
    if user:
        pathlib.Path("/proc/self/setgroups").write_text("deny")
        pathlib.Path("/proc/self/uid_map").write_text(f"{NOBODY} {uid} 1")
        pathlib.Path("/proc/self/gid_map").write_text(f"{NOBODY} {gid} 1")
    _check(_libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make mounts private")


def mount_proc():
    """A /proc of this PID namespace: no process outside the sandbox is visible."""
    _check(_libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None), "mount /proc")


def _mount_points():
    points = []
    for line in pathlib.Path("/proc/self/mountinfo").read_text().splitlines():
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
        points.append(point)
    return points


def read_only_except(writable):
    """Every mount read-only, but the folders in ``writable`` (the sandbox's private tmpfs mounts).

    A mount that cannot be remounted and is still writable stops the sandbox."""
    writable = {os.path.realpath(w) for w in writable}
    for point in dict.fromkeys(_mount_points()):
        if point in writable:
            continue
        try:
            flags = os.statvfs(point).f_flag
        except OSError:
            continue  # out of reach (covered by another mount)
        if flags & MS_RDONLY:
            continue
        keep = (flags & KEPT_MOUNT_FLAGS) | MS_RDONLY | MS_BIND | MS_REMOUNT
        _check(_libc.mount(None, point.encode(), None, keep, None), f"make {point} read-only")


def _mount_tmpfs(path, size, mode="1777"):
    options = f"size={size},mode={mode}".encode()
    _check(_libc.mount(b"tmpfs", str(path).encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options), f"tmpfs on {path}")


def hide(paths, tmp_size, keep):
    """Cover each path with an empty tmpfs (a file with /dev/null), then give the sandbox its own,
    empty /tmp, /var/tmp and /dev/shm, and make ``keep`` (the Python environment, the kit's
    student-safe package) readable: those stay visible even inside a covered or closed folder."""
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            _mount_tmpfs(path, "64k")
        elif path.exists():
            _check(_libc.mount(b"/dev/null", str(path).encode(), None, MS_BIND, None), f"hide {path}")
    keep = sorted({pathlib.Path(k).resolve() for k in keep})
    covers = {pathlib.Path(folder): (tmp_size, "1777") for folder in PRIVATE_TMP if os.path.isdir(folder)}
    for path in keep:
        ancestor = _closed_ancestor(path)
        if ancestor is not None:
            covers.setdefault(ancestor, ("64k", "755"))
    staging = pathlib.Path("/mnt")
    _mount_tmpfs(staging, "64k", "700")
    for n, (folder, (size, mode)) in enumerate(sorted(covers.items())):
        _cover_keeping(folder, [k for k in keep if folder in k.parents], size, mode, staging / str(n))


def _cover_keeping(folder, inside, size, mode, staging):
    """Mount an empty tmpfs over ``folder``, with the paths ``inside`` it bound back in place
    (their own covered parts, such as the hidden checks, stay covered)."""
    staged = []
    for n, path in enumerate(inside):
        target = _mount_point(staging / str(n), path)
        _check(_libc.mount(str(path).encode(), str(target).encode(), None, MS_BIND | MS_REC, None), f"stage {path}")
        staged.append((target, path))
    _mount_tmpfs(folder, size, mode)
    for target, path in staged:
        _mount_point(path, target)
        _check(_libc.mount(str(target).encode(), str(path).encode(), None, MS_BIND | MS_REC, None), f"keep {path}")


def _mount_point(point, like):
    """An empty folder at ``point``, or an empty file when ``like`` is a file: where ``like`` can be bound."""
    point.parent.mkdir(parents=True, exist_ok=True)
    if like.is_dir():
        point.mkdir(exist_ok=True)
    else:
        point.touch()
    return point


def _closed_ancestor(path):
    """The highest folder on the way to ``path`` that others may not enter (such as /root), or None."""
    chain = list(reversed(path.parents))[1:] + ([path] if path.is_dir() else [])
    return next((folder for folder in chain if not folder.stat().st_mode & 0o001), None)


def paths_to_hide(secret_roots, keep):
    """Every path under ``secret_roots`` except the ones that lead to a path in ``keep``.

    The course folder may hold the virtual environment and the kit itself: those stay
    visible, and everything beside them is covered.
    """
    keep = [pathlib.Path(k).resolve() for k in keep]
    hidden = []

    def walk(path):
        inside = [k for k in keep if k == path or path in k.parents]
        if not inside:
            hidden.append(str(path))
        elif path not in inside:
            for child in sorted(path.iterdir()):
                walk(child)

    for root in map(pathlib.Path, secret_roots):
        root = root.resolve()
        if root.exists():
            walk(root)
    return hidden


def limit(limits, address_space=False, processes=None):
    """Per-process limits that hold whatever the code does: file size, processes, CPU, core dumps.
    With ``address_space``, memory too: the worker's address space plus ``memory_bytes`` (used where
    no cgroup limits memory; it counts mapped, not resident, memory)."""
    cpu = int(limits["notebook_seconds"]) + 5
    processes = limits["processes"] if processes is None else processes
    for name, value in (
        (resource.RLIMIT_FSIZE, limits["file_bytes"]),
        (resource.RLIMIT_NPROC, processes),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NOFILE, 256),
    ):
        resource.setrlimit(name, (value, value))
    if address_space:
        mapped = resource.getpagesize() * int(pathlib.Path("/proc/self/statm").read_text().split()[0])
        resource.setrlimit(resource.RLIMIT_AS, (mapped + limits["memory_bytes"],) * 2)


def clean_environment(home="/tmp"):
    """Nothing of the grader's environment: no NBGRADER_* variables, no instructor's settings."""
    path = os.environ.get("PATH", "/usr/bin:/bin")
    os.environ.clear()
    os.environ.update({"PATH": path, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8", "MPLBACKEND": "Agg"})


def die_with_parent(parent):
    """SIGKILL this process when its parent dies (a killed grader leaves no sandbox behind)."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() not in (parent, 0):  # gone already (0: the parent lives outside this PID namespace)
        os._exit(70)


def drop_privileges():
    """Become nobody, for good, and still die with the parent (a change of user clears that)."""
    parent = os.getppid()
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    die_with_parent(parent)


def drop_capabilities():
    """Give up every capability (those a user namespace grants its creator) and never regain one."""
    for capability in range(int(pathlib.Path("/proc/sys/kernel/cap_last_cap").read_text()) + 1):
        _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "drop capabilities")
    no_new_privileges()


def no_new_privileges():
    """No set-user-id program or file capability can give this process or its children more rights."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")


def isolate_fds(keep_fd):
    """stdin, stdout and stderr to /dev/null; every other inherited file closed but ``keep_fd``."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, keep_fd)
    os.closerange(keep_fd + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
