"""A page as a reader gets it with no network, in headless Chromium (tests/pages_js/layout.mjs, driven by Node and
playwright-core): the requests it made, the boxes of the elements a selector finds, its text and its DOM."""

import pathlib
from dataclasses import dataclass

from .accessibility import AXE, run_page_script

LAYOUT = AXE.parent / "layout.mjs"


@dataclass
class Layout:
    requests: list  # every URL the page asked for: only its own file and data: URLs were served
    elements: list  # per element found: tag, attributes, text, width and height (CSS pixels)
    text: str  # the page's text as a reader sees it
    dom: str


def laid_out(page, selector, timeout=120):
    """The :class:`Layout` of ``page`` (a file), the elements that CSS ``selector`` finds on it."""
    url = pathlib.Path(page).resolve().as_uri()
    return Layout(**run_page_script(LAYOUT, "playwright-core", f"lay out {url}", url, selector, timeout=timeout))
