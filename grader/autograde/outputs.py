"""What a graded test cell shows, and what the grading record keeps of it."""
import nbformat

from ..checks.framework import gate_note, total_score
from ..checks.grade import format_results
from ..records import ExerciseRecord, PartRecord


def exercise_record(name, max_score, status, reason, results):
    if results is None:
        return ExerciseRecord(name, 0.0, max_score, status, reason)
    parts = [PartRecord(r.part.title, r.part.points, r.score, r.part.hidden, r.case_label,
                        r.failure.explain(with_misconception=False) if r.failure else None,
                        r.failure.misconception if r.failure else None) for r in results]
    return ExerciseRecord(name, min(total_score(results), max_score), max_score, status, reason, parts,
                          gate_note(results))


def cell_outputs(name, status, reason, results):
    """A stdout report, then the score (nbgrader's partial credit) or an error when nothing was earned."""
    if results is None:
        return [nbformat.v4.new_output("error", ename=status.capitalize(), evalue=reason,
                                       traceback=[f"{name}: 0 points. {reason}."])]
    text = format_results(name, results)
    outputs = [nbformat.v4.new_output("stream", name="stdout", text=text + "\n")]
    score = total_score(results)
    if score > 0:
        outputs.append(nbformat.v4.new_output("execute_result", data={"text/plain": repr(float(score))},
                                              execution_count=None))
    else:
        outputs.append(nbformat.v4.new_output("error", ename="CheckFailed", evalue=f"{name}: no points",
                                              traceback=[f"{name}: no points yet; see the messages above."]))
    return outputs
