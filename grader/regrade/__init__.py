"""``regrade``: grade again whom the instructor names into a new result set, show every changed score before and
after and why, apply it, or undo the last one applied (grader.regrade.run drives it)."""

from .run import Regrade, regrade

__all__ = ["Regrade", "regrade"]
