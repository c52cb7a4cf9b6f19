"""What makes a regrade's preview stale, so that ``regrade --apply`` grades again, and the one line that says why: a
change to anything grading or the diff reads (a file handed in, the release, the kit's code, Python, the course's
configuration, the gradebook, a grading record), or to the preview's result set itself (its file, its scratch
course's files, grades or configuration, a link put in it, an application begun). One preview is made; each change
is made to the course as it was then, and :func:`grader.regrade.preview.current` says whether the preview holds."""

import datetime
import json
import shutil
import sys

import pytest
from nbgrader.api import Gradebook

from grader.cli import main
from grader.course import Course
from grader.regrade import preview
from grader.regrade.select import select

from ..course_builder import ASSIGNMENT, BASICS
from .class_of_one import CELL, STUDENT, set_score

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

STEM = BASICS.removesuffix(".ipynb")


@pytest.fixture(scope="module")
def previewed(right, kit_as_it_was, tmp_path_factory):
    """(the course, previewed: its softmax_scores score wrongly 0; a copy of it and of the kit's code as they were)."""
    course = shutil.copytree(right, tmp_path_factory.mktemp("stale") / "kit course's copy")
    set_score(course, 0.0)
    main(["regrade", "--course", str(course), "--student", STUDENT, "--notebook", "01", "--workers", "1"])
    kept = tmp_path_factory.mktemp("kept")
    shutil.copytree(course, kept / "course", symlinks=True)
    shutil.copytree(kit_as_it_was, kept / "grader", symlinks=True)
    return course, kept


@pytest.fixture
def course(previewed, kit_as_it_was):
    """The course and the kit's code as they were when previewed."""
    course, kept = previewed
    for folder, saved in ((course, kept / "course"), (kit_as_it_was, kept / "grader")):
        shutil.rmtree(folder)
        shutil.copytree(saved, folder, symlinks=True)
    return course


def why(course):
    """Why the preview no longer holds, or None when it does."""
    live = Course.at(course)
    selection = select(live, [STUDENT], ["01"])
    found, reason = preview.current(live, selection, preview.inputs(live, selection))
    assert (found is None) == (reason is not None)
    return reason


def result_set(course):
    [folder] = (course / "grading" / ASSIGNMENT / "regrade").glob("20*")
    return folder


def append(path, text):
    """``text`` added to ``path`` by whoever owns it: nbgrader leaves autograded notebooks read-only (0444)."""
    path.chmod(path.stat().st_mode | 0o200)
    path.write_bytes(path.read_bytes() + text)


def in_gradebook(database, change):
    with Gradebook(f"sqlite:///{database}") as book:
        change(book)
        book.db.commit()


def stored(course, change):
    """Change the preview's file as JSON."""
    path = result_set(course) / preview.PREVIEW
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def linked(path):
    """``path`` replaced by a link to a copy of it."""
    copy = path.with_name(f"{path.name}.copy")
    path.rename(copy)
    path.symlink_to(copy)


def manual_grade(book):
    book.find_grade(CELL, STEM, ASSIGNMENT, STUDENT).manual_score = 1.0


def extension(book):
    book.find_submission(ASSIGNMENT, STUDENT).extension = datetime.timedelta(days=1)


def due_date(book):
    book.find_assignment(ASSIGNMENT).duedate = datetime.datetime(2030, 1, 1)


def scratch_score(book):
    book.find_grade(CELL, STEM, ASSIGNMENT, STUDENT).auto_score = 1.0


def shown_score(data):
    data["changes"][0]["after"] = 50


def scratch(course):
    return result_set(course) / "course"


