"""Headless Chromium (Debian's ``chromium``, which ``make test`` installs) for the tests: a page's DOM after
its scripts ran."""
import os
import shutil
import signal
import subprocess
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium():
    """The browser's path, or None when it is not installed."""
    return shutil.which("chromium") or shutil.which("/usr/bin/chromium")


def dump_dom(url, budget_ms=5000, timeout=120):
    """The DOM of ``url`` (serialised) once its scripts had ``budget_ms`` of virtual time, in a fresh profile."""
    with tempfile.TemporaryDirectory(prefix="kit-chromium-") as profile:
        command = [chromium(), *FLAGS, f"--user-data-dir={profile}", f"--virtual-time-budget={budget_ms}",
                   "--dump-dom", url]
        browser = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        try:
            out, err = browser.communicate(timeout=timeout)
        finally:
            _stop(browser)
    if browser.returncode != 0 or not out.strip():
        raise RuntimeError(f"chromium could not open {url} (exit {browser.returncode}):\n{err[-2000:]}")
    return out


def _stop(process):
    """The browser and its helper processes (its own session) end with it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()
