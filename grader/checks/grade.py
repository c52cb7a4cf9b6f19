"""The test cells' entry point: run an exercise's checks and report them to the student."""
from .framework import gate_note, grade_locally, total_score
from .registry import visible_parts


class CheckFailed(AssertionError):
    """Raised by a test cell that earned no points, so that nbgrader records a zero."""


def format_results(name, results):
    """One block of text per exercise: a line per part, and why a failed part failed."""
    total = sum(r.part.points for r in results)
    lines = [f"{name}: {total_score(results):g} / {total:g} points"]
    for result in results:
        mark = "ok  " if result.failure is None else "FAIL"
        where = " (hidden)" if result.part.hidden else ""
        lines.append(f"  {mark} {result.part.title}{where} [{result.score:g}/{result.part.points:g}]")
        if result.failure is not None:
            lines.append(f"       case: {result.case_label}")
            lines.extend("       " + line for line in result.failure.explain().splitlines())
    if note := gate_note(results):
        lines.append("  " + note)
    return "\n".join(lines)


class Grade:
    """The running grade of one exercise in a test cell."""

    def __init__(self, name, obj):
        self.name, self.obj, self.results = name, obj, []
        self.add(visible_parts(name))

    def add(self, parts):
        results = grade_locally(parts, self.obj)
        self.results.extend(results)
        print(format_results(self.name, results))

    @property
    def score(self):
        return total_score(self.results)

    def result(self):
        """What the test cell returns to nbgrader: nothing when every check passed (full marks, and
        ``nbgrader validate`` passes), the score when only some did (partial credit), an error when none did."""
        if self.score == 0:
            raise CheckFailed(f"{self.name}: no points yet; see the messages above.")
        if all(r.failure is None for r in self.results):
            return None
        return float(self.score)


def check(name, obj):
    """Run the visible checks of exercise ``name`` on the student's ``obj``."""
    return Grade(name, obj)
