"""One notebook of a student's cell and plain test cells, graded by one warm worker: each test cell's unit result
(tests/sandbox/test_judge.py, test_judge_semantics.py)."""

from nbformat.v4 import new_code_cell, new_notebook

from grader.autograde.jobs import build_job
from grader.sandbox.pool import Pool

from ..extended_course import graded


def grade_test_cells(student, tests, course, limits, **folders):
    """{test cell name: (its unit, its result)}, and the result of the student's cell; ``tests`` is {name: source},
    ``folders`` the job's ``folder`` and ``source``."""
    cells = [new_code_cell(student)]
    cells += [graded(new_code_cell(source), name, points=1, grade=True, locked=True) for name, source in tests.items()]
    job, _ = build_job(new_notebook(cells=cells), course, limits, **folders)
    pool = Pool(1, "none")
    try:
        result = pool.run(job)
    finally:
        pool.close()
    return dict(zip(tests, zip(job["units"][1:], result["units"][1:]))), result["units"][0]
