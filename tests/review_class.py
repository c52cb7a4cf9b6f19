"""A small autograded class with one student for each status that needs a person: timed out, crashed,
a changed test cell, a file that is not a notebook (and notebooks not handed in), a student whose only file is
not a notebook, and one correct student."""

import nbformat

from grader.demo.broken import broken_answer, comment_out_demos, tamper
from grader.demo.cells import grade_id
from grader.demo.generate import RELEASE, SOLUTIONS, DemoNotebooks

from .course_builder import BASICS, autograde, make_course, submit

STEP = "02_self_attention_step_by_step.ipynb"


def broken_exercise(course, besides=()):
    """An exercise of notebook 01 that no other one uses, none of ``besides``: safe to hang or crash."""
    return next(name for nb, name in course.safe() if nb == BASICS and name not in besides)


def notebook_01(course, name=None, answer=None, answers=None):
    """Notebook 01 answered with the reference, or with ``answers`` ({grade id: source}); exercise ``name`` answered
    the ``answer`` way (a broken-answer kind), the narrative cells that call it left out."""
    sources = {grade_id(course.cells[BASICS][n]): course.references[BASICS][n] for n in course.cells[BASICS]}
    sources.update(answers or {})
    if name:
        sources[grade_id(course.cells[BASICS][name])] = broken_answer(
            answer, name, course.cells[BASICS][name].source, course.references[BASICS][name]
        )
    nb = nbformat.read(RELEASE / BASICS, as_version=4)
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") in sources:
            cell.source = sources[cell.metadata.nbgrader.grade_id]
    if name:
        comment_out_demos(nb, name)
    return nb


def review_class(released, folder):
    """(course, the exercise broken for slow and crash, autograde's finished process), graded in a copy of the
    ``released`` course."""
    course = make_course(released, folder)
    kit = DemoNotebooks(RELEASE, SOLUTIONS)
    name = broken_exercise(kit)
    submit(course, "good", notebook_01(kit))
    submit(course, "slow", notebook_01(kit, name, "loop_call"))
    submit(course, "crash", notebook_01(kit, name, "crash_call"))
    edited = notebook_01(kit)
    tamper(edited, "edited_test", name)
    submit(course, "tamper", edited)
    submit(course, "garbled", (RELEASE / BASICS).read_text()[:500])
    submit(course, "garbled", nbformat.read(RELEASE / STEP, as_version=4), STEP)  # stubs: a readable notebook
    submit(course, "torn", (RELEASE / STEP).read_text()[:300], STEP)  # nothing readable at all
    done = autograde(course)
    assert done.returncode == 0, done.stderr[-3000:]
    return course, name, done
