"""A folder (or zip) laid out as ``<student>/<notebook>.ipynb``: the folder's name is the student's id."""

from ..found import Found, Identity


def read_notes(entries, context):
    pass


def parse(entry, context):
    if len(entry.path.parts) != 2 or entry.path.suffix != ".ipynb":
        return None
    student = entry.path.parts[0]
    return Found(entry.path.as_posix(), Identity("folder", student, usernames=(student,)), entry.path.name, entry.read)
