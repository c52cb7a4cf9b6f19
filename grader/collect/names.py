"""Which released notebook a handed-in file name is, as a person would read it.

A name that differs from a released notebook's only by letter case, by spaces for underscores, or by a
copy suffix that a browser or a file manager adds (``name (1).ipynb``, ``name-1.ipynb``, ``name_1.ipynb``,
``name 2.ipynb``) is that notebook. Only a released name that no other released name reads the same way
is matched like this, and the name with its suffix is tried before the name without it, so two different
notebooks are never taken for one.
"""

import re

COPY_SUFFIX = re.compile(r"^(?P<stem>.+?)(?:\s*\(\d+\)|[ _-]\d+)$")
SUFFIX = ".ipynb"


def release_name(name, released):
    """The released notebook ``name`` stands for (``name`` itself when it is one), or None."""
    if name in released:
        return name
    if not name.lower().endswith(SUFFIX):
        return None
    keys = {}
    for notebook in released:
        keys.setdefault(_key(notebook[: -len(SUFFIX)]), []).append(notebook)
    stem = name[: -len(SUFFIX)]
    copy = COPY_SUFFIX.match(stem)
    for candidate in [stem] + ([copy["stem"]] if copy else []):
        found = keys.get(_key(candidate), [])
        if len(found) == 1:
            return found[0]
        if found:
            return None  # two released names read the same: only the exact name will do
    return None


def _key(stem):
    return " ".join(stem.replace("_", " ").casefold().split())
