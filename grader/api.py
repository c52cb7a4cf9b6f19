"""Every command of ``python -m grader``, as a plain function of the course folder and the assignment
(``course=".", assignment="self_attention"``; a :class:`grader.course.Course` may be given as ``course``).

Each command's module is imported when the command is first asked for (PEP 562): ``export`` or ``feedback``
starts without PyTorch, which only the commands that run or compare notebooks need."""

import importlib

# command: the module that holds it
MODULES = {
    "release": ".release",
    "collect": ".collect",
    "autograde": ".autograde.run",
    "feedback": ".feedback",
    "export": ".export",
    "report": ".report",
    "gradescope": ".gradescope.build",
    "roster": ".lms.roster",
    "passback": ".lms.passback",
    "jwks": ".lms.keys",
    "regrade": ".regrade",
    "similarity": ".similarity",
    "adopt": ".course.adopt",
    "demo": ".demo.run",
}

__all__ = list(MODULES)


def __getattr__(name):
    if name not in MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    command = getattr(importlib.import_module(MODULES[name], __package__), name)
    globals()[name] = command
    return command
