"""``demo``: a whole course round on the generated demo class, checked against the generator's grades."""

import pathlib
import shutil
import sys
import tempfile
import time
import zipfile

from ..cli.summaries import feedback_summary, summary
from ..course import Course
from ..course.gradebook import enrol as enrol_student
from ..course.grades import course_grades
from ..records import GRADED
from .generate import make_class
from .roster import person

ROOT = pathlib.Path(__file__).resolve().parents[2]
ASSIGNMENT = "self_attention"
RENAMES = (lambda name: name.replace(".ipynb", " (1).ipynb"), lambda name: name.title().replace(".Ipynb", ".ipynb"))


def lms_zip(class_dir, plan, path):
    """The class as a Blackboard download: ``<assignment>_<student>_attempt_<time>_<notebook>`` and a receipt per
    attempt; a notebook of two students is renamed, as a browser or a student does."""
    students = sorted(p for p in pathlib.Path(class_dir).iterdir() if p.is_dir())
    renamed = {(d.name, sorted(d.glob("*.ipynb"))[0].name) for d in students[1:3] if any(d.glob("*.ipynb"))}
    with zipfile.ZipFile(path, "w") as archive:
        for number, student_dir in enumerate(students):
            student = student_dir.name
            stamp = plan.submitted_at[student].replace("T", "-").replace(":", "-")[:19]
            for notebook in sorted(student_dir.glob("*.ipynb")):
                name = RENAMES[number % 2](notebook.name) if (student, notebook.name) in renamed else notebook.name
                archive.write(notebook, f"gradebook_export/{ASSIGNMENT}_{student}_attempt_{stamp}_{name}")
            first, last, _ = person(student)
            archive.writestr(
                f"gradebook_export/{ASSIGNMENT}_{student}_attempt_{stamp}.txt",
                f"Name: {first} {last} ({student})\nAssignment: Self-attention\n",
            )
    return path


def new_course(course):
    """A fresh nbgrader course folder: the kit's config and its solutions."""
    shutil.rmtree(course, ignore_errors=True)
    course.mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copytree(ROOT / "solutions", course / "solutions")
    return course


def enrol(course, students):
    """Put the class roster in the gradebook, as an instructor does: a student who hands in nothing still counts."""
    for student in students:
        first, last, email = person(student)
        enrol_student(course, student, first_name=first, last_name=last, email=email)


def differences(plan, course):
    """Where the graded course (the gradebook's scores, the records' statuses) disagrees with the generator."""
    found = []
    grades = {(g.student, g.notebook): g for g in course_grades(course)}
    for (student, notebook), expected in sorted(plan.expected.items()):
        got = grades.get((student, notebook))
        if got is None:
            found.append(f"{student} {notebook}: not in the gradebook")
            continue
        if got.status != expected["status"]:
            found.append(f"{student} {notebook}: status {got.status}, expected {expected['status']}")
        scores = {c.name: (c.score or 0.0, _exercise_status(got, c)) for c in got.cells}
        for name, want in expected["exercises"].items():
            if scores.get(name) != (want["score"], want["status"]):
                found.append(
                    f"{student} {notebook} {name}: {scores.get(name)}, expected {(want['score'], want['status'])}"
                )
        tampered = sorted((t["grade_id"], t["change"]) for t in got.tampered)
        if tampered != sorted((t["grade_id"], t["change"]) for t in expected["tampered"]):
            found.append(f"{student} {notebook}: tampered {tampered}, expected {expected['tampered']}")
    return found


def _exercise_status(notebook, cell):
    """The status the kit gave the exercise (a notebook that did not run leaves its exercises ungraded)."""
    if cell.diagnosis is not None:
        return cell.diagnosis.status
    return "ungraded" if notebook.status != GRADED else cell.status


def demo(out="build/demo", lti=False):
    """Release, collect an LMS zip of the demo class, autograde, feedback, export, report; check the grades."""
    from ..autograde.run import autograde  # the verbs import PyTorch and nbgrader: not with new_course
    from ..collect import collect
    from ..export import export
    from ..feedback import feedback
    from ..release import release
    from ..report import report
    from ..similarity import similarity

    started = time.monotonic()
    course = Course.at(new_course(pathlib.Path(out).resolve() / "course"), ASSIGNMENT)
    say = lambda text: print(f"[{time.monotonic() - started:6.1f} s] {text}", file=sys.stderr)  # noqa: E731
    say(summary("release", release(course=course), course))
    with tempfile.TemporaryDirectory() as scratch:
        plan = make_class(pathlib.Path(scratch) / "class")
        lms_export = lms_zip(pathlib.Path(scratch) / "class", plan, course.root.parent / "lms_export.zip")
    course.run_nbgrader("db", "assignment", "add", ASSIGNMENT, f"--duedate={plan.due}")
    enrol(course, plan.students)
    (course.root.parent / "expected_grades.json").write_text(plan.to_json())
    say(f"collect from {lms_export}:\n{collect(lms_export, course=course)}")
    say("autograde")
    table = autograde(course=course)
    say("feedback (nbgrader generate_feedback), export, similarity, report")
    pages = feedback(course=course)
    grades = export(course=course)
    similar = similarity(course=course)  # before the report, which links its page
    page = report(course=course)
    mismatches = differences(plan, course)
    handed_in = sum(len(c["notebooks"]) for c in plan.composition.values())
    lines = [
        table,
        "",
        f"grades equal the generator's expectations: {'yes' if not mismatches else 'NO'} for "
        f"{len(plan.expected) - len(mismatches)} of the {len(plan.expected)} notebooks "
        f"({len(plan.students)} students, {handed_in} notebooks handed in, {len(plan.expected) - handed_in} not)",
        *mismatches,
        feedback_summary(pages, course),
        summary("export", grades, course),
        summary("report", page, course),
        f"demo finished in {time.monotonic() - started:.1f} s",
        summary("similarity", similar, course),
    ]
    if mismatches:
        raise SystemExit("\n".join(lines))
    if lti:  # the graded class posted to a test LTI 1.3 platform on 127.0.0.1 (grader/demo/lti.py)
        from .lti import post_demo_class

        lines.append(post_demo_class(course, plan.students))
    return "\n".join(lines)
