"""Inside the sandbox: answer the supervisor's requests one at a time, in the notebook's order.

A request is one cell to run (its outputs come back, as a kernel would send them; an instructor's test cell runs
here with IPython's hooks as they were before any student code, see hooks.py), one probe of an exercise as it is
defined at that point (its evidence comes back as plain data), or one of the judge's requests on the student's
names and objects while it runs a plain test cell (handles.py).
The supervisor sends each request only when the notebook reaches it, so the student's code never holds a later
cell, another check's inputs, a test cell the judge runs or the job. Nothing here decides a grade.

The loop holds the functions it calls in its own locals, bound before any student code ran: a cell that replaces
this module's or handles.py's functions does not change how a request is answered.
"""

import os
import sys

from ..checks import plain
from ..checks.probes import run_probe
from . import handles as lent
from . import protocol
from .hooks import refuse_audit_hooks
from .shell import SandboxShell

MAX_REQUEST_BYTES = 64 << 20
JUDGE_REQUESTS = frozenset({"lookup", "names", "do", "push", "delete", "sync"})


def answer(
    shell,
    request,
    output_chars,
    clean,
    handles,
    lent_answer=lent.answer,
    from_plain=plain.from_plain,
    to_plain=plain.to_plain,
    probe=run_probe,
):
    """The answer to one request: a cell's outputs, a probe's outcome, or the answer to one of the judge's
    requests. An instructor's test cell runs with the ``clean`` hooks (hooks.Snapshot, taken before any student
    code); the student's come back after it."""
    if not JUDGE_REQUESTS.isdisjoint(request):
        return lent_answer(shell, handles, request, output_chars)
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
    params = from_plain(request["params"])
    try:
        return {"outcome": to_plain(probe(obj, request["probe"], params))}
    except Exception as error:  # the probe's description cannot be sent: the grader's problem, not the student's
        return {
            "outcome": {
                "__dict__": {"type": "grader_error", "error": type(error).__name__, "message": str(error)[:500]}
            }
        }


def serve(
    fd,
    output_chars,
    clean,
    read=protocol.read,
    write=protocol.write,
    leave=os._exit,
    answer=answer,
    set_profile=sys.setprofile,
    set_trace=sys.settrace,
):
    """Answer requests on ``fd`` until the supervisor says it is done (or goes away); ``clean`` is the
    hooks.Snapshot that the worker took before any student code."""
    shell, handles = SandboxShell.instance(), lent.Handles(fd)
    refuse_audit_hooks()
    while True:
        try:
            request = read(fd, MAX_REQUEST_BYTES)
        except protocol.ProtocolError:
            leave(0)
        if request.get("done"):
            leave(0)
        reply = answer(shell, request, output_chars, clean, handles)
        set_profile(None)  # a trace or profile function set by a cell lasts as long as that cell,
        set_trace(None)  # so that none runs in the kit's own code between cells
        write(fd, reply)
        del request, reply
