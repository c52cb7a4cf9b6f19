"""``regrade`` after a check's tolerance changed, in a copy of the kit (tests/kit_copy.py): a class of four hands
in notebook 01 (one more student hands in notebook 02 only), is graded, given a manual grade and feedback; the
random-input check of softmax_scores is then loosened (its default ``atol`` 1e-6 to 1e-5), which passes an answer
rounded to 5 decimals. The regrade's diff names exactly the two students with that answer, one with the check's
part as the reason, the other with the manual grade kept; applying changes the gradebook, the feedback and the
export; with the check put back, a regrade that lowers a grade is refused without --allow-lower, and with it the
refused run's preview is applied, not graded again; undo puts back each applied regrade in turn, the last first;
the manual grade stays throughout.

The commands that grade run in the copy. The feedback, the export and the undo read no check: they run in this
process (``python -m grader``'s ``main``), whose grader is the copy's but for the tolerance, where a process of their
own would cost seconds of imports each."""

import csv
import html
import os
import pathlib
import subprocess
import sys

import pytest
from nbgrader.api import Gradebook

from grader.cli import main as grader

from ..course_builder import ASSIGNMENT, BASICS, make_course, submission, submit, worth
from ..kit_copy import copy_kit, run

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

ROUNDED = '''def softmax_scores(scores):
    """Weights, rounded to 5 decimals as the notebook prints them."""
    return (F.softmax(scores, dim=-1) * 1e5).round() / 1e5'''
DIM0 = """def softmax_scores(scores):
    return F.softmax(scores, dim=0)"""
CLASS = {
    "right": {},
    "rounded": {"softmax_scores": ROUNDED},
    "kept": {"softmax_scores": ROUNDED},
    "wrong": {"softmax_scores": DIM0},
}
OTHER = "02_self_attention_step_by_step.ipynb"
MANUAL = 1.5
STRICT, LOOSE = (f"def _softmax_case(scores, expected, label, atol={atol}," for atol in ("1e-6", "1e-5"))
CELL = "softmax_scores_test"
REFUSED = ("--changed-checks", "--student", "rounded", "--student", "kept", "--apply")  # a regrade that lowers a grade


@pytest.fixture(scope="module")
def kit(released_course, tmp_path_factory):
    """The class, graded with the kit's checks as they are; kept's softmax_scores graded by hand; feedback and
    export written."""
    kit = make_course(released_course, tmp_path_factory.mktemp("regrade") / "kit")
    copy_kit(kit, "grader")
    for student, answers in CLASS.items():
        submit(kit, student, submission(kit, answers))
    submit(kit, "other", submission(kit, notebook=OTHER), OTHER)
    run(kit, "-m", "grader", "autograde", "--course", str(kit), "--workers", "1")
    with Gradebook(f"sqlite:///{kit / 'gradebook.db'}") as book:
        book.find_grade(CELL, BASICS.removesuffix(".ipynb"), ASSIGNMENT, "kept").manual_score = MANUAL
        book.db.commit()
    grader(["feedback", "--course", str(kit)])
    grader(["export", "--course", str(kit)])
    return kit


def regrade(kit, *options):
    return run(kit, "-m", "grader", "regrade", "--course", str(kit), "--workers", "1", *options)


def set_tolerance(kit, old, new):
    module = kit / "grader" / "exercises" / "basics.py"
    text = module.read_text()
    assert text.count(old) == 1
    module.write_text(text.replace(old, new))


def grades(kit):
    """{student: (score, auto_score, manual_score)} of softmax_scores' test cell, from the gradebook."""
    with Gradebook(f"sqlite:///{kit / 'gradebook.db'}") as book:
        return {
            s: (g.score, g.auto_score, g.manual_score)
            for s in CLASS
            for g in [book.find_grade(CELL, BASICS.removesuffix(".ipynb"), ASSIGNMENT, s)]
        }