SUBMITTED = ("submitted", STUDENT, ASSIGNMENT)
CHANGES = {  # what changes: (how, the words that say so)
    "the notebook handed in": (
        lambda c, kit: append(c.joinpath(*SUBMITTED, BASICS), b"\n"),
        f"a file handed in changed since the preview: {STUDENT}/{BASICS}",
    ),
    "a file handed in beside it": (
        lambda c, kit: c.joinpath(*SUBMITTED, "timestamp.txt").write_text("2026-03-02 19:00:00"),
        f"a file handed in appeared since the preview: {STUDENT}/timestamp.txt",
    ),
    "the released notebook": (
        lambda c, kit: append(c / "exercises" / ASSIGNMENT / BASICS, b"\n"),
        f"the release changed since the preview: release/{BASICS}",
    ),
    "the source notebook": (
        lambda c, kit: append(c / "solutions" / ASSIGNMENT / BASICS, b"\n"),
        f"the release changed since the preview: source/{BASICS}",
    ),
    "an exercise module": (
        lambda c, kit: append(kit / "exercises" / "basics.py", b"\n"),
        "the kit's grading code changed since the preview: grader/exercises/basics.py",
    ),
    "a setting": (
        lambda c, kit: append(c / "nbgrader_config.py", b"\nc.SandboxExecute.unit_seconds = 5\n"),
        "the course's configuration changed since the preview: nbgrader_config.py",
    ),
    "a manual grade": (
        lambda c, kit: in_gradebook(c / "gradebook.db", manual_grade),
        f"the gradebook changed since the preview: {STUDENT}/{BASICS}",
    ),
    "an extension": (
        lambda c, kit: in_gradebook(c / "gradebook.db", extension),
        f"the gradebook changed since the preview: student {STUDENT}",
    ),
    "the due date": (
        lambda c, kit: in_gradebook(c / "gradebook.db", due_date),
        "the gradebook changed since the preview: the assignment",
    ),
    "the grading record": (
        lambda c, kit: append(c / "grading" / ASSIGNMENT / STUDENT / f"{STEM}.json", b"\n"),
        f"a grading record changed since the preview: {STUDENT}/{BASICS}",
    ),
    "the preview, not JSON": (
        lambda c, kit: (result_set(c) / preview.PREVIEW).write_text("{"),
        "cannot be used: it is not a preview the kit wrote",
    ),
    "the preview, a key added": (
        lambda c, kit: stored(c, lambda data: data.update(more=1)),
        "cannot be used: it is not a preview the kit wrote",
    ),
    "the preview, a link": (
        lambda c, kit: linked(result_set(c) / preview.PREVIEW),
        "cannot be used: it cannot be opened as a file",
    ),
    "the score the preview shows": (
        lambda c, kit: stored(c, shown_score),
        "the scores found now are not those the preview showed",
    ),
    "the scratch course's autograded notebook": (
        lambda c, kit: append(scratch(c) / "autograded" / STUDENT / ASSIGNMENT / BASICS, b"\n"),
        f"a file of the preview's scratch course changed since the preview: course/autograded/{STUDENT}/"
        f"{ASSIGNMENT}/{BASICS}",
    ),
    "the scratch course's gradebook": (
        lambda c, kit: in_gradebook(scratch(c) / "gradebook.db", scratch_score),
        f"a grade of the preview's scratch gradebook changed since the preview: {STUDENT}/{BASICS}",
    ),
    "a link in the result set": (
        lambda c, kit: linked(result_set(c) / "diff.html"),
        "the preview's result set holds diff.html: a symbolic link",
    ),
    "an application begun": (
        lambda c, kit: (result_set(c) / "previous").mkdir(),
        "was partly applied already",
    ),
}


def test_the_preview_holds_while_nothing_changed(course):
    assert why(course) is None


@pytest.mark.parametrize("what", CHANGES)
def test_a_change_makes_the_preview_stale_and_is_named(course, kit_as_it_was, what):
    change, words = CHANGES[what]
    change(course, kit_as_it_was)
    reason = why(course)
    assert reason is not None and words in reason and "\n" not in reason


def test_another_python_makes_the_preview_stale(course, monkeypatch):
    monkeypatch.setattr(sys, "version", "3.99.0")
    assert "the Python environment changed since the preview: Python" in why(course)


def test_the_scratch_course_configuration_is_never_run_unless_it_is_the_kits_own(course, tmp_path):
    ran = tmp_path / "ran"
    append(scratch(course) / "nbgrader_config.py", f"\nopen({str(ran)!r}, 'w').close()\n".encode())
    assert "the configuration of the preview's scratch course is not the kit's" in why(course)
    assert not ran.exists()
