"""The kit's statuses, in one table: for each status a grading record or a grade can hold, its words for the
student and for the instructor, its word in the export, whether its score is real and whether a person must
grade it.

The grading records (grader.records) and the grades (grader.course.grades) hold these statuses; formgrader's flags, the
grade table's notes, the export, the feedback, Gradescope and the report read what they mean here. A status
needs attention when it leaves the instructor something to do.
"""

from dataclasses import dataclass

GRADED = "graded"
BY_HAND = "by_hand"  # a manual score given in formgrader, which overrides the autograded one
NEEDS_MANUAL = "needs_manual"  # nbgrader waits for a manual grade (a written answer, a task)
DISPUTED = "disputed"  # a plain test cell whose judge and second opinion disagree
JUDGED_INSIDE = "judged_inside"  # a plain test cell that only the student's process could run


@dataclass(frozen=True)
class Status:
    """What one status means: its words, whether its score is real, whether a person must grade it."""

    csv: str  # the export's status column
    real: bool  # the gradebook's score is a real score, a zero too
    manual: bool = False  # a person must grade it: nbgrader's "needs manual grade" is set on the cell
    to_do: str | None = None  # what the instructor does, in the grade table's notes; None: nothing
    exercise: str | None = None  # why an exercise or a test cell has no real score, for the student
    notebook: str | None = None  # why a notebook has no real score, for the student
    happened: str | None = None  # what happened to a cell or a check the sandbox could not run
    cause: str | None = None  # what usually causes it, for the student
    to_try: str | None = None  # what the student can try before asking for a regrade


PENDING = "Your score here is 0 for now, not final: your instructor is told, and will grade this again or by hand."


STATUSES = {
    GRADED: Status("graded", real=True),
    "undefined": Status(
        "not written",
        real=True,  # the student never wrote the exercise: a real zero, not a grading failure
        exercise="the exercise did not exist when its test cell ran (its cell was not run, or its name was changed)",
    ),
    BY_HAND: Status("graded by hand", real=True, exercise="graded by hand in formgrader"),
    "tampered": Status(
        "cell changed",
        real=True,
        exercise="its test cell was changed",
        to_do="a test cell was changed (graded on the instructor's copy), check it",
    ),
    "missing": Status("not handed in", real=False, to_do="not handed in", notebook="no submission for this notebook"),
    "invalid": Status(
        "not readable",
        real=False,
        manual=True,
        to_do="the file is not a readable notebook, ask for a new copy or grade by hand",
        notebook="the notebook file could not be read (invalid JSON or not a notebook)",
    ),
    "crashed": Status(
        "crashed",
        real=False,
        manual=True,
        to_do="crashed, regrade or grade by hand",
        exercise="the Python process running the notebook stopped (a crash) while this exercise was checked",
        notebook="the Python process running the notebook stopped (a crash)",
        happened="crashed: the Python process running the notebook stopped",
        cause="code that stops Python itself: a call to exit() or os._exit(), a signal, recursion with no end, or "
        "a library given arguments it cannot handle",
        to_try="run every cell again from a fresh start (the Restart and Run All command); the first "
        "cell whose output stops or shows an error is where to look.",
    ),
    "timeout": Status(
        "timed out",
        real=False,
        manual=True,
        to_do="timed out, regrade or grade by hand",
        exercise="the code ran out of time while this exercise was checked",
        notebook="the notebook ran out of time",
        happened="ran out of time",
        cause="a loop that never ends (a while whose condition never turns false), or Python loops over every "
        "element of a tensor where one tensor operation would do",
        to_try="run every cell again from a fresh start (the Restart and Run All command), and time "
        "the exercise's cell: on the notebook's small examples every cell should finish in about a "
        "second. Replace element-by-element loops with tensor operations (@, sum, softmax).",
    ),
    "memory": Status(
        "out of memory",
        real=False,
        manual=True,
        to_do="ran out of memory, regrade or grade by hand",
        exercise="the code used more memory than allowed while this exercise was checked",
        happened="ran out of memory",
        cause="a tensor far larger than the inputs (an operation over every pair of every element, or a huge "
        "shape from a wrong reshape), or a list that keeps every intermediate result",
        to_try="print the shape of each tensor your code makes on the notebook's example: each should be about "
        "the size of the inputs. Look for a broadcast that multiplies shapes, and for results kept in a "
        "list inside a loop.",
    ),
    "malformed": Status(
        "unreadable answers",
        real=False,
        manual=True,
        to_do="sent back answers the grader could not read (it interfered with the grader), grade by hand",
        exercise="the code tampered with the grader, which could not read what came back",
        happened="sent back something the grader could not read (the submission tampered with the grader)",
    ),
    "not_run": Status(
        "not run",
        real=False,
        manual=True,
        to_do="stopped before a test cell, regrade or grade by hand",
        exercise="the notebook stopped before this test cell",
        happened="was not run: the notebook stopped before it",
    ),
    "ungraded": Status(
        "no score",
        real=False,
        manual=True,
        to_do="could not be run, regrade or grade by hand",
        exercise="the notebook could not be run, so the exercise could not be checked",
    ),
    "grader_error": Status(
        "grader could not check",
        real=False,
        manual=True,
        to_do="the grader could not check it (its own error, not the student's), grade by hand",
        exercise="the grader could not check this exercise: a problem of the grader, not of the student's code",
    ),
    DISPUTED: Status(
        "check by hand",
        real=False,
        manual=True,
        to_do="the test cell judged outside the student's process and the same cell run as stock nbgrader runs it "
        "gave different scores (both in the record), grade by hand",
        exercise="this test cell gave one result where the grader judges it and another when run in your notebook "
        "as usual, so a person decides",
    ),
    JUDGED_INSIDE: Status(
        "judged in the notebook",
        real=True,
        to_do="a test cell judged in the student's process (it uses the notebook's shell): the student's code "
        "could have changed its verdict, check it",
    ),
    NEEDS_MANUAL: Status(
        "needs manual grade",
        real=False,
        manual=True,
        to_do="waiting for a manual grade in formgrader",
        exercise="waiting for a grader to score it in formgrader",
    ),
}


def needs_attention(*statuses):
    """True when one of ``statuses`` leaves the instructor something to do."""
    return any(STATUSES[status].to_do is not None for status in statuses)


def needs_manual_grade(*statuses):
    """True when one of ``statuses`` means its zero is not a score: a person grades the cell in formgrader."""
    return any(STATUSES[status].manual for status in statuses)
