"""The catalogue's words for a misconception, for instructors: its short title and its full explanation."""
from ..checks.misconceptions import MISCONCEPTIONS, TITLES


def title(misconception):
    """The catalogue's short title (an id the catalogue does not know is shown in words as it is)."""
    return TITLES.get(misconception, misconception.replace("_", " "))


def explanation(misconception):
    return MISCONCEPTIONS.get(misconception, "")
