"""Broken submissions: answers that hang, crash or define nothing, and notebooks that were tampered with.

Answer kinds map to the exercise status the grader must report (grader.autograde.record).
"""

import re

from ..checks.cells import definition
from ..checks.notebook import exercise_cells
from .cells import demo_cells, grade_id

STUB_BODY = re.compile(r"^([ \t]*)raise NotImplementedError\(\)", re.MULTILINE)

ANSWER_STATUS = {
    "loop_definition": "timeout",  # waits for ever while the answer cell runs; the exercise is never defined
    "loop_call": "timeout",  # waits for ever when the test cell calls it
    "crash_call": "crashed",  # kills the kernel when the test cell calls it
    "undefined": "undefined",  # the answer cell defines another name
}
ANSWER_BREAKERS = tuple(ANSWER_STATUS)
NOTEBOOK_BREAKERS = ("invalid", "deleted_test", "edited_test")
EDITED_TEST = 'grade = 3.0\nprint("ok")\n'


def _replace_body(stub, lines):
    if not STUB_BODY.search(stub):
        raise ValueError("the stub has no `raise NotImplementedError()` to replace")
    return STUB_BODY.sub(lambda m: "\n".join(m.group(1) + line for line in lines), stub, count=1)


def broken_answer(kind, name, stub, reference):
    """The source of a ``kind`` answer to exercise ``name``, made from its stub or its reference."""
    if kind == "loop_definition":
        return "import time\n\nwhile True:  # wait until the data is ready\n    time.sleep(1)\n\n" + reference
    if kind == "loop_call":
        return _replace_body(
            stub, ["import time", "while True:  # wait for the weights to settle", "    time.sleep(1)"]
        )
    if kind == "crash_call":
        return _replace_body(stub, ["import os", "os._exit(1)"])
    if kind == "undefined":
        return definition(name).sub(r"\g<0>_draft", reference, count=1)
    raise ValueError(kind)


def comment_out_demos(nb, name):
    """Comment out the narrative cells that call ``name``, as a student whose code hangs there would.

    The hang or crash then happens in ``name``'s test cell, where the grader can name the exercise.
    """
    for cell in demo_cells(nb, name):
        cell.source = "\n".join("# " + line if line else line for line in cell.source.splitlines())


def tamper(nb, kind, name):
    """Delete or edit the test cell of exercise ``name`` in place; the tampered record the grader should report."""
    cell = exercise_cells(nb)[name]
    if kind == "deleted_test":
        nb.cells.remove(cell)
        return [{"grade_id": grade_id(cell), "change": "deleted"}]
    if kind == "edited_test":
        cell.source = EDITED_TEST
        return [{"grade_id": grade_id(cell), "change": "edited"}]
    raise ValueError(kind)


def truncate(text):
    """An unreadable notebook: the file cut off halfway, as by an interrupted upload."""
    return text[: len(text) // 2]
