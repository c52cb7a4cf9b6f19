"""Each released notebook's short title, for the grade table: its first heading, without the number before it
and the subtitle after a colon or a comma ("# 01 · Attention basics: scores..." is "Attention basics");
a notebook without a heading is named by its file ("05_multi_head_attention.ipynb" is "multi head attention")."""

import re

HEADING = re.compile(r"^#+\s+(?:\d+\s*[·.:)-]?\s+)?(?P<title>[^:,\n]+)", re.MULTILINE)
NUMBER = re.compile(r"^\d+[_ -]+")


def short_titles(released):
    """{notebook file name: short title} of the released notebooks (``released``: Course.released_notebooks())."""
    titles = {}
    for name, nb in released.items():
        text = next((c.get("source", "") for c in nb.get("cells", []) if c.get("cell_type") == "markdown"), "")
        heading = HEADING.search(text)
        stem = name.removesuffix(".ipynb")
        titles[name] = heading["title"].strip() if heading else NUMBER.sub("", stem).replace("_", " ")
    return titles
