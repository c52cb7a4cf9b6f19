"""Every command of ``python -m grader``, as a plain function (the lead adds autograde and demo here)."""
from .collect import collect
from .export import export
from .feedback import feedback
from .release import release
from .report import report

__all__ = ["release", "collect", "feedback", "export", "report"]
