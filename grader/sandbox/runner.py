"""Inside the sandbox: answer the supervisor's requests one at a time, in the notebook's order.

A request is one cell to run (its outputs come back, as a kernel would send them; an instructor's
test cell that the judge cannot run runs here, with IPython's hooks as they were before any student code,
see hooks.py), one probe of an exercise as it is defined at that point (its evidence comes back as plain
data), or one of the judge's requests on the student's names and objects while it runs a test cell
(handles.py). The supervisor sends each request only when the notebook reaches it, so the student's code
never holds a later cell, another check's inputs, a test cell the judge runs or the job. Nothing here
decides a grade.
"""
import os
import sys

from ..checks import plain
from ..checks.probes import run_probe
from . import handles as lent, protocol
from .hooks import refuse_audit_hooks
from .shell import SandboxShell

MAX_REQUEST_BYTES = 64 << 20


def answer(shell, request, output_chars, clean, handles):
    """The answer to one request: a cell's outputs, a probe's outcome, or the answer to one of the judge's
    requests. An instructor's test cell runs with the ``clean`` hooks (hooks.Snapshot, taken before any student
    code); the student's come back after it."""
    if "lookup" in request or "do" in request:
        return lent.answer(shell, handles, request, output_chars)
    if "count" in request:  # the number of a test cell the judge runs: In [n] as in Jupyter
        shell.execution_count += 1
        return {"count": shell.execution_count - 1}
    if "cell" in request:
        test = request.get("test") is True
        changes = clean.restore() if test else None
        try:
            outputs, count = shell.run(request["cell"], output_chars, test)
        finally:
            if changes:
                changes.undo()
        return {"outputs": outputs, "count": count}
    obj = shell.user_ns.get(request["exercise"])
    if obj is None:
        return {"undefined": True}
    params = plain.from_plain(request["params"])
    try:
        return {"outcome": plain.to_plain(run_probe(obj, request["probe"], params))}
    except Exception as error:  # the probe's description cannot be sent: the grader's problem, not the student's
        return {"outcome": {"__dict__": {"type": "grader_error", "error": type(error).__name__,
                                         "message": str(error)[:500]}}}


def serve(fd, output_chars, clean):
    """Answer requests on ``fd`` until the supervisor says it is done (or goes away); ``clean`` is the
    hooks.Snapshot that the worker took before any student code."""
    shell, handles = SandboxShell.instance(), lent.Handles()
    refuse_audit_hooks()
    while True:
        try:
            request = protocol.read(fd, MAX_REQUEST_BYTES)
        except protocol.ProtocolError:
            os._exit(0)
        if request.get("done"):
            os._exit(0)
        reply = answer(shell, request, output_chars, clean, handles)
        sys.setprofile(None)  # a trace or profile function set by a cell lasts as long as that cell,
        sys.settrace(None)  # so that none runs in the kit's own code between cells
        protocol.write(fd, reply)
        del request, reply
