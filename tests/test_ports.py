"""The servers and kernels the tests start keep out of the ports that connections take theirs from
(tests/ports.py): a port taken first kills a server or a kernel at its start."""

import pathlib
import socket

import pytest
from jupyter_client.manager import KernelManager

from . import ports
from .ports import ephemeral_range, free_port


def test_a_free_port_is_free_and_below_the_ports_connections_take():
    if ephemeral_range()[0] <= 10000:
        pytest.skip(f"the ephemeral range {ephemeral_range()} leaves no room below it")
    port = free_port()
    assert 10000 <= port < ephemeral_range()[0]
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))


def test_a_free_port_is_never_one_that_browsers_refuse_to_open(monkeypatch):
    """Chromium refused a formgrader that had drawn port 10080 (net::ERR_UNSAFE_PORT): four browser tests in error."""
    monkeypatch.setattr(ports.random, "sample", lambda ports, count: [10080, 10081])
    assert free_port() == 10081


@pytest.mark.slow
def test_a_kernel_of_the_tests_listens_on_unix_sockets_not_tcp_ports(kernels):
    km = KernelManager(kernel_name="python3", config=kernels)
    km.start_kernel()
    try:
        client = km.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        client.stop_channels()
        info = km.get_connection_info()
        assert info["transport"] == "ipc"
        assert pathlib.Path(f"{info['ip']}-{info['shell_port']}").is_socket()
    finally:
        km.shutdown_kernel(now=True)
