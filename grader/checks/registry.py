"""Where each exercise's checks live: one module per notebook, found by exercise name."""
import functools
import importlib

NOTEBOOKS = {
    "basics": "01_attention_basics.ipynb",
    "step_by_step": "02_self_attention_step_by_step.ipynb",
    "numpy_attention": "03_attention_in_numpy.ipynb",
    "causal": "04_causal_self_attention.ipynb",
    "multi_head": "05_multi_head_attention.ipynb",
}


@functools.cache
def _parts(package):
    table = {}
    for module_name in NOTEBOOKS:
        module = importlib.import_module(f"{package}.{module_name}")
        for name, parts in module.PARTS.items():
            table[name] = (module_name, parts)
    return table


def visible_parts(name):
    """The checks a student may see and run, for one exercise."""
    return _parts("grader.checks")[name][1]


def exercise_names():
    return list(_parts("grader.checks"))


def notebook_of(name):
    return NOTEBOOKS[_parts("grader.checks")[name][0]]


def exercise_of_grade_id(grade_id):
    """The exercise a test cell grades: its grade_id is the exercise name followed by ``_test``."""
    name = grade_id.removesuffix("_test")
    return name if name in _parts("grader.checks") else None
