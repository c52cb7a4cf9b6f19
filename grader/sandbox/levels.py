"""Isolation levels, strongest first, and the walls each one puts around a sandbox.

- ``root``: new mount, network, PID and IPC namespaces; the course and the kit's hidden parts
  covered; a fresh /proc; every mount read-only but a private /tmp, /var/tmp and /dev/shm; then
  user nobody. Memory and processes in a cgroup (v1 or v2), else rlimits.
- ``userns``: the same walls without root, inside an unprivileged user namespace where the
  caller is nobody and keeps no capability. A delegated cgroup v2 group where one is writable,
  else rlimits.
- ``landlock``: no namespaces (a container's seccomp profile forbids them): Landlock lets the
  sandbox read the Python environment, the system's libraries and the student-safe checks, and
  write its own scratch folder, nothing else; a seccomp filter denies sockets, System V IPC,
  keyrings and io_uring; rlimits.
- ``none``: rlimits and a clean environment only, and only when the instructor asks for it.

The worker picks the strongest level whose walls go up here (:func:`choose`), or the level the
configuration forces; a sandbox calls :func:`enter` before it forks its PID 1 and :func:`seal`
in the process that runs the job.
"""

import os
import pathlib
import select
import shutil
import sys
import tempfile

from ..boundary import student_safe as boundary
from . import cgroup, isolation, landlock, seccomp

LEVELS = ("root", "userns", "landlock", "none")
AUTOMATIC = LEVELS[:3]
SETTING = 'c.SandboxExecute.isolation = "none"'
KEEP = [sys.base_prefix, sys.prefix, *boundary.student_paths()]  # stay visible at the namespace levels
SYSTEM_LIBRARIES = ["/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib", "/etc/ld.so.cache"]
DEVICES = ["/dev/urandom", "/dev/random", "/dev/zero"]
SCRATCH_PREFIX = "attention-kit-sandbox-"
WORKING_FOLDER = "/tmp/notebook"
_level, _memory = None, None


def use(level):
    """Build every sandbox of this worker at ``level`` from now on."""
    global _level, _memory
    _level, _memory = level, cgroup.memory_limit()


def describe():
    """The level and how memory is limited, as grading records name it (e.g. 'userns; memory: rlimit')."""
    return f"{_level}; memory: {_memory}" if _level else None


def enter(job):
    """Before the sandbox forks its PID 1: the namespaces and the covering mounts."""
    if _level in ("root", "userns"):
        isolation.enter_namespaces(user=_level == "userns")
        isolation.hide(job["hide"], job["limits"]["tmp_bytes"], KEEP)


def seal(job):
    """In the process that will run the job: the other walls, the limits, the working folder.
    ``job`` is the sandbox's spec; its "cgroup_memory" says whether a cgroup limits its memory."""
    limits, memory_by_rlimit = job["limits"], not job.get("cgroup_memory")
    if _level in ("root", "userns"):
        isolation.mount_proc()
        isolation.read_only_except(isolation.PRIVATE_TMP)
        isolation.limit(limits, address_space=memory_by_rlimit)
        isolation.clean_environment("/tmp")
        isolation.drop_privileges() if _level == "root" else isolation.drop_capabilities()
        os.mkdir(WORKING_FOLDER)  # the notebook's folder: only what is copied there (the kit may sit under /tmp)
        os.chdir(WORKING_FOLDER)
        return
    scratch = _scratch()
    isolation.limit(limits, address_space=memory_by_rlimit, processes=_processes_of(os.getuid()) + limits["processes"])
    isolation.clean_environment(scratch)
    os.chdir(scratch)
    isolation.no_new_privileges()
    if _level == "landlock":
        landlock.restrict(read=readable(job["hide"]), write=[scratch, os.devnull])
        seccomp.install()


