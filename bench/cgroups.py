"""A cgroup made for one command of a benchmark (under this process's own group of a controller), and how the
command's first process enters it, and how the group is removed after it."""

import contextlib
import os
import time

PREFIX = "attention-kit-bench-"


def made_under(parent):
    """A new group in the folder ``parent`` (this process's group of a controller), or None where none can be made
    (not root, no delegated group)."""
    if parent is None:
        return None
    folder = parent / f"{PREFIX}{os.getpid()}-{time.monotonic_ns()}"
    with contextlib.suppress(OSError):
        folder.mkdir()
        return folder
    return None


def removed(folder):
    """Remove the group ``folder`` (None: nothing) and the groups in it (the kit's sandbox groups, a test's inner
    group), trying for 5 s while a process of it is still ending."""
    if folder is None:
        return
    for _ in range(50):
        with contextlib.suppress(OSError):
            for inner in sorted(folder.glob("*/"), reverse=True):
                if inner.is_dir():
                    inner.rmdir()
            folder.rmdir()
            return
        time.sleep(0.1)


def enter(folder):
    """Put this process in ``folder`` (in a preexec_fn: the command's first process, before it runs)."""
    if folder is not None:
        with contextlib.suppress(OSError):
            (folder / "cgroup.procs").write_text(str(os.getpid()))
