"""The catalogue's words for a misconception, for instructors: a short title and the full explanation."""
from ..checks import misconceptions


def title(misconception):
    """A short readable title: the catalogue's own, else the first sentence of its explanation."""
    titles = getattr(misconceptions, "TITLES", {})
    if misconception in titles:
        return titles[misconception]
    text = misconceptions.MISCONCEPTIONS.get(misconception)
    if not text:
        return misconception.replace("_", " ")
    first = text.split(". ")[0].split(": ")[0].rstrip(".")
    first = first.removeprefix("It looks like ").removeprefix("you ").removeprefix("Your ")
    return first[0].upper() + first[1:]


def explanation(misconception):
    return misconceptions.MISCONCEPTIONS.get(misconception, "")
