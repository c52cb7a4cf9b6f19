"""The report's words: the catalogue's title and instructor-voice description of a misconception, and each
exercise named with its notebook ("03 · attention (Attention in NumPy)")."""

import re

from ..checks.misconceptions import MISCONCEPTIONS

HEADING = re.compile(r"^#\s+(.+)$", re.MULTILINE)


def title(misconception):
    """The catalogue's short title (an id the catalogue does not know is shown in words as it is)."""
    known = MISCONCEPTIONS.get(misconception)
    return known.title if known else misconception.replace("_", " ")


def explanation(misconception):
    """What the students who made this mistake did, in the instructor's voice."""
    known = MISCONCEPTIONS.get(misconception)
    return known.for_instructors if known else ""


def notebook_titles(released):
    """{notebook file name: its title} from the first heading of each released notebook ("Attention in NumPy");
    ``released``: Course.released_notebooks()."""
    titles = {}
    for name, nb in released.items():
        headings = [HEADING.search(c.source) for c in nb.cells if c.cell_type == "markdown"]
        first = next((h.group(1) for h in headings if h), None)
        if first:
            titles[name] = first.split("·", 1)[-1].split(":", 1)[0].strip()
    return titles


def number(notebook):
    """The notebook's number ("03" for 03_attention_in_numpy.ipynb), else its name."""
    return notebook.split("_", 1)[0] if notebook[:1].isdigit() else notebook.removesuffix(".ipynb")


def notebook_title(notebook, titles):
    """ "03 · Attention in NumPy" """
    name = titles.get(notebook) or notebook.removesuffix(".ipynb").split("_", 1)[-1].replace("_", " ")
    return f"{number(notebook)} · {name}"


def exercise_label(exercise, titles=None):
    """ "03 · attention", or with ``titles`` "03 · attention (Attention in NumPy)"."""
    short = f"{number(exercise.notebook)} · {exercise.name}" if exercise.notebook else exercise.name
    known = (titles or {}).get(exercise.notebook)
    return f"{short} ({known})" if known else short