def seen(kit):
    """What students and the instructor see: each student's feedback page, grading record, autograded notebook, and
    the export."""
    files = [
        kit / step / s / ASSIGNMENT / name
        for s in CLASS
        for step, name in (("feedback", "01_attention_basics.html"), ("autograded", BASICS))
    ]
    files += [kit / "grading" / ASSIGNMENT / s / "01_attention_basics.json" for s in CLASS]
    files += [kit / "reports" / f"{ASSIGNMENT}_grades.csv"]
    return {path: path.read_bytes() for path in files}


def exported(kit, student):
    with open(kit / "reports" / f"{ASSIGNMENT}_grades.csv", newline="") as sheet:
        return next(
            row["score"] for row in csv.DictReader(sheet) if row["student"] == student and row["grade_id"] == CELL
        )


def diff_rows(done):
    folder = next(
        line.split("diff: ", 1)[1].split(" and ")[0] for line in done.stdout.splitlines() if line.startswith("diff: ")
    )
    with open(folder.replace("diff.html", "diff.csv"), newline="") as sheet:
        return folder, list(csv.DictReader(sheet))


@pytest.fixture(scope="module")
def before(kit):
    return grades(kit), seen(kit)


@pytest.fixture(scope="module")
def applied(kit, before):
    set_tolerance(kit, STRICT, LOOSE)
    done = regrade(kit, "--changed-checks", "--apply")
    return done, grades(kit), seen(kit)


def test_the_class_was_graded_strictly(before):
    points = worth(BASICS, "softmax_scores")
    assert before[0] == {
        "right": (points, points, None),
        "rounded": (0, 0, None),
        "kept": (MANUAL, 0, MANUAL),
        "wrong": (0, 0, None),
    }


def test_the_diff_names_exactly_the_students_whose_score_the_changed_check_changes(applied):
    folder, rows = diff_rows(applied[0])
    points = worth(BASICS, "softmax_scores")
    assert sorted((r["student"], r["exercise"], float(r["before"]), float(r["after"])) for r in rows) == [
        ("kept", "softmax_scores", MANUAL, MANUAL),
        ("rounded", "softmax_scores", 0, points),
    ]
    why = {r["student"]: r["why"] for r in rows}
    assert why["rounded"].startswith("the check changed (part “random score vectors and matrices” 0/1 → 1/1")
    assert "a manual grade kept: 1.5 counts" in why["kept"] and why["kept"].startswith("the check changed")
    page = open(folder).read()
    assert "rounded" in page and "the check changed" in html.unescape(page)


def test_changed_checks_grades_only_the_notebooks_of_the_changed_module(applied):
    folder, _ = diff_rows(applied[0])
    scratch = pathlib.Path(folder).parent / "course" / "submitted"
    assert sorted(p.parent.parent.name for p in scratch.glob(f"*/{ASSIGNMENT}/*.ipynb")) == sorted(CLASS)


def test_apply_changes_the_gradebook_feedback_and_export_and_keeps_the_manual_grade(kit, before, applied):
    points = worth(BASICS, "softmax_scores")
    _, now, files = applied
    assert now == {**before[0], "rounded": (points, points, None), "kept": (MANUAL, points, MANUAL)}
    page = html.unescape((kit / "feedback" / "rounded" / ASSIGNMENT / "01_attention_basics.html").read_text())
    assert "Your grade for this notebook was changed" in page
    assert f"softmax_scores: 0 → {points:g} of {points:g} points, because your instructor corrected its check" in page
    assert exported(kit, "rounded") == f"{points:g}"
    unchanged = [p for p in files if p.parent.parent.name in ("right", "wrong") or p.parent.name in ("right", "wrong")]
    assert unchanged and all(files[p] == before[1][p] for p in unchanged)