def readable(hidden):
    """What a Landlock sandbox may read: the Python environment (each folder on sys.path that holds
    nothing hidden), the student-safe part of the kit (grader/boundary/student_safe.py), the system's libraries
    and a few devices."""
    hidden = [pathlib.Path(h).resolve() for h in hidden]
    candidates = [sys.prefix, sys.base_prefix, *sys.path, *boundary.student_paths(), *SYSTEM_LIBRARIES, *DEVICES]
    found = []
    for path in dict.fromkeys(pathlib.Path(p).resolve() for p in candidates if p):
        covers_hidden = any(h == path or path in h.parents or h in path.parents for h in hidden)
        if path.exists() and not covers_hidden:
            found.append(str(path))
    return found


def _scratch():
    """A new folder of this sandbox's own in the worker's private temporary folder; the last
    sandbox's folder is removed first."""
    root = pathlib.Path(tempfile.gettempdir())
    for old in root.glob(SCRATCH_PREFIX + "*"):
        remove_tree(old)
    return tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=root)


def remove_tree(path):
    """Remove a folder a sandbox wrote, even where it took its own permissions away."""
    if not os.path.isdir(path) or os.path.islink(path):
        return
    os.chmod(path, 0o700)
    for folder, dirs, _ in os.walk(path):
        for name in dirs:
            inner = os.path.join(folder, name)
            if not os.path.islink(inner):
                os.chmod(inner, 0o700)
    shutil.rmtree(path, ignore_errors=True)


def _processes_of(uid):
    """How many processes ``uid`` runs (RLIMIT_NPROC counts them all, not only the sandbox's)."""
    count = 0
    for status in pathlib.Path("/proc").glob("[0-9]*/status"):
        try:
            uids = next(line for line in status.read_text().splitlines() if line.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        count += int(uids.split()[1]) == uid
    return count


def probe(level):
    """Why a sandbox cannot be walled in at ``level`` here, or None when it can (its test spec is
    made in the probe's own process: nothing shaped like a job stays in the worker's memory)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        message = ""
        try:
            use(level)
            spec = {
                "hide": [],
                "limits": {
                    "memory_bytes": 1 << 30,
                    "processes": 16,
                    "notebook_seconds": 10,
                    "file_bytes": 1 << 20,
                    "tmp_bytes": 1 << 20,
                },
            }
            enter(spec)
            inner = os.fork()
            if inner:
                os._exit(os.waitstatus_to_exitcode(os.waitpid(inner, 0)[1]) & 0xFF)
            seal(spec)
        except BaseException as error:  # noqa: B036 (reported to the worker, whatever it is)
            message = str(error) or type(error).__name__
        os.write(write_fd, message.encode()[:2000])
        os._exit(1 if message else 0)
    os.close(write_fd)
    chunks = []
    while select.select([read_fd], [], [], 30)[0]:
        chunk = os.read(read_fd, 4096)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    text = b"".join(chunks).decode(errors="replace")
    return text or (None if status == 0 else f"a test sandbox ended with status {status}")


def choose(requested="auto"):
    """Use the strongest level that works here (or the ``requested`` one): (level, None), or
    (None, a message that says what is missing and how to accept weaker isolation)."""
    if requested not in ("auto", *LEVELS):
        return None, f"unknown isolation level {requested!r}: use one of auto, {', '.join(LEVELS)}"
    why = {}
    for level in AUTOMATIC if requested == "auto" else [requested]:
        problem = probe(level)
        if problem is None:
            use(level)
            return level, None
        why[level] = problem
    return None, refusal(why)


def refusal(why):
    found = "; ".join(f"{level}: {reason}" for level, reason in why.items())
    return (
        "the sandbox cannot start on this machine, so no submission was graded "
        f"({found}). Grade as root, or where unprivileged user namespaces or Landlock are allowed. "
        f"To grade with no isolation at all (student code can then read and change whatever this user can), "
        f"put {SETTING} in nbgrader_config.py: those grades are marked 'none' in the records and the export."
    )
