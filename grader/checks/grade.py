"""The test cells' entry point: run an exercise's checks and report them to the student."""

import sys

from .cases import CouldNotCheck
from .misconceptions import MISCONCEPTIONS
from .notebook import exercise_points
from .registry import visible_parts
from .running import grade_locally
from .scoring import gate_note, scaled, total_score
from .wording import counts_of, headline, likely_mistake, wrap


class CheckFailed(AssertionError):
    """Raised by a test cell that earned no points, so that nbgrader records a zero.

    It shows its message alone, none of the kit's code: IPython (Jupyter, nbclient) prints what
    ``_render_traceback_`` returns in place of a traceback."""

    def _render_traceback_(self):
        return [str(self)]


def format_results(name, results, points, complete=True):
    """One block of text per exercise: the headline, a line per check and why a failed one failed,
    then the likely mistake, once. Points are the notebook's (``points``, the exercise's worth), the parts'
    points weights scaled to them; ``complete``: the hidden parts ran too, so the score is known."""
    counts = counts_of([(r.part.hidden, r.failure is None) for r in results])
    lines = [headline(name, counts, points, scaled(results, points) if complete else None)]
    scale = points / sum(r.part.points for r in results) if complete else None
    for result in results:
        mark = "ok  " if result.failure is None else "n/a " if isinstance(result.failure, CouldNotCheck) else "FAIL"
        where = " (hidden)" if result.part.hidden else ""
        worth = f" [{result.score * scale:g}/{result.part.points * scale:g}]" if complete else ""
        lines.append(f"  {mark} {result.part.title}{where}{worth}")
        if result.failure is not None:
            lines.append(f"       case: {result.case_label}")
            lines.extend("       " + line for line in result.failure.explain(with_misconception=False).splitlines())
    if mistake := likely_mistake([r.failure.misconception for r in results if r.failure]):
        lines.append(f"  Likely mistake: {MISCONCEPTIONS[mistake].explanation}")
    if note := gate_note(results):
        lines.append("  " + note)
    return wrap("\n".join(lines))


def grader_problem(name, results):
    """Why the grader itself could not check an exercise (for its record and the instructor), or None."""
    failed = next((r for r in results if isinstance(r.failure, CouldNotCheck)), None)
    return f"the grader could not check {name} ({failed.failure.detail})" if failed else None


class Grade:
    """The running grade of one exercise in a test cell."""

    def __init__(self, name, obj):
        self.name, self.obj, self.results = name, obj, []
        self.complete = False  # set when the hidden parts ran too, at grading: the score is then known
        self.add(visible_parts(name))

    def add(self, parts):
        self.results.extend(grade_locally(parts, self.obj))

    @property
    def score(self):
        """The parts' points passed so far, as weights: :meth:`result` puts them on the test cell's scale."""
        return total_score(self.results)

    def result(self):
        """What the test cell returns to nbgrader: nothing when every check passed (full marks, and
        ``nbgrader validate`` passes), the score on the cell's scale when only some did (partial credit), an
        error when none did or when the grader could not check the answer. The checks' report is printed first: to
        standard error when a check failed, which ``nbgrader validate`` and Jupyter's Validate button show beside
        the failed cell (they show no standard output), to standard output when every check passed."""
        points = exercise_points(self.name)
        passed = all(r.failure is None for r in self.results)
        print(format_results(self.name, self.results, points, self.complete), file=sys.stdout if passed else sys.stderr)
        if problem := grader_problem(self.name, self.results):
            raise CheckFailed(
                wrap(f"{problem}. This is a problem of the grader, not of your code: tell your instructor.")
            )
        score = scaled(self.results, points)
        if score == 0:
            raise CheckFailed(f"{self.name}: no points yet; see the checks above.")
        return None if passed else float(score)


def check(name, obj):
    """Run the visible checks of exercise ``name`` on the student's ``obj``."""
    return Grade(name, obj)
