"""A page as a reader gets it with no network, in headless Chromium (tests/pages_js/layout.mjs, driven by Node and
playwright-core): the requests it made, the boxes of the elements a selector finds, its text and its DOM."""

import json
import pathlib
import subprocess
from dataclasses import dataclass

from .accessibility import AXE, CHROMIUM, NODE

LAYOUT = AXE.parent / "layout.mjs"


@dataclass
class Layout:
    requests: list  # every URL the page asked for: only its own file and data: URLs were served
    elements: list  # per element found: tag, attributes, text, width and height (CSS pixels)
    text: str  # the page's text as a reader sees it
    dom: str


def laid_out(page, selector, timeout=120):
    """The :class:`Layout` of ``page`` (a file), the elements that CSS ``selector`` finds on it."""
    for needed, how in (
        (NODE, "apt-get install nodejs"),
        (CHROMIUM, "apt-get install chromium"),
        (LAYOUT.parent / "node_modules" / "playwright-core", "npm ci --prefix tests/pages_js"),
    ):
        if not pathlib.Path(needed).exists():
            raise RuntimeError(f"{needed} is needed to lay out pages: `make test` installs it ({how})")
    url = pathlib.Path(page).resolve().as_uri()
    done = subprocess.run([NODE, str(LAYOUT), url, selector], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"Chromium could not lay out {url} (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return Layout(**json.loads(done.stdout))
