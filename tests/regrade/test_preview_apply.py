"""``regrade --apply`` after a preview applies the preview, and grades nothing, unless something it depends on changed
since; every command regrade prints as a hint runs as printed.

A class of one, whose id and course folder hold a space and a quote, hands in notebook 01 with right answers, is
graded, then its softmax_scores score is set to 0 in the gradebook (a wrong score to correct): a regrade shows
0 → full marks. Grading is counted where the kit hands students to nbgrader (``record_grades``) and where it starts
sandbox workers (``WarmUp``); the regrade commands run in this process (``python -m grader``'s ``main``)."""

import csv
import re
import shlex
import shutil
import subprocess
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook

from grader.autograde import run as autograde_run
from grader.cli import main
from grader.sandbox import pool

from ..course_builder import ASSIGNMENT, BASICS, worth
from .class_of_one import CELL, STUDENT, set_score

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

HINT = re.compile(r"python -m grader \w+ --course .*$", re.MULTILINE)


def scores(course):
    """{(student, notebook, grade_id): (auto_score, manual_score, needs_manual_grade)}, and each notebook's late
    penalty and flag: the whole gradebook's grades."""
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as book:
        found = {}
        for handed in book.assignment_submissions(ASSIGNMENT):
            for notebook in handed.notebooks:
                key = (handed.student.id, notebook.name)
                found[(*key, "late/flag")] = (notebook.late_submission_penalty, notebook.flagged)
                for grade in notebook.grades:
                    found[(*key, grade.name)] = (grade.auto_score, grade.manual_score, grade.needs_manual_grade)
        return found


@pytest.fixture
def course(right, kit_as_it_was, tmp_path):
    """The right answers' course, in a folder of this test's own with a space and a quote in its name, its
    softmax_scores score wrongly 0."""
    copy = shutil.copytree(right, tmp_path / "kit course's copy")
    set_score(copy, 0.0)
    return copy


@pytest.fixture
def counted(monkeypatch):
    """{"graded": students handed to nbgrader, "warmed": sandbox warm-ups started}, counted from now."""
    calls = {"graded": 0, "warmed": 0}
    record_grades, warm_up = autograde_run.record_grades, pool.WarmUp

    def counting_record_grades(course, fingerprints, *rest, **options):
        calls["graded"] += len(fingerprints)
        return record_grades(course, fingerprints, *rest, **options)

    class CountingWarmUp(warm_up):
        def __init__(self, *arguments, **options):
            calls["warmed"] += 1
            super().__init__(*arguments, **options)

    monkeypatch.setattr(autograde_run, "record_grades", counting_record_grades)
    monkeypatch.setattr(pool, "WarmUp", CountingWarmUp)
    return calls


def regrade(course, capsys, *options):
    """``python -m grader regrade`` on ``course`` for the student's notebook 01: (stdout, stderr)."""
    main(["regrade", "--course", str(course), "--student", STUDENT, "--notebook", "01", "--workers", "1", *options])
    return capsys.readouterr()


def result_sets(course):
    return sorted(p.name for p in (course / "grading" / ASSIGNMENT / "regrade").glob("20*"))


def shown(said):
    """The rows of the diff.csv whose path ``said`` (a regrade's output) names."""
    path = next(line.split("diff: ", 1)[1].split(" and ")[0] for line in said.splitlines() if line.startswith("diff: "))
    with open(path.replace("diff.html", "diff.csv"), newline="") as sheet:
        return [(r["student"], r["exercise"], float(r["before"]), float(r["after"])) for r in csv.DictReader(sheet)]


def hints(text):
    """Every command printed as a hint: what follows ``python -m grader <command> --course`` to the line's end."""
    assert "..." not in text
    return HINT.findall(text)


def run_hint(hint):
    """The hint run as printed: parsed as a shell parses it, then ``python -m grader``'s ``main``."""
    argv = shlex.split(hint)
    assert argv[:3] == ["python", "-m", "grader"]
    main(argv[3:])
    return argv


