"""The build's student copy of each exercise module (grader/release/compile.py): the visible parts exactly as the
kit's own module has them, and nothing that only the hidden parts use."""

import ast
import textwrap
import types

import pytest

from grader.boundary.student_safe import exercise_modules
from grader.checks import plain
from grader.checks.notebook import solution_points
from grader.release.compile import student_module

NAMES = sorted(exercise_modules())


def loaded(source, name):
    """``source`` run as a module of ``grader.exercises``, as the package would import it: a fresh module (a
    visible part may draw its inputs from a generator of its module's, so two copies are compared fresh)."""
    module = types.ModuleType(f"grader.exercises.{name.rpartition('/')[2].removesuffix('.py')}_copy")
    module.__package__ = "grader.exercises"
    exec(compile(source, name, "exec"), module.__dict__)
    return module


def student_copy(name):
    """The compiled copy of the exercise module at ``name``."""
    return loaded(student_module(exercise_modules()[name].read_text(), name, solution_points()), name)


def kits(name):
    """The kit's own exercise module at ``name``, fresh."""
    return loaded(exercise_modules()[name].read_text(), name)


def described(parts):
    """What a student meets of parts: their titles, weights and kinds, and each case's label and request."""
    return [
        (p.title, p.points, p.gate, p.requires, [(c.label, plain.dumps(c.request()), c.batch) for c in p.cases()])
        for p in parts
    ]


@pytest.mark.parametrize("name", NAMES)
def test_the_student_copy_has_the_visible_parts_exactly(name):
    copy, kit = student_copy(name), kits(name)
    words = [getattr(module, "MISCONCEPTIONS", ()) for module in (copy, kit)]
    assert (copy.NOTEBOOK, words[0]) == (kit.NOTEBOOK, words[1])
    assert copy.POINTS == {exercise: solution_points()[exercise] for exercise in kit.PARTS}
    assert not hasattr(kit, "POINTS")  # the kit reads them from the notebooks' metadata
    assert list(copy.PARTS) == list(kit.PARTS)
    for exercise, parts in kit.PARTS.items():
        assert not any(p.hidden for p in copy.PARTS[exercise])
        assert described(copy.PARTS[exercise]) == described([p for p in parts if not p.hidden]), exercise


@pytest.mark.parametrize("name", NAMES)
def test_the_student_copy_holds_nothing_only_the_hidden_parts_use(name):
    copy, kit = student_copy(name), kits(name)
    assert any(p.hidden for parts in kit.PARTS.values() for p in parts) and hasattr(kit, "WRONG_ANSWERS")
    assert not {"WRONG_ANSWERS", "reference", "known", "diagnosis", "Wrong", "edit"} & set(vars(copy))
    tree = ast.parse(student_module(exercise_modules()[name].read_text(), name))
    assert not [k for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords if k.arg == "hidden"]


MODULE = '''\
    """An exercise module."""
    import numpy as np
    from .. import reference
    from ..checks.cases import Case, Part

    NOTEBOOK = "07_x.ipynb"
    SHARED = np.arange(3)  # used by both halves


    def _visible():
        return [Case("shared", None, {"x": SHARED})]


    # ---- hidden ----
    # Only the hidden part uses this.
    SECRET = np.ones(3)


    def _hidden():
        return [Case("secret", None, {"x": SECRET + SHARED, "y": reference.of(NOTEBOOK)})]


    PARTS = {"x": [
        Part("visible", 1, _visible),
        Part("hidden", 1, _hidden,
             hidden=True),
    ]}
    POINTS = {"x": 2}
'''


def test_the_compiler_keeps_what_the_visible_part_reaches_and_drops_the_rest():
    text = student_module(textwrap.dedent(MODULE))
    assert "SHARED = np.arange(3)  # used by both halves" in text and "def _visible" in text
    assert "SECRET" not in text and "_hidden" not in text and "reference" not in text and "hidden=True" not in text
    assert 'Part("visible", 1, _visible),\n]}' in text  # the rest of PARTS as written
    assert "import numpy as np\nfrom ..checks.cases import Case, Part\n" in text


def test_a_hidden_part_sharing_a_line_with_a_visible_one_is_refused():
    shared = (
        textwrap.dedent(MODULE)
        .replace('Part("hidden", 1, _hidden,\n             hidden=True),\n', "")
        .replace(
            'Part("visible", 1, _visible),', 'Part("visible", 1, _visible), Part("hidden", 1, _hidden, hidden=True),'
        )
    )
    with pytest.raises(ValueError, match="lines of its own"):
        student_module(shared)
