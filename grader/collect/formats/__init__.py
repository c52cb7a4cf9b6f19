"""One module per LMS bulk-download format; :func:`recognise` tries each on every file."""

from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from ..found import Found, Ignored
from . import blackboard, brightspace, canvas, gradescope, moodle, plain

# The order matters only for names two formats could read: the more specific first.
FORMATS = [gradescope, moodle, blackboard, brightspace, canvas, plain]
NOISE = {".DS_Store", "Thumbs.db", "desktop.ini"}


@dataclass
class Context:
    """What a file's name alone does not say: the LMS's time zone, and what other files of the download say."""

    assignment: str
    timezone: ZoneInfo
    notes: dict = field(default_factory=dict)  # per format, e.g. Blackboard's receipts, Gradescope's metadata


def recognise(entries, assignment, timezone="UTC"):
    """[Found | Ignored | (path, reason)] for every entry: a notebook, a file left out on purpose, or unknown."""
    context = Context(assignment, ZoneInfo(timezone))
    for module in FORMATS:
        module.read_notes(entries, context)
    return [_one(entry, context) for entry in entries]


def _one(entry, context):
    shown = entry.path.as_posix()
    if entry.path.parts[0] == "__MACOSX" or entry.path.name in NOISE or entry.path.name.startswith("._"):
        return Ignored(shown, "operating-system metadata", "operating-system file", listed=False)
    for module in FORMATS:
        result = module.parse(entry, context)
        if result is not None:
            return result
    if entry.path.suffix != ".ipynb":
        return Ignored(shown, "not a notebook", "non-notebook file")
    return (
        shown,
        "name in no known layout (Canvas, Moodle, Blackboard, Brightspace, Gradescope, <student>/<notebook>.ipynb)",
    )


__all__ = ["recognise", "Found", "Ignored"]
