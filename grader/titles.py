"""Each released notebook's short title, for the grade table: its first heading, without the number before it
and the subtitle after a colon or a comma ("# 01 · Attention basics: scores..." is "Attention basics");
a notebook without a heading is named by its file ("05_multi_head_attention.ipynb" is "multi head attention")."""
import re

from .checks.notebook import read

HEADING = re.compile(r"^#+\s+(?:\d+\s*[·.:)-]?\s+)?(?P<title>[^:,\n]+)", re.MULTILINE)
NUMBER = re.compile(r"^\d+[_ -]+")


def short_titles(course):
    """{notebook file name: short title} of the released notebooks."""
    titles = {}
    for path in sorted(course.release.glob("*.ipynb")):
        try:
            cells = read(path)["cells"]
        except (OSError, ValueError, KeyError, TypeError):
            cells = []
        text = next((c.get("source", "") for c in cells if c.get("cell_type") == "markdown"), "")
        heading = HEADING.search(text)
        titles[path.name] = heading["title"].strip() if heading else NUMBER.sub("", path.stem).replace("_", " ")
    return titles
