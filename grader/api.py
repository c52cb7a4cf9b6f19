"""Every command of ``python -m grader``, as a plain function of the course folder and the assignment
(``course=".", assignment="self_attention"``; a :class:`grader.course.Course` may be given as ``course``)."""
from .autograde.run import autograde
from .collect import collect
from .demo.run import demo
from .export import export
from .feedback import feedback
from .gradescope.build import gradescope
from .lms.keys import jwks
from .lms.passback import passback
from .lms.roster import roster
from .regrade import regrade
from .release import release
from .report import report
from .similarity import similarity

__all__ = ["release", "collect", "autograde", "feedback", "export", "report", "gradescope", "roster", "passback",
           "jwks", "regrade", "similarity", "demo"]
