"""Where each exercise's checks live, found rather than listed: every module of a checks package
that names its notebook (``NOTEBOOK``) and gives its exercises' parts (``PARTS``); a visible
module also says what each exercise is worth (``POINTS``), as the student's copy holds no hidden part."""
import functools
import importlib
import pkgutil


@functools.cache
def modules(package):
    """{module name: module} of the checks modules in ``package``, in name order."""
    found = {}
    for info in sorted(pkgutil.iter_modules(importlib.import_module(package).__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package}.{info.name}")
        if hasattr(module, "NOTEBOOK") and hasattr(module, "PARTS"):
            found[info.name] = module
    return found


@functools.cache
def _parts(package):
    return {name: (module, parts) for module in modules(package).values() for name, parts in module.PARTS.items()}


def notebooks():
    """The notebooks that have kit exercises, in order."""
    return sorted({module.NOTEBOOK for module in modules("grader.checks").values()})


def visible_parts(name):
    """The checks a student may see and run, for one exercise."""
    return _parts("grader.checks")[name][1]


def exercise_points(name):
    """What exercise ``name`` is worth in its notebook: its test cell's points (a test holds the two to agree);
    its parts' points are weights on that scale."""
    return _parts("grader.checks")[name][0].POINTS[name]


def exercise_names():
    return list(_parts("grader.checks"))


def notebook_of(name):
    return _parts("grader.checks")[name][0].NOTEBOOK


def exercise_of_grade_id(grade_id):
    """The exercise a test cell grades: its grade_id is the exercise name followed by ``_test``."""
    name = grade_id.removesuffix("_test")
    return name if name in _parts("grader.checks") else None
