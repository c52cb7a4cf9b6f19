"""axe-core's WCAG 2.1 A and AA rules on pages, in headless Chromium (tests/pages_js/axe.mjs, driven by Node and
playwright-core): the violations per page, and a readable account of them for a failed assertion."""

import json
import pathlib
import shutil
import subprocess

AXE = pathlib.Path(__file__).resolve().parent / "pages_js" / "axe.mjs"
NODE = shutil.which("node") or "/usr/bin/node"
CHROMIUM = "/usr/bin/chromium"  # axe.mjs launches this one: playwright-core downloads no browser


def violations(*pages, timeout=300):
    """{page: [violation]} for each page (a path or an http URL); a violation is axe's rule ``id``, ``impact``,
    ``help`` and its ``nodes`` (each element's ``target`` selector, ``html`` and ``why``), shortened."""
    urls = {_url(page): page for page in pages}
    found = run_page_script(AXE, "axe-core", "check the pages with axe-core", *urls, timeout=timeout)
    return {urls[page["url"]]: page["violations"] for page in found}


def run_page_script(script, package, what, *arguments, timeout):
    """What ``script`` (a Node script of tests/pages_js that drives Chromium with playwright-core and ``package``)
    prints as JSON for ``arguments``; a missing tool or a failed run is said in words."""
    for needed, how in (
        (NODE, "apt-get install nodejs"),
        (CHROMIUM, "apt-get install chromium"),
        (script.parent / "node_modules" / package, "npm ci --prefix tests/pages_js"),
    ):
        if not pathlib.Path(needed).exists():
            raise RuntimeError(f"{needed} is needed to {what}: `make test` installs it ({how})")
    done = subprocess.run([NODE, str(script), *arguments], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"Chromium could not {what} (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def readable(found):
    """``found`` ({page: [violation]}) as text: a paragraph per rule broken on a page, a line per element."""
    lines = []
    for page, broken in found.items():
        for rule in broken:
            lines.append(f"{page}: {rule['id']} ({rule['impact']}): {rule['help']}, {len(rule['nodes'])} element(s)")
            lines.extend(f"    {node['target']}: {node['html']}\n      {node['why']}" for node in rule["nodes"][:10])
            if len(rule["nodes"]) > 10:
                lines.append(f"    ... and {len(rule['nodes']) - 10} more")
    return "\n".join(lines)


def _url(page):
    return page if str(page).startswith(("http://", "https://")) else pathlib.Path(page).resolve().as_uri()
