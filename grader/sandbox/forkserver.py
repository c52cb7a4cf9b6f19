"""A clean process that forks the sandboxes: it is started before any job, so none of a job's data
(hidden inputs, later cells, the paths to hide) is in a sandbox's memory or on its stack."""
import os
import signal
import socket

from . import isolation


class ForkServer:
    """The worker's handle on its fork server; ``spawn`` gives a new sandbox's pid and channel."""

    def __init__(self, child_main):
        self.control, remote = socket.socketpair()
        worker = os.getpid()
        self.pid = os.fork()
        if self.pid == 0:
            self.control.close()
            try:
                _serve(remote, child_main, worker)
            finally:
                os._exit(0)
        remote.close()

    def spawn(self):
        """Fork a sandbox: (pid, channel socket). The sandbox waits for its first message."""
        self.control.sendall(b"f")
        message, fds, _, _ = socket.recv_fds(self.control, 32, 1)
        if not fds:
            raise OSError("the fork server did not answer")
        return int(message), socket.socket(fileno=fds[0])


def _serve(control, child_main, worker):
    isolation.die_with_parent(worker)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # sandboxes are reaped by the kernel
    server = os.getpid()
    while control.recv(1):
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            control.close()
            ours.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                child_main(theirs.detach(), server)
            finally:
                os._exit(70)
        theirs.close()
        socket.send_fds(control, [str(pid).encode()], [ours.fileno()])
        ours.close()
