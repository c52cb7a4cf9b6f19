"""Landlock (Linux 5.13+, unprivileged): this process and its children may read some folders,
write some others, and nothing else on the filesystem; no TCP where the kernel can say so
(ABI 4), no signals or abstract sockets out of the sandbox (ABI 6).

The three documented system calls, through ctypes (see landlock(7) and <linux/landlock.h>).
"""

import ctypes
import os

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446  # the same numbers on every architecture
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
READ = EXECUTE | READ_FILE | READ_DIR
WRITE = READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SYM | MAKE_FIFO | TRUNCATE | REFER

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _call(number, *args):
    result = _libc.syscall(number, *args)
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"landlock: {os.strerror(errno)}")
    return result


def abi():
    """The kernel's Landlock ABI version, 0 when Landlock is missing or disabled."""
    try:
        return _call(CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except OSError:
        return 0


def _handled_fs(version):
    handled = (1 << 13) - 1
    for needed, right in ((2, REFER), (3, TRUNCATE), (5, IOCTL_DEV)):
        if version >= needed:
            handled |= right
    return handled


def restrict(read, write, version=None):
    """From now on, read (and execute) only under ``read``, write only under ``write``; paths may be
    folders or files; missing ones are skipped. Raises OSError where Landlock is unavailable."""
    version = version or abi()
    if version < 1:
        raise OSError("Landlock is not available in this kernel (or is disabled)")
    handled = _handled_fs(version)
    attr = RulesetAttr(
        handled,
        NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0,
        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0,
    )
    size = 24 if version >= 6 else 16 if version >= 4 else 8
    ruleset = _call(CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    try:
        for paths, rights in ((read, READ), (write, WRITE)):
            for path in paths:
                _allow(ruleset, path, rights & handled)
        _call(RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)


def _allow(ruleset, path, rights):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= FILE_ONLY
        rule = PathBeneathAttr(rights, fd)
        _call(ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0))
    finally:
        os.close(fd)
