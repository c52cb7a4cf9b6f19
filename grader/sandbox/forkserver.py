"""A clean process that forks the sandboxes and the judges of their test cells: it is started before any job, so
none of a job's data (hidden inputs, later cells, the paths to hide) is in a sandbox's memory or on its stack,
and a judge starts from a process that has never run student code."""

import os
import signal
import socket

from . import isolation
from .cgroup import become_subreaper

SANDBOX, JUDGE = b"s", b"j"


class ForkServer:
    """The worker's handle on its fork server; ``spawn`` gives a new child's pid and channel. ``mains`` maps each
    kind of child (SANDBOX, JUDGE) to the function it runs."""

    def __init__(self, mains):
        self.control, remote = socket.socketpair()
        worker = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:
            self.control.close()
            try:
                _serve(remote, mains, worker)
            finally:
                os._exit(0)
        remote.close()

    def spawn(self, kind):
        """Fork a child of ``kind``: (pid, channel socket). The child waits for its first message."""
        self.control.sendall(kind)
        message, fds, _, _ = socket.recv_fds(self.control, 32, 1)
        if not fds:
            raise OSError("the fork server did not answer")
        return int(message), socket.socket(fileno=fds[0])


def _serve(control, mains, worker):
    isolation.die_with_parent(worker)
    become_subreaper()  # a sandbox's orphans stay below this process, to be killed (zygote.Sandbox.remove)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # sandboxes are reaped by the kernel
    server = os.getpid()
    while (kind := control.recv(1)) in mains:
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            control.close()
            ours.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                mains[kind](theirs.detach(), server)
            finally:
                os._exit(70)
        theirs.close()
        socket.send_fds(control, [str(pid).encode()], [ours.fileno()])
        ours.close()
