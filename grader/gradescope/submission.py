"""The notebooks a student uploaded, wherever they put them, matched to the assignment's notebooks.

A notebook is matched by its file name, else (renamed, e.g. ``02_self_attention (1).ipynb``) by the
test cells it holds. What could not be matched, or was not found, is said in plain words.
"""
import json
import pathlib
from dataclasses import dataclass, field

SKIPPED = (".ipynb_checkpoints", "__MACOSX")


@dataclass
class Found:
    notebooks: dict = field(default_factory=dict)  # {released file name: uploaded path}
    messages: list = field(default_factory=list)   # what the student should know, in plain words


def find(folder, released):
    """Match the ``*.ipynb`` files under ``folder`` to ``released`` ({file name: set of test cell ids})."""
    folder = pathlib.Path(folder)
    uploaded = sorted((p for p in folder.rglob("*.ipynb") if p.is_file() and not set(p.parts) & set(SKIPPED)),
                      key=lambda p: (len(p.parts), str(p)))
    found, left = Found(), []
    for path in uploaded:
        if path.name in released and path.name not in found.notebooks:
            found.notebooks[path.name] = path
        else:
            left.append(path)
    for path in left:
        name = _by_content(path, released, found.notebooks)
        shown = path.relative_to(folder)
        if name:
            found.notebooks[name] = path
            found.messages.append(f"Graded {shown} as {name} (it holds that notebook's exercises). "
                                  "Please keep the notebooks' names.")
        else:
            found.messages.append(f"{shown} is not one of this assignment's notebooks (or another copy of one "
                                  "already graded), so it was not graded.")
    for name in released:
        if name not in found.notebooks:
            found.messages.append(f"No notebook {name} was found in your submission: its exercises score 0. "
                                  "Upload it with that name.")
    return found


def _by_content(path, released, taken):
    """The released notebook, not matched yet, whose test cells this upload holds most of."""
    try:
        cells = json.loads(path.read_text(errors="replace")).get("cells", [])
        ids = {c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in cells if isinstance(c, dict)}
    except (ValueError, AttributeError):
        return None
    overlap = {name: len(ids & tests) for name, tests in released.items() if name not in taken}
    best = max(overlap, key=overlap.get, default=None)
    return best if best and overlap[best] else None
