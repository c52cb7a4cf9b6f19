"""The warm worker's memory in 2 MiB pages, so that forking a sandbox from it costs less.

A fork copies one page-table entry for each 4 KiB page of the parent's private memory, and its exit takes them
down again: about 20 ms of system time for the warm worker's ~180 MiB of heap (PyTorch, matplotlib, IPython) on
the machines measured, three times per sandbox (the sandbox, its PID 1 and the process that runs the job). The
same memory in 2 MiB pages needs 512 times fewer entries. The worker's malloc heap grows in such pages already
(``pool.HUGE_HEAP``); Linux 6.1's ``MADV_COLLAPSE`` gathers the rest (Python's own arenas) once the warm-up has
written it, before the fork server starts. A child that writes to such a page gets its own copy of the 4 KiB it
writes, as before. Best effort: an older kernel, or one with no huge page to give, leaves the memory as it was.
"""

import ctypes
import pathlib

MADV_COLLAPSE = 25
HUGE = 2 << 20

_madvise = ctypes.CDLL(None, use_errno=True).madvise
_madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def private_regions():
    """(start, end) of each writable private anonymous mapping of this process (the heap and malloc's arenas),
    rounded inwards to whole 2 MiB pages."""
    regions = []
    for line in pathlib.Path("/proc/self/maps").read_text().splitlines():
        fields = line.split()
        name = fields[5] if len(fields) > 5 else ""
        if name not in ("", "[heap]") or not fields[1].startswith("rw") or fields[1][3] != "p":
            continue
        low, high = (int(bound, 16) for bound in fields[0].split("-"))
        low, high = -(-low // HUGE) * HUGE, high // HUGE * HUGE
        if high > low:
            regions.append((low, high))
    return regions


def collapse():
    """Gather this process's private memory into 2 MiB pages where the kernel can; the number of regions it took."""
    return sum(_madvise(low, high - low, MADV_COLLAPSE) == 0 for low, high in private_regions())