def test_the_apply_hint_applies_the_scores_the_preview_showed_grading_nothing_and_the_undo_hint_puts_them_back(
    course, counted, capsys
):
    points = worth(BASICS, "softmax_scores")
    before = scores(course)
    preview = regrade(course, capsys).out
    assert counted["graded"] == 1 and shown(preview) == [(STUDENT, "softmax_scores", 0, points)]
    assert scores(course) == before  # a preview changes nothing
    sets = result_sets(course)
    [apply] = hints(preview)
    counted.update(graded=0, warmed=0)
    assert run_hint(apply)[-1] == "--apply" and STUDENT in shlex.split(apply)
    applied = capsys.readouterr()
    assert (counted["graded"], counted["warmed"]) == (0, 0), applied
    assert result_sets(course) == sets and applied.out.splitlines()[:2] == preview.splitlines()[:2]
    key = (STUDENT, BASICS.removesuffix(".ipynb"), CELL)
    assert scores(course) == {**before, key: (points, *before[key][1:])}
    [undo] = hints(applied.out)
    run_hint(undo)
    assert STUDENT in capsys.readouterr().out and scores(course) == before


def test_apply_after_the_submission_changed_grades_again_and_says_why(course, counted, capsys):
    regrade(course, capsys)
    handed = course / "submitted" / STUDENT / ASSIGNMENT / BASICS
    nb = nbformat.read(handed, as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell("one more thought"))
    nbformat.write(nb, handed)
    counted.update(graded=0, warmed=0)
    applied = regrade(course, capsys, "--apply")
    assert counted["graded"] == 1
    said = [line for line in applied.err.splitlines() if "grading again" in line]
    assert len(said) == 1 and STUDENT in said[0] and BASICS in said[0] and "handed in" in said[0], applied.err
    points = worth(BASICS, "softmax_scores")
    assert shown(applied.out) == [(STUDENT, "softmax_scores", 0, points)] and "applied" in applied.out
    assert scores(course)[(STUDENT, BASICS.removesuffix(".ipynb"), CELL)][0] == points


def test_the_allow_lower_hint_runs_as_printed_and_grades_nothing_again(wrong, kit_as_it_was, tmp_path, counted, capsys):
    course = shutil.copytree(wrong, tmp_path / "kit course's copy")
    set_score(course, worth(BASICS, "softmax_scores"))  # a score the check no longer gives
    with pytest.raises(SystemExit) as stopped:
        regrade(course, capsys, "--apply")
    refusal = str(stopped.value.code)
    assert "refused: this regrade lowers" in refusal and "\n" not in refusal
    [anyway] = hints(refusal)
    counted.update(graded=0, warmed=0)
    assert run_hint(anyway)[-2:] == ["--apply", "--allow-lower"]
    assert counted["graded"] == 0 and "grades lowered" in capsys.readouterr().out
    assert scores(course)[(STUDENT, BASICS.removesuffix(".ipynb"), CELL)][0] == 0


def test_the_feedback_and_undo_hints_of_a_failed_feedback_run_as_printed(course, monkeypatch, capsys):
    from grader.cli.errors import NbgraderFailed
    from grader.regrade import run

    def fails(live, students):
        raise NbgraderFailed("generate_feedback failed: no page written")

    page = course / "feedback" / STUDENT / ASSIGNMENT / "01_attention_basics.html"
    before = scores(course)
    with monkeypatch.context() as patched:
        patched.setattr(run, "_feedback", fails)
        with pytest.raises(SystemExit) as stopped:
            regrade(course, capsys, "--apply")
    feedback, undo = hints(str(stopped.value.code))
    assert scores(course) != before and not page.exists()
    run_hint(feedback)
    assert page.exists()
    run_hint(undo)
    assert scores(course) == before


def test_the_autograde_hint_of_a_course_with_nothing_graded_runs_as_printed(course_copy, tmp_path):
    course = shutil.copytree(course_copy, tmp_path / "kit course's copy")
    with pytest.raises(SystemExit) as stopped:
        main(["regrade", "--course", str(course)])
    [first] = hints(str(stopped.value.code))
    argv = shlex.split(first)
    assert argv[:3] == ["python", "-m", "grader"]
    done = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "nothing to grade" in done.stderr, done.stderr
