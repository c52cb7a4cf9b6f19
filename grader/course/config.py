"""The kit's nbgrader settings, added to a course's own: ``use_the_kit(c)`` at the end of its ``nbgrader_config.py``.

The course's choices stay: its folders, ignore list, exchange, late-penalty plugin, every value it sets. In each
list of steps (the course's, or nbgrader's when it sets none) the kit's steps take the place of nbgrader's; the
lists and tables the kit extends get its entries; a single value is the kit's only where the course sets none.
``python -m grader adopt`` adds the call to a course's file; :func:`uses_the_kit` is how a command knows that a
course grades in the kit's sandbox.
"""

from nbconvert.exporters import HTMLExporter
from nbgrader.converters import Autograde, GenerateAssignment, GenerateFeedback
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import CheckCellMetadata, DeduplicateIds, Execute, GetGrades, OverwriteCells, SaveAutoGrades
from traitlets.config.loader import LazyConfigValue
from traitlets.utils.importstring import import_item

from ..autograde.flags import FlagForReview
from ..autograde.jobs import DEFAULT_LIMITS
from ..autograde.metadata import CheckCellMetadataOnce
from ..autograde.preprocessors import DetectTampering, QuietOverwriteCells, SandboxExecute, ValidNotebook
from ..boundary.exchange import RegularFilesCollect
from ..feedback.exporter import FeedbackExporter
from ..feedback.preprocessor import KitFeedback
from ..release.how_to_check import SelfCheckInInstructions
from ..release.worth import WorthInTitle

# (converter, its list of steps): {nbgrader's step: the steps in its place; None: the steps before all}
STEPS = {
    (GenerateAssignment, "preprocessors"): {None: [WorthInTitle, SelfCheckInInstructions]},
    (Autograde, "sanitize_preprocessors"): {
        DeduplicateIds: [DetectTampering, DeduplicateIds],
        OverwriteCells: [QuietOverwriteCells],
        CheckCellMetadata: [CheckCellMetadataOnce],
    },
    (Autograde, "autograde_preprocessors"): {
        Execute: [SandboxExecute],
        SaveAutoGrades: [ValidNotebook, SaveAutoGrades, FlagForReview],
        CheckCellMetadata: [CheckCellMetadataOnce],
    },
    (GenerateFeedback, "preprocessors"): {GetGrades: [GetGrades, KitFeedback]},
}
# (configurable, its list): the kit's entries, added after the course's
ENTRIES = {
    (CourseDirectory, "ignore"): ["*.ipynb.invalid"],  # a notebook set aside as unreadable
    (HTMLExporter, "preprocessors"): ["grader.boundary.safe_html.SafeNames", "grader.boundary.safe_html.SafeOutputs"],
}
# (configurable, its table): the kit's keys
KEYS = {
    (HTMLExporter, "filters"): {
        "clean_html": "grader.boundary.safe_html.clean_html",
        "markdown2html": "grader.boundary.safe_html.SafeMarkdown",
    }
}
# setting (its sections, its name): the kit's value
VALUES = {
    ("ExchangeFactory", "collect"): RegularFilesCollect,  # a submission's regular files only (boundary/exchange.py)
    ("GenerateFeedback", "exporter_class"): FeedbackExporter,
    ("GenerateFeedback", "post_convert_hook"): "grader.autograde.missing.drop_stand_in_pages",
    ("HTMLExporter", "sanitize_html"): True,  # a student's Markdown and outputs shown with nothing that runs
    ("Autograde", "Exporter", "optimistic_validation"): True,  # ValidNotebook validates before the grades are saved
}
# nbgrader's time for a cell, where a course may set it (the first found counts)
TIMEOUTS = ("Execute", "ExecutePreprocessor", "NotebookClient")


def use_the_kit(c):
    """Add the kit's settings to the course's configuration ``c``; return the kit's settings the course sets its own
    way, kept (``c.Section.name``)."""
    kept = []
    for (kind, name), rules in STEPS.items():
        c[kind.__name__][name] = in_place(current(c, kind, name), rules)
    for (kind, name), entries in ENTRIES.items():
        own = current(c, kind, name)
        c[kind.__name__][name] = own + [entry for entry in entries if entry not in own]
    for (kind, name), keys in KEYS.items():
        own = current(c, kind, name)
        kept += [f"c.{kind.__name__}.{name}[{key!r}]" for key in keys if own.get(key, keys[key]) != keys[key]]
        c[kind.__name__][name] = {**keys, **own}
    for (*sections, name), value in VALUES.items():
        section = c
        for part in sections:
            section = section[part]
        if name not in section:
            section[name] = value
        elif section[name] != value:
            kept.append(f"c.{'.'.join(sections)}.{name}")
    carry_timeout(c)
    return kept


def uses_the_kit(config):
    """Whether a course's loaded nbgrader ``config`` grades in the kit's sandbox: SandboxExecute among its
    autograde steps (by class or dotted name)."""
    steps = current(config, Autograde, "autograde_preprocessors")
    return any(isinstance(step, type) and issubclass(step, SandboxExecute) for step in map(resolved, steps))


def current(config, kind, name):
    """The value of ``kind``'s setting ``name`` in ``config``: the course's, or nbgrader's default."""
    default = kind.class_traits()[name].default()
    value = config[kind.__name__].get(name, default)
    return value.get_value(default) if isinstance(value, LazyConfigValue) else value  # c.X.name.append(...)


def in_place(steps, rules):
    """``steps`` with the kit's in the place of nbgrader's; as they are if the kit's are there already."""
    classes = [resolved(step) for step in steps]
    kits = {new for replacement in rules.values() for new in replacement} - set(rules)
    if kits & set(classes):
        return steps
    return [*rules.get(None, []), *(new for step, kind in zip(steps, classes) for new in rules.get(kind, [step]))]


def resolved(step):
    """A step as a class (nbconvert takes a class, its dotted name or an instance); a name that cannot be imported
    as it is."""
    if isinstance(step, str):
        try:
            return import_item(step)
        except ImportError:
            return step
    return step if isinstance(step, type) else type(step)


def carry_timeout(c):
    """The sandbox's time for a cell, where the course sets none: nbgrader's for a cell, as the course sets it; the
    time for a notebook at least as much."""
    given = next(
        (c[name].timeout for name in TIMEOUTS if "timeout" in c[name]), Execute.class_traits()["timeout"].default()
    )
    if "unit_seconds" not in c.SandboxExecute and given is not None and given > 0:
        c.SandboxExecute.unit_seconds = float(given)
        if "notebook_seconds" not in c.SandboxExecute and given > DEFAULT_LIMITS["notebook_seconds"]:
            c.SandboxExecute.notebook_seconds = float(given)


def sandbox_seconds(config):
    """The sandbox's seconds for a cell and for a notebook, as ``config`` sets them."""
    sandbox = SandboxExecute(config=config)
    return sandbox.unit_seconds, sandbox.notebook_seconds
