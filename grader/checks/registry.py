"""Where each exercise's checks live, found rather than listed: every module of ``grader.exercises`` that names
its notebook (``NOTEBOOK``) and gives its exercises' parts (``PARTS``).

The kit's modules hold the hidden parts too; the student's copies, which the release compiles
(grader/release/compile.py), hold the visible parts only, and what each exercise is worth (``POINTS``), which the
build reads from the test cells' metadata (grader/checks/notebook.py reads it in the kit).
"""

import functools
import importlib
import pathlib
import pkgutil

from .declared import declarations

PACKAGE = "grader.exercises"
SOLUTIONS = pathlib.Path(__file__).resolve().parents[2] / "solutions"  # the kit's own, beside the package


@functools.cache
def modules():
    """{module name: module} of the exercise modules, in their notebooks' order."""
    package = importlib.import_module(PACKAGE)
    found = [importlib.import_module(f"{PACKAGE}.{info.name}") for info in pkgutil.iter_modules(package.__path__)]
    found = sorted((m for m in found if hasattr(m, "NOTEBOOK") and hasattr(m, "PARTS")), key=lambda m: m.NOTEBOOK)
    return {module.__name__.rpartition(".")[2]: module for module in found}


@functools.cache
def _parts():
    return {name: (module, parts) for module in modules().values() for name, parts in module.PARTS.items()}


def read_unless_imported():
    """What the exercise modules declare, read from their source (grader/checks/declared.py), where they are not
    imported; None where they are (ask them: reading costs about 0.1 s) or the reading cannot be sure."""
    return None if modules.cache_info().currsize else declarations(PACKAGE)


def _declared():
    """The exercises' names, without importing the modules where they are not imported yet."""
    read = read_unless_imported()
    if read is None:
        return set(_parts())
    return {name for declared in read for name in declared.exercises}


def notebooks():
    """The notebooks that have kit exercises, in order."""
    return sorted({module.NOTEBOOK for module in modules().values()})


def visible_parts(name):
    """The checks a student may see and run, for one exercise."""
    return [part for part in _parts()[name][1] if not part.hidden]


def hidden_parts(name):
    """The hidden checks of one exercise (none in the student's copy, or for an exercise with visible ones only)."""
    found = _parts().get(name)
    return [part for part in found[1] if part.hidden] if found else []


def exercise_names():
    return list(_parts())


def module_of(name):
    """The exercise module that holds exercise ``name``'s parts."""
    return _parts()[name][0]


def notebook_of(name):
    return _parts()[name][0].NOTEBOOK


def _named(grade_id):
    """The exercise a test cell's grade_id names: the exercise's name followed by ``_test``."""
    return grade_id.removesuffix("_test")


def exercise_of_grade_id(grade_id):
    """The exercise a test cell grades, if it is a kit exercise."""
    name = _named(grade_id)
    return name if name in _parts() else None


def grades_exercise(grade_id, name):
    """Whether a test cell of ``grade_id`` grades the kit exercise ``name`` (:func:`exercise_of_grade_id`'s rule,
    with no module to import: ``name`` is one)."""
    return _named(grade_id) == name


def graded_exercise(grade_id):
    """:func:`exercise_of_grade_id` for a process that runs no check (the feedback pages, the export, the report):
    the exercise modules are not imported for it (:func:`_declared`)."""
    name = _named(grade_id)
    return name if name in _declared() else None
