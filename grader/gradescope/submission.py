"""The notebooks a student uploaded, wherever they put them, matched to the assignment's notebooks.

The upload is read as data (:mod:`grader.boundary.uploads`): its regular files and the files of a zip in it, each read
once, never a link, a hard link or a device; each file refused is named to the student with why. A notebook is
matched by its file name, else (renamed, e.g. ``02_self_attention (1).ipynb``) by the test cells it holds. What
could not be matched, or was not found, is said in plain words.
"""

import json
import pathlib
from dataclasses import dataclass, field

from ..boundary import uploads

SKIPPED = {".ipynb_checkpoints", "__MACOSX"}
NAMED_AT_MOST = 10  # refused files named one by one; the rest counted


@dataclass
class Found:
    notebooks: dict = field(default_factory=dict)  # {released file name: the uploaded notebook's bytes}
    messages: list = field(default_factory=list)  # what the student should know, in plain words


def find(folder, released):
    """Match the ``*.ipynb`` files under ``folder`` to ``released`` ({file name: set of test cell ids})."""
    uploaded, refused = _uploaded(folder)
    found, left = Found(), []
    for entry, data in uploads.read_each(uploaded, refused):
        if entry.path.name in released and entry.path.name not in found.notebooks:
            found.notebooks[entry.path.name] = data
        else:
            left.append((entry.path, data))
    found.messages += _told(refused)
    for path, data in left:
        name = _by_content(data, released, found.notebooks)
        if name:
            found.notebooks[name] = data
            found.messages.append(
                f"Graded {path} as {name} (it holds that notebook's exercises). Please keep the notebooks' names."
            )
        else:
            found.messages.append(
                f"{path} is not one of this assignment's notebooks (or another copy of one "
                "already graded), so it was not graded."
            )
    refused_names = {pathlib.PurePosixPath(shown).name for shown, _ in refused}
    for name in released:
        if name not in found.notebooks and name not in refused_names:
            found.messages.append(
                f"No notebook {name} was found in your submission: its exercises score 0. Upload it with that name."
            )
    return found


def _uploaded(folder):
    """(the notebooks of the upload and of the zips in it, in the order they are matched; the files refused)."""
    files, refused = uploads.entries(folder)
    for entry in [f for f in files if f.path.suffix.lower() == ".zip"]:
        inside, refused_inside = uploads.unzipped(entry)
        files, refused = files + inside, refused + refused_inside
    kept = lambda path: not set(pathlib.PurePosixPath(path).parts) & SKIPPED  # noqa: E731
    notebooks = sorted(
        (f for f in files if f.path.suffix == ".ipynb" and kept(f.path)), key=lambda f: (len(f.path.parts), str(f.path))
    )
    return notebooks, [(shown, why) for shown, why in refused if kept(shown)]


def _told(refused):
    """Each refused file in the student's words."""
    told = [f"{shown} {uploads.TOLD[why]}" for shown, why in refused[:NAMED_AT_MOST]]
    if len(refused) > NAMED_AT_MOST:
        told.append(f"{len(refused) - NAMED_AT_MOST} more files were not read, for the same kinds of reason.")
    return told


def _by_content(data, released, taken):
    """The released notebook, not matched yet, whose test cells this upload holds most of."""
    try:
        cells = json.loads(data.decode(errors="replace")).get("cells", [])
        ids = {c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in cells if isinstance(c, dict)}
    except (ValueError, AttributeError):
        return None
    overlap = {name: len(ids & tests) for name, tests in released.items() if name not in taken}
    best = max(overlap, key=overlap.get, default=None)
    return best if best and overlap[best] else None
