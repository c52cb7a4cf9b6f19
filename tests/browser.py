"""A real Jupyter server (with nbgrader's formgrader) on a private port, and headless Chromium to read its pages."""
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def jupyter_server(course):
    """Yield the base URL of a Jupyter server in ``course``, on loopback only, without a token (tests only)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}",
                               "--ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
                               *(["--allow-root"] if os.geteuid() == 0 else [])],
                              cwd=course, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the Jupyter server did not start") from None
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def chromium(url, *arguments):
    """Run headless Chromium on ``url`` after its scripts ran (``--dump-dom`` returns the page as it then is)."""
    if not os.path.exists(CHROMIUM):
        raise RuntimeError("Chromium is needed for this test: apt-get install chromium")
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
                           *arguments, url], capture_output=True, text=True, timeout=180)
    return done.stdout


def page(url):
    """The page's DOM once its scripts have filled it in."""
    return chromium(url, "--dump-dom")


FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def dump_dom(url, budget_ms=5000, timeout=120):
    """The DOM of ``url`` once its scripts had ``budget_ms`` of virtual time, in a fresh profile; the browser
    and its helper processes (its own session) end with it."""
    if not os.path.exists(CHROMIUM):
        raise RuntimeError("Chromium is needed for this test: `make test` installs it (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="kit-chromium-") as profile:
        command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--virtual-time-budget={budget_ms}",
                   "--dump-dom", url]
        browser = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        try:
            out, err = browser.communicate(timeout=timeout)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(browser.pid, signal.SIGKILL)
            browser.wait()
    if browser.returncode != 0 or not out.strip():
        raise RuntimeError(f"chromium could not open {url} (exit {browser.returncode}):\n{err[-2000:]}")
    return out
