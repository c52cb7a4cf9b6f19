"""What each code cell shows in the autograded notebook, and what the grading record keeps of a test cell."""

import nbformat
from nbgrader.utils import determine_grade

from ..boundary.safe_html import safe_outputs
from ..checks.grade import format_results
from ..checks.scoring import gate_note, scaled
from ..checks.wording import wrap
from ..records import GRADED, ExerciseRecord, PartRecord
from ..records.statuses import DISPUTED, JUDGED_INSIDE
from .jobs import failure_reason
from .plain_tests import judged_inside_note


def _error(ename, evalue, text):
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[text])


def ran_cell(cell, result, limits=None):
    """A cell the sandbox ran: its own outputs (nothing in them that would run in a browser), or an error saying
    why it has none (with the limit it hit, from the job's ``limits``)."""
    if result["status"] == "ok":
        cell.outputs = safe_outputs([nbformat.from_dict(output) for output in result["outputs"]])
        cell.execution_count = result["count"]
    else:
        reason = f"This cell {failure_reason(result['status'], limits)}."
        cell.outputs = [_error(f"Cell{result['status'].title().replace('_', '')}", reason, reason)]
        cell.execution_count = None


def kit_cell(cell, name, status, reason, results):
    """A kit test cell: the checks' report, then what nbgrader scores: nothing for full marks (no ``Out``
    number under the text), the score for partial credit, an error for no points or no real grade.
    Its error shows the kit's message only, never a traceback of the kit's code."""
    points = float(cell.metadata["nbgrader"]["points"])
    cell.execution_count = None
    if results is None:
        cell.outputs = [_error(status.title(), reason, wrap(f"{name}: 0 points: {reason}."))]
        return
    score = scaled(results, points)
    report = format_results(name, results, points)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=report + "\n")]
    if status != GRADED:
        said = wrap(f"{reason}: not graded; your instructor will look at it.")
        cell.outputs.append(_error("CheckFailed", reason, said))
    elif score == 0:
        cell.outputs.append(_error("CheckFailed", f"{name}: no points", f"{name}: no points; see the checks above."))
    elif score < points:  # nbgrader reads partial credit from the number; people read the sentence
        said = f"<pre>partial credit: {score:g} of {points:g} points</pre>"
        cell.outputs.append(
            nbformat.v4.new_output(
                "execute_result", execution_count=None, data={"text/plain": repr(float(score)), "text/html": said}
            )
        )


def exercise_record(grade_id, name, points, status, reason, results):
    """The record of a kit test cell: its status, and each part's message and misconception."""
    if results is None:
        return ExerciseRecord(name, 0.0, points, status, reason, grade_id=grade_id)
    parts = [
        PartRecord(
            r.part.title,
            r.part.points,
            r.score,
            r.part.hidden,
            r.case_label,
            r.failure.explain(with_misconception=False) if r.failure else None,
            r.failure.misconception if r.failure else None,
        )
        for r in results
    ]
    return ExerciseRecord(
        name, scaled(results, points), points, status, reason, parts, gate_note(results), grade_id=grade_id
    )


def test_record(cell, result, limits=None):
    """The record of a plain test cell: whether it ran, the score nbgrader gives its outputs, whether it was judged
    in the student's process, and whether the second opinion (the cell run as stock nbgrader runs it) disagrees."""
    grade_id, points = cell.metadata["nbgrader"]["grade_id"], float(cell.metadata["nbgrader"]["points"])
    score = determine_grade(cell)[0] or 0.0
    note = judged_inside_note(cell.source)
    if result["status"] != "ok":
        reason = f"the test cell {failure_reason(result['status'], limits)}"
        return ExerciseRecord(grade_id, score, points, result["status"], reason, note=note, grade_id=grade_id)
    if note:
        return ExerciseRecord(grade_id, score, points, JUDGED_INSIDE, note=note, grade_id=grade_id)
    if "inside" in result:
        second = nbformat.from_dict({**cell, "outputs": result["inside"]})
        inside = determine_grade(second)[0] or 0.0
        if inside != score:
            reason = (
                f"judged outside the student's process: {_outcome(score, points, cell.outputs)}; run in the "
                f"student's notebook as stock nbgrader runs it: {_outcome(inside, points, second.outputs)}"
            )
            return ExerciseRecord(grade_id, score, points, DISPUTED, reason, grade_id=grade_id)
    return ExerciseRecord(grade_id, score, points, grade_id=grade_id)


def _outcome(score, points, outputs):
    """'0 of 2 points (NameError: name 'helper' is not defined)'."""
    error = next((f" ({o.ename}: {o.evalue[:200]})" for o in outputs if o.output_type == "error"), "")
    return f"{score:g} of {points:g} points{error}"
