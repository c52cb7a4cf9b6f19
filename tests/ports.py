"""Ports and sockets for the servers and kernels the tests start, out of the way of every connection the suite makes.

A free port found by binding port 0 comes from the machine's ephemeral range, the one every outgoing connection
takes its own port from. Between the probe closing it and the server binding it again (seconds, for a server or a
kernel that imports its modules first), a connection of another test (to PostgreSQL, Dask, the LTI platform, a
Jupyter server) may take it, and the server dies with "Address already in use". CI failed so once: a kernel of
``nbgrader validate``, 12 tests in error."""

import pathlib
import random
import socket

from traitlets.config import Config

_EPHEMERAL = pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range")
# The ports of 10000 and above that Chromium and Firefox refuse to open a page on (Chromium's kRestrictedPorts in
# net/base/port_util.cc; net::ERR_UNSAFE_PORT): a formgrader there cannot be tested in the browser.
BROWSERS_REFUSE = {10080}


def ephemeral_range():
    """The ports outgoing connections take theirs from: (lowest, highest)."""
    low, high = map(int, _EPHEMERAL.read_text().split())
    return low, high


def free_port():
    """A port of 127.0.0.1 that is free now and below the ephemeral range, so no outgoing connection takes it, and
    that browsers open; any free port where the ephemeral range leaves no room below it."""
    below = range(10000, ephemeral_range()[0])
    for port in random.sample(below, min(200, len(below))):
        if port in BROWSERS_REFUSE:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def kernel_config(folder):
    """Config for a Jupyter kernel manager (``NotebookClient``, nbgrader's ``Validator``, ``jupyter server``): its
    kernels listen on Unix sockets named ``folder``/kernel-N, not on TCP ports that jupyter_client finds free by
    binding port 0 (the race above). ``folder`` must be short: a socket's path holds at most 107 bytes."""
    return Config({"KernelManager": {"transport": "ipc", "ip": str(pathlib.Path(folder) / "kernel")}})
