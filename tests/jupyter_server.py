"""A throw-away Jupyter server for the tests: ``jupyter server`` with the extensions the kit's environment enables
(nbgrader's formgrader, and the kit's grader.formgrader), on a private port of 127.0.0.1, token auth, its root the
course; started in its own session and always stopped."""

import contextlib
import dataclasses
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from .ports import free_port


@dataclasses.dataclass
class Server:
    url: str
    token: str

    def link(self, path):
        """The URL of ``path`` on the server, logged in by the token."""
        return f"{self.url}/{path.lstrip('/')}" + (f"?token={self.token}" if self.token else "")


@contextlib.contextmanager
def jupyter_server(root, timeout=90, token=True):
    """Start ``jupyter server`` in ``root`` (its ``nbgrader_config.py`` applies); yield a :class:`Server`.

    ``token=False``: no login at all, for pages whose scripts call the server's API (formgrader's lists), which a
    headless browser opened with the token in the URL does not pass on."""
    port, token = free_port(), secrets.token_hex(16) if token else ""
    with tempfile.TemporaryDirectory(prefix="kit-jupyter-") as home:
        env = {
            **os.environ,
            "JUPYTER_RUNTIME_DIR": f"{home}/runtime",
            "JUPYTER_CONFIG_DIR": f"{home}/config",
            "JUPYTER_DATA_DIR": f"{home}/data",
            "HOME": home,
        }
        command = [
            sys.executable,
            "-m",
            "jupyter_server",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={root}",
            f"--IdentityProvider.token={token}",
            "--KernelManager.transport=ipc",
        ]  # see tests/ports.py
        with open(f"{home}/server.log", "w") as log:
            server = subprocess.Popen(
                command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        try:
            running = Server(f"http://127.0.0.1:{port}", token)
            _wait_until_up(server, running, timeout, f"{home}/server.log")
            yield running
        finally:
            _stop(server)


def _wait_until_up(server, running, timeout, log):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            with urllib.request.urlopen(running.link("api/status"), timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    with open(log) as text:
        raise RuntimeError(f"jupyter server did not start:\n{text.read()[-3000:]}")


def _stop(server):
    """SIGTERM to the server's session, then SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 15)):
        try:
            os.killpg(server.pid, sig)
        except ProcessLookupError:
            break
        try:
            server.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    server.wait()
