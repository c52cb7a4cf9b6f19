"""A seccomp filter for sandboxes without namespaces: no sockets, no System V or POSIX message IPC,
no kernel keyrings, no io_uring (which could open sockets past the filter). Each such call fails
with EACCES; a call from another architecture's ABI kills the process.

A classic BPF program installed with prctl(PR_SET_SECCOMP), as seccomp(2) documents.
"""

import ctypes
import errno
import os
import platform

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
LD_ABS_W, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
RET_ALLOW, RET_ERRNO, RET_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
X32_BIT = 0x40000000

DENIED = ("socket", "shmget", "semget", "msgget", "mq_open", "add_key", "request_key", "keyctl", "io_uring_setup")
ARCHITECTURES = {  # machine: (AUDIT_ARCH_*, system call numbers)
    "x86_64": (
        0xC000003E,
        {
            "socket": 41,
            "shmget": 29,
            "semget": 64,
            "msgget": 68,
            "mq_open": 240,
            "add_key": 248,
            "request_key": 249,
            "keyctl": 250,
            "io_uring_setup": 425,
            "unshare": 272,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "socket": 198,
            "shmget": 194,
            "semget": 190,
            "msgget": 186,
            "mq_open": 180,
            "add_key": 217,
            "request_key": 218,
            "keyctl": 219,
            "io_uring_setup": 425,
            "unshare": 97,
        },
    ),
}


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def program(names=DENIED, machine=None):
    """The filter's instructions, as (code, jt, jf, k)."""
    arch, numbers = ARCHITECTURES[machine or platform.machine()]
    denied = [numbers[name] for name in names]
    deny_at = 4 + len(denied) + 1  # index of the 'deny' return
    kill_at = deny_at + 1
    code = [
        (LD_ABS_W, 0, 0, 4),  # seccomp_data.arch
        (JEQ, 0, kill_at - 2, arch),
        (LD_ABS_W, 0, 0, 0),  # seccomp_data.nr
        (JGE, deny_at - 4, 0, X32_BIT),
    ]
    for number in denied:
        code.append((JEQ, deny_at - (len(code) + 1), 0, number))
    code += [(RET, 0, 0, RET_ALLOW), (RET, 0, 0, RET_ERRNO | errno.EACCES), (RET, 0, 0, RET_KILL_PROCESS)]
    return code


def install(names=DENIED):
    """Deny the system calls ``names`` to this process and every child it will have (raises OSError
    where it cannot)."""
    if platform.machine() not in ARCHITECTURES:
        raise OSError(f"no seccomp filter for the {platform.machine()} architecture")
    code = program(names)
    filters = (SockFilter * len(code))(*[SockFilter(*instruction) for instruction in code])
    fprog = SockFprog(len(code), filters)
    libc = ctypes.CDLL(None, use_errno=True)
    for args in ((PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0)):
        if libc.prctl(*args) != 0:
            number = ctypes.get_errno()
            raise OSError(number, f"seccomp: {os.strerror(number)}")
