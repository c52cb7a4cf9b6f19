"""Gradescope's results.json (gradescope/autograder_samples, docs/specs.md) from the graded cells.

One scored test per graded cell, shown to students when grades are published if the cell has hidden
checks (``after_published``), at once otherwise; for a kit exercise with hidden checks, one more
unscored test with the visible checks alone, shown at once. The top-level output says which notebooks
were found and why one was not graded; stdout is for instructors only.
"""

VISIBLE, AFTER_PUBLISHED = "visible", "after_published"


def gradescope(tests, messages, seconds, extra):
    """The results as a dict: ``tests`` (graded_cells.Entry), ``messages`` (HTML paragraphs or plain lines
    for the student), ``extra`` (what instructors see in extra_data)."""
    entries = []
    for test in tests:
        entry = {
            "name": test.name,
            "number": test.number,
            "output": test.output,
            "visibility": AFTER_PUBLISHED if test.hidden else VISIBLE,
        }
        if test.score is not None:
            entry.update(score=test.score, max_score=test.max_score)
        else:
            entry["status"] = "failed"  # waiting for a grader: no score yet
        entries.append(entry)
        if test.hidden and test.visible_output is not None:
            entries.append(
                {
                    "name": f"{test.name}: visible checks",
                    "number": f"{test.number}.v",
                    "status": "passed" if test.visible_passed else "failed",
                    "output": test.visible_output,
                    "visibility": VISIBLE,
                }
            )
    return {
        "score": sum(t.score or 0.0 for t in tests),
        "execution_time": round(seconds),
        "output": "\n\n".join(messages),
        "output_format": "simple_format",
        "visibility": VISIBLE,
        "stdout_visibility": "hidden",
        "extra_data": extra,
        "tests": entries,
    }


def not_graded(why, seconds):
    """The results when the submission could not be graded at all: 0 for now, the reason in extra_data and stdout."""
    return {
        "score": 0.0,
        "execution_time": round(seconds),
        "visibility": VISIBLE,
        "stdout_visibility": "hidden",
        "output": "Your submission could not be graded automatically. Your instructor has been told and will grade it.",
        "extra_data": {"status": "error", "reason": why},
        "tests": [],
    }
