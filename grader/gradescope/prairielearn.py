"""PrairieLearn's external grader results (docs/externalGrading.md): score in [0, 1], one test per graded cell.

PrairieLearn shows every test at once: a cell with hidden checks shows its points and the visible
checks' words only. Outputs are cut so that the file stays under PrairieLearn's 1 MB.
"""

import html
import json
import re

MAX_BYTES = 1 << 20
OUTPUT_CHARS = 20_000


def prairielearn(tests, messages, seconds, extra):
    """The results as a dict, from graded_cells.Entry entries and the messages (HTML or text) for the student."""
    possible = sum(t.max_score for t in tests if t.score is not None)
    text = "\n".join(html.unescape(re.sub(r"<[^>]+>", " ", m)).strip() for m in messages)
    cap = OUTPUT_CHARS
    while True:
        results = {
            "gradable": True,
            "score": sum(t.score or 0.0 for t in tests) / possible if possible else 0.0,
            "message": text[:cap],
            "output": f"graded in {seconds:.0f} s",
            "tests": [
                {
                    "name": t.name,
                    "points": t.score or 0.0,
                    "max_points": t.max_score,
                    "message": "Your instructor grades this answer." if t.score is None else "",
                    "output": ((t.visible_output or "") if t.hidden else t.output)[:cap],
                }
                for t in tests
            ],
        }
        if len(json.dumps(results, indent=1)) < MAX_BYTES or cap == 0:
            return results
        cap //= 4


def not_graded(why, seconds):
    """Not gradable: no points awarded or lost, the attempt not counted."""
    return {"gradable": False, "format_errors": ["Your submission could not be graded automatically."]}