def test_a_regrade_that_lowers_a_grade_is_refused_and_changes_nothing(kit, applied):
    """Of the changed notebooks, those of the two students whose grade the check changes: a refusal is about them."""
    set_tolerance(kit, LOOSE, STRICT)
    done = run_failing(kit, *REFUSED)
    lowers = done.stderr.split("refused: this regrade lowers ", 1)[1].split("; nothing was applied", 1)[0]
    assert lowers.startswith("rounded (01 softmax_scores") and "kept" not in lowers
    assert grades(kit) == applied[1] and seen(kit) == applied[2]


def test_with_allow_lower_it_applies_the_refused_preview_and_lists_whose_grade_went_down(kit, before, applied):
    """The refusal's regrade again with --allow-lower: what the refused run graded is applied, not graded again."""
    done = regrade(kit, *REFUSED, "--allow-lower")
    points = worth(BASICS, "softmax_scores")
    assert "as previewed (nothing graded again)" in done.stdout and "grading again" not in done.stderr
    assert f"grades lowered: rounded (01 softmax_scores {points:g} → 0)" in done.stdout
    assert grades(kit) == {**applied[1], "rounded": (0, 0, None), "kept": (MANUAL, 0, MANUAL)}


def test_undo_puts_back_the_scores_feedback_export_and_records_one_regrade_at_a_time(kit, before, applied, capsys):
    grader(["regrade", "--course", str(kit), "--undo"])
    assert "rounded" in capsys.readouterr().out
    assert grades(kit) == applied[1] and seen(kit) == applied[2]
    grader(["regrade", "--course", str(kit), "--undo"])
    assert "rounded" in capsys.readouterr().out
    assert grades(kit) == before[0] and seen(kit) == before[1]
    with pytest.raises(SystemExit) as stopped:
        grader(["regrade", "--course", str(kit), "--undo"])
    assert "no applied regrade to undo" in str(stopped.value.code)


def test_a_regrade_whose_feedback_fails_says_what_it_applied_and_is_undone(kit, before, applied, capsys):
    """The feedback step failing after the gradebook changed: the regrade fails saying what it applied and how to
    put it back, the export follows the gradebook, and --undo finds the result set and puts everything back."""
    set_tolerance(kit, STRICT, LOOSE)
    feedback = kit / "grader" / "feedback" / "students.py"
    working = feedback.read_text()
    feedback.write_text('import sys\nsys.exit("no page written")\n')
    try:
        done = run_failing(kit, "--changed-checks", "--apply")
    finally:
        feedback.write_text(working)
    assert "applied to the gradebook" in done.stderr and "no page written" in done.stderr
    assert "put back what this regrade replaced: python -m grader regrade --course" in done.stderr
    assert grades(kit) == applied[1] and exported(kit, "rounded") == f"{worth(BASICS, 'softmax_scores'):g}"
    grader(["regrade", "--course", str(kit), "--undo"])
    assert "rounded" in capsys.readouterr().out
    assert grades(kit) == before[0] and seen(kit) == before[1]


def run_failing(kit, *options):
    done = subprocess.run(
        [sys.executable, "-m", "grader", "regrade", "--course", str(kit), "--workers", "1", *options],
        cwd=kit,
        env={**os.environ, "PYTHONPATH": str(kit)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode != 0, done.stdout
    return done


def test_the_feedback_step_writes_each_named_students_pages_when_nbgrader_fails_for_one(kit):
    """The regrade's feedback step (grader/feedback/students.py): one process for the students it names; nbgrader
    failing for one of them (no such student) stops neither the others' pages nor the report."""
    page = kit / "feedback" / "wrong" / ASSIGNMENT / "01_attention_basics.html"
    written = page.read_bytes()
    page.unlink()
    done = subprocess.run(
        [sys.executable, "-m", "grader.feedback.students", ASSIGNMENT, "--", "nobody", "wrong"],
        cwd=kit,
        env={**os.environ, "PYTHONPATH": str(kit)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 1 and "generate_feedback failed for nobody" in done.stderr
    assert page.read_bytes() == written
