"""Headless Chromium (Debian's package) for the tests: the DOM of a page once its scripts ran, or a screenshot."""

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def dump_dom(url, budget_ms=5000, timeout=120):
    """The DOM of ``url`` once its scripts had ``budget_ms`` of virtual time."""
    return _chromium(url, budget_ms, timeout, "--dump-dom")


def screenshot(url, path, size="1300,700", budget_ms=5000, timeout=120):
    """A PNG of ``url`` in a window of ``size`` once its scripts had ``budget_ms`` of virtual time."""
    _chromium(url, budget_ms, timeout, f"--window-size={size}", f"--screenshot={path}")
    return path


def _chromium(url, budget_ms, timeout, *what):
    """Chromium's output for ``url``, in a fresh profile; the browser and its helper processes (its own session)
    end with it."""
    if not os.path.exists(CHROMIUM):
        raise RuntimeError("Chromium is needed for this test: `make test` installs it (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="kit-chromium-") as profile:
        command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", f"--virtual-time-budget={budget_ms}", *what, url]
        browser = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        try:
            out, err = browser.communicate(timeout=timeout)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(browser.pid, signal.SIGKILL)
            browser.wait()
    if browser.returncode != 0 or ("--dump-dom" in what and not out.strip()):
        raise RuntimeError(f"chromium could not open {url} (exit {browser.returncode}):\n{err[-2000:]}")
    return out
