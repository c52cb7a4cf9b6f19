"""``run_autograder``: grade the submission in Gradescope's /autograder (or ``AUTOGRADER_ROOT``) and write results.json;
with ``--prairielearn``, in PrairieLearn's /grade, and PrairieLearn's results.json.

The student's notebooks are matched to the assignment's (:mod:`.submission`), put in the zip's
course as the one student ``submission``, and graded by the autograde verb (as the
demo drives the verbs): the same sandbox, rules and limits as on the instructor's machine, the scores in the
zip's gradebook.
"""

import json
import os
import shutil
import sys
import time
import traceback

from ..autograde.run import autograde
from ..boundary.machine_paths import without_machine_paths
from ..checks.cells import is_test_cell
from ..checks.notebook import read
from ..course import Course
from ..course.gradebook import enrol
from ..course.grades import course_grades
from ..records import GRADED
from ..tutor.page import notebook_notes
from . import prairielearn
from . import results as gradescope_results
from .graded_cells import notebook_tests, read_autograded, without_machine_paths_in
from .layout import ROOT_VARIABLE, STUDENT, Layout
from .submission import find

ASSIGNMENT = "self_attention"


def released_tests(course):
    """{released notebook file name: the grade_ids of its test cells}."""
    return {
        p.name: {c.metadata["nbgrader"]["grade_id"] for c in read(p).cells if is_test_cell(c)}
        for p in sorted(course.release.glob("*.ipynb"))
    }


def hand_in(course, found):
    """Put the matched notebooks in the course as the one student's submission (a rerun starts afresh)."""
    for earlier in (course.submitted(STUDENT), course.autograded(STUDENT), course.grading / STUDENT):
        shutil.rmtree(earlier, ignore_errors=True)
    folder = course.submitted(STUDENT)
    folder.mkdir(parents=True)
    for name, data in found.notebooks.items():
        (folder / name).write_bytes(data)  # the bytes find() read, never the upload's path again
    enrol(course, STUDENT)  # a student who uploads nothing still gets every notebook's zeros


def grade(layout, writer, assignment=ASSIGNMENT):
    """Grade the submission; return the results ``writer`` makes of them (a dict)."""
    started = time.monotonic()
    course = Course.at(layout.course, assignment)
    found = find(layout.submission, released_tests(course))
    hand_in(course, found)
    table = autograde(course=course, force=True, workers=1)
    print(table)
    tests, messages, extra = [], list(found.messages), {"notebooks": {}}
    autograded = course.autograded(STUDENT)
    for position, graded in enumerate((g for g in course_grades(course) if g.student == STUDENT), 1):
        tests += notebook_tests(position, graded, read_autograded(autograded / graded.notebook))
        extra["notebooks"][graded.notebook] = {
            "status": graded.status,
            "reason": graded.reason,
            "isolation": graded.isolation,
            "tampered": graded.tampered,
        }
        print(f"{graded.notebook}: {graded.status}; isolation: {graded.isolation}; tampered: {graded.tampered}")
        if graded.status not in (GRADED, "missing") or graded.tampered:  # missing: said by find()
            messages.append(f"<p><b>{graded.notebook}</b></p>{notebook_notes(graded)}")
    folders = (layout.root, course.root)  # a last gate: what reaches the student names no folder of this machine
    tests = [without_machine_paths_in(test, folders) for test in tests]
    messages = [without_machine_paths(message, folders) for message in messages]
    return writer(tests, messages, time.monotonic() - started, extra)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--prairielearn" in argv:
        layout, write, failed = Layout.prairielearn(), prairielearn.prairielearn, prairielearn.not_graded
    else:
        layout, write, failed = Layout.gradescope(), gradescope_results.gradescope, gradescope_results.not_graded
    os.environ[ROOT_VARIABLE] = str(layout.root)  # the folder the zip's configuration hides from submissions
    started = time.monotonic()
    try:
        results = grade(layout, write)
    except Exception as error:  # the instructor sees why in stdout; the student gets a plain message
        traceback.print_exc(file=sys.stdout)
        results = failed(f"{type(error).__name__}: {error}", time.monotonic() - started)
    layout.results.parent.mkdir(parents=True, exist_ok=True)
    tmp = layout.results.with_suffix(".tmp")
    tmp.write_text(json.dumps(results, indent=1))
    os.replace(tmp, layout.results)


if __name__ == "__main__":
    main()
