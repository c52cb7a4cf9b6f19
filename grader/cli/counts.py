"""A number with its noun, as the terminal says it: "1 notebook", "3 notebooks"."""


def count(n, noun):
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
