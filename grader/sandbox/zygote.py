"""The warm workers: heavy imports done once, in one process that then forks each worker; each worker runs a fresh
isolated sandbox for each notebook.

A worker reads jobs from its stdin and writes results to its stdout (length-prefixed JSON). It never runs
student code itself: a clean fork server (started before any job) forks each sandbox, which
enters new namespaces as nobody, in a cgroup. The worker sends the sandbox one request at a
time, in the notebook's order (a cell to run, or one probe of an exercise), and watches the
clock: a request that is not answered in time, or a sandbox that dies, is that unit's status.
The next sandbox replays the cells before it and skips it, so the rest of the notebook is
still graded.
"""

import contextlib
import functools
import gc
import io
import os
import signal
import sys
import tempfile
import time

from . import evidence, folder, hugepages, isolation, levels, protocol, runner
from .cgroup import Cgroup, kill_below
from .forkserver import JUDGE, SANDBOX, ForkServer
from .hooks import Snapshot
from .judge import judge_main

MAX_JOB_BYTES = 64 << 20
MAX_ANSWER_BYTES = 16 << 20
GRACE_SECONDS = 2.0
MAX_RESTARTS = 8
FAILURES = ("timeout", "memory", "crashed", "malformed")  # a unit that ends its sandbox: the next one skips it


def warm_up():
    """Import and exercise what notebooks use, so that a forked sandbox starts ready."""
    os.environ["MPLBACKEND"] = "Agg"
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy  # noqa: F401
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    x = torch.randn(2, 3, 4)
    F.softmax(x @ x.transpose(-2, -1), dim=-1)
    F.scaled_dot_product_attention(x, x, x, is_causal=True)
    torch.nn.MultiheadAttention(4, 2, batch_first=True)(x, x, x)
    fig, ax = plt.subplots(squeeze=False)
    fig.colorbar(ax[0, 0].imshow(numpy.eye(3)), ax=ax)
    plt.close("all")
    from .shell import new_shell

    shell = new_shell()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        shell.run_cell(WARM_CELL, store_history=False)  # no line of it in In, no count; stdout is the channel
    shell.run("import matplotlib.pyplot as plt\nplt.plot([0, 1]);", 100)  # the inline backend, drawn once
    shell.reset(new_session=False)  # each notebook starts with an empty namespace, at In [1]
    shell.execution_count = 1
    for name in ("last_type", "last_value", "last_traceback", "last_exc"):  # as a fresh kernel: no last error
        sys.__dict__.pop(name, None)
    return shell


# Printing a tensor and showing a traceback do work once per process (IPython's traceback imports stack_data
# and walks every loaded module to map files to modules; torch sets up its printing): done here, before the fork,
# rather than after it in every sandbox. The outputs do not change.
WARM_CELL = """import numpy, torch
print(torch.tensor([[0.5, 1.0]]), torch.tensor([1]), torch.tensor([True]), numpy.array([[0.5, 1.0]]))
def warm(x):
    return torch.ones(2) @ x
warm(torch.ones(3))
"""


def sandbox_main(fd, server, clean):
    """In a fresh fork: wait for the spec, read the notebook's folder, enter the walls, write the folder's files
    into the working folder, then answer requests."""
    isolation.die_with_parent(server)
    isolation.isolate_fds(fd)
    output_chars = prepare(protocol.read(fd, MAX_JOB_BYTES))
    sys.path.insert(0, "")  # the working folder, as in a kernel: the course's modules import from there
    runner.serve(fd, output_chars, clean)


def prepare(spec):
    """Read the notebook's folder, enter the walls, and write the folder's files into the working folder: the spec
    (the paths hidden) and the files are gone once this returns."""
    files = folder.read_folder(spec["folder"], spec["limits"]["tmp_bytes"] // 2) if spec.get("folder") else {}
    output_chars = enter_walls(spec)
    folder.write_folder(files, os.getcwd())
    return output_chars


def enter_walls(spec):
    """The walls of the worker's isolation level (see levels.py): the spec is gone afterwards."""
    levels.enter(spec)
    for _ in range(2):  # PID 1 of the namespace only waits: the kernel spares an init from its own faults
        parent = os.getpid()
        pid = os.fork()
        if pid:
            _, status = os.waitpid(pid, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
        isolation.die_with_parent(parent)
    levels.seal(spec)
    return spec["limits"]["output_chars"]


class Sandbox:
    """One sandbox, seen from the worker: requests in, answers out, each before a deadline."""

    def __init__(self, server, job, name):
        self.group = Cgroup(name, job["limits"]["memory_bytes"], job["limits"]["processes"])
        self.server = server
        self.pid, self.channel = server.spawn(SANDBOX)
        self.group.add(self.pid)
        self.oom_before = self.group.oom_kills()
        self.received = 0
        self.output_chars = job["limits"]["output_chars"]
        self._judge = None
        self.folder, self.source = job.get("folder"), job.get("source")
        protocol.write(
            self.channel.fileno(),
            {
                "hide": job["hide"],
                "limits": job["limits"],
                "folder": self.folder,
                "cgroup_memory": self.group.limits_memory,
            },
        )

    def ask(self, request, deadline):
        """The answer to ``request``; raises Failed with the unit's status when there is none."""
        try:
            protocol.write(self.channel.fileno(), request)
            answer = protocol.read(self.channel.fileno(), MAX_ANSWER_BYTES, deadline)
        except protocol.TimedOut:
            raise Failed("timeout") from None
        except protocol.Closed:
            raise Failed(self._death()) from None
        except OSError:
            raise Failed(self._death()) from None
        except protocol.ProtocolError as error:
            raise Failed("malformed", str(error)) from None
        self.received += len(protocol.encode(answer))
        if self.received > MAX_JOB_BYTES:
            raise Failed("malformed", f"the notebook sent more than {MAX_JOB_BYTES >> 20} MiB of results")
        return answer

    def _death(self):
        self.close()
        return "memory" if self.group.oom_kills() > self.oom_before else "crashed"

    def judge(self):
        """The judge of this sandbox's plain test cells, started at the first."""
        if self._judge is None:
            self._judge = Judge(self.server, self.folder, self.source)
        return self._judge

    def close(self):
        for pid in (self.pid, self._judge and self._judge.pid):
            try:
                if pid:
                    os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.group.kill_all()
        self.channel.close()
        if self._judge:
            self._judge.channel.close()

    def remove(self):
        self.close()
        if self._judge:
            levels.remove_tree(self._judge.folder)
        self.group.remove()
        kill_below(self.server.pid)  # what the sandbox left where no cgroup or PID namespace holds it


class Judge:
    """The judge process (judge.py), seen from the worker: it never runs student code, so it needs no walls. It
    works in a folder of its own: a copy of the notebook's, where a module is the instructor's copy only."""

    def __init__(self, server, notebook_folder, source):
        self.pid, self.channel = server.spawn(JUDGE)
        self.folder = tempfile.mkdtemp(prefix="attention-kit-judge-")
        self.started = False
        if notebook_folder:
            folder.write_folder(folder.instructors_files(notebook_folder, source), self.folder)

    def start(self, message):
        """The first message tells the judge its folder."""
        if not self.started:
            self.started = True
            return {**message, "folder": self.folder}
        return message

    def ask(self, message, deadline):
        """The judge's next message: a request for the sandbox, or the test cell's outputs."""
        try:
            protocol.write(self.channel.fileno(), message)
            return protocol.read(self.channel.fileno(), MAX_JOB_BYTES, deadline)
        except protocol.TimedOut:
            raise Failed("timeout") from None
        except (OSError, protocol.ProtocolError):
            raise Failed("crashed", "the judge of the test cells stopped") from None


class Failed(Exception):
    def __init__(self, status, detail=None):
        super().__init__(status)
        self.status, self.detail = status, detail


def run_judged(sandbox, source, deadline):
    """A plain test cell, run by the judge: each of its requests on the student's names goes to the sandbox, and
    the sandbox's answer (or its call back to an object the judge lent), checked here, back to the judge."""
    count = evidence.count_answer(sandbox.ask({"count": True}, deadline))
    files = evidence.lent_answer(sandbox.ask({"sync": True}, deadline)).get("files")
    judge = sandbox.judge()
    message = judge.ask(
        judge.start({"cell": source, "count": count, "limit": sandbox.output_chars, "files": files}), deadline
    )
    while "ask" in message or "returned" in message or "raised" in message:
        request = message["ask"] if "ask" in message else message  # a request, or the judge's reply to a call back
        reply = sandbox.ask(request, deadline)
        if "call_back" in reply:
            message = judge.ask({"call_back": evidence.call_back(reply)}, deadline)
        else:
            message = judge.ask({"answer": evidence.lent_answer(reply)}, deadline)
    if "malformed" in message:
        raise evidence.Malformed(f"the answers to a test cell were not plain data: {message['malformed']}")
    outputs, count = evidence.cell_answer(message)
    return {"status": "ok", "outputs": outputs, "count": count}


def run_unit(sandbox, unit, deadline):
    """Run one unit in the sandbox: its result (status, and outputs or outcomes)."""
    if unit["kind"] == "judged":
        return run_judged(sandbox, unit["source"], deadline)
    if unit["kind"] in ("cell", "test"):
        request = {"cell": unit["source"], "test": unit["kind"] == "test"}
        outputs, count = evidence.cell_answer(sandbox.ask(request, deadline))
        return {"status": "ok", "outputs": outputs, "count": count}
    outcomes = []
    for request in unit["requests"]:
        outcome = evidence.probe_answer(sandbox.ask({"exercise": unit["exercise"], **request}, deadline))
        if outcome is None:
            return {"status": "undefined"}
        outcomes.append(outcome)
    return {"status": "ok", "outcomes": outcomes}


def attempt(server, job, results, deadline, name):
    """One sandbox: replay the cells already run, skip the units that failed, run the rest.
    Returns False when the sandbox failed and another attempt should continue the job."""
    sandbox = Sandbox(server, job, name)
    try:
        for index, unit in enumerate(job["units"]):
            done = results.get(index)
            if done is not None and (done["status"] in FAILURES or unit["kind"] == "kit"):
                continue
            unit_deadline = min(deadline, time.monotonic() + job["limits"]["unit_seconds"] + GRACE_SECONDS)
            try:
                result = run_unit(sandbox, unit, unit_deadline)
            except evidence.Malformed as error:
                result = {"status": "malformed", "detail": str(error)[:300]}
            except Failed as failure:
                if time.monotonic() >= deadline:
                    return True
                result = {"status": failure.status, "detail": failure.detail}
            if done is not None and result["status"] != "ok":
                return True  # a cell that ran before fails when replayed: the notebook is not deterministic
            results.setdefault(index, result)
            if result["status"] in FAILURES:
                return False
        return True
    finally:
        sandbox.remove()


def supervise(server, job, name):
    """Run a job to the end; each unit's result, in order, and how the notebook ended. A plain test cell that the
    judge failed gets a second opinion: its outputs when the notebook runs again as stock nbgrader runs it."""
    started = time.monotonic()
    units, restarts, ended = run_all(server, job, name)
    status = "graded"
    if any(u["status"] == "not_run" for u in units):
        status = "timeout" if ended else "crashed"
    if any(_judge_failed(unit, result) for unit, result in zip(job["units"], units)):
        second, _, _ = run_all(server, stock_job(job), f"{name}-stock")
        for unit, result, again in zip(job["units"], units, second):
            if _judge_failed(unit, result) and again["status"] == "ok":
                result["inside"] = again["outputs"]
    return {"status": status, "units": units, "restarts": restarts, "seconds": round(time.monotonic() - started, 3)}


def run_all(server, job, name):
    """Each unit's result, the restarts, and whether the notebook ran out of time."""
    deadline = time.monotonic() + job["limits"]["notebook_seconds"]
    results, restarts = {}, 0
    while not attempt(server, job, results, deadline, f"{name}-{restarts}"):
        restarts += 1
        if restarts > MAX_RESTARTS or time.monotonic() >= deadline:
            break
    units = [results.get(i) or {"status": "not_run"} for i in range(len(job["units"]))]
    return units, restarts, time.monotonic() >= deadline


def _judge_failed(unit, result):
    """A test cell the judge ran that did not give full marks by its outputs alone (an error, or a value that can
    be partial credit)."""
    return (
        unit["kind"] == "judged"
        and result["status"] == "ok"
        and any(output["output_type"] in ("error", "execute_result") for output in result["outputs"])
    )


def stock_job(job):
    """The job as stock nbgrader runs the notebook: every plain test cell in the student's process (with the hooks
    of before any student code), no kit check. Its sandboxes' outputs are never shown: the test cells' hidden parts
    enter them."""
    units = [
        {"kind": "test", "source": unit["source"]}
        if unit["kind"] == "judged"
        else unit
        if unit["kind"] != "kit"
        else {"kind": "cell", "source": ""}
        for unit in job["units"]
    ]
    return {**job, "units": units}


# A job of one cell: what the self-test runs, and what the profiling benchmark times as a notebook's fixed cost.
TINY_JOB = {
    "units": [{"kind": "cell", "source": "x = 1"}],
    "hide": [],
    "limits": {
        "memory_bytes": 1 << 30,
        "processes": 16,
        "unit_seconds": 10,
        "notebook_seconds": 20,
        "output_chars": 1000,
        "file_bytes": 1 << 20,
        "tmp_bytes": 1 << 20,
    },
}


def self_test(server):
    """Run a tiny job: None when the sandbox works here, else why not (no root, no namespaces...)."""
    result = supervise(server, TINY_JOB, f"attention-kit-{os.getpid()}-selftest")
    return (
        None
        if result["units"][0]["status"] == "ok"
        else (
            f"the sandbox cannot start on this machine: a test job at isolation level {levels.describe()!r} "
            f"ended as '{result['units'][0]['status']}'"
        )
    )


def main():
    """Warm up once, then read the isolation setting and how many workers the grader needs (on stdin: it may start
    this process before it knows them), fork one worker for each of the first (jobs fd, results fd, folder) of the
    arguments, and wait for them: each worker dies with this process, and this process with the grader."""
    isolation.die_with_parent(os.getppid())
    shell = warm_up()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        order = protocol.read(0, 1 << 12)
    except protocol.ProtocolError:
        return  # the grader needed no worker after all
    _, problem = levels.choose(order["isolation"])  # before any fork server
    clean = Snapshot(shell)  # what a test cell runs with, whatever the student's cells before it installed
    gc.collect()
    gc.freeze()  # what every sandbox shares stays out of its collections: Snapshot.restore collects in no time
    hugepages.collapse()  # each sandbox then forks in less system time
    offered = [(int(jobs), int(results), place) for jobs, results, place in zip(*[iter(sys.argv[1:])] * 3)]
    workers = offered[: order["count"]]
    passed = {fd for jobs, results, _ in offered for fd in (jobs, results)}
    parent = os.getpid()
    for jobs, results, place in workers:
        if os.fork() == 0:
            try:
                isolation.die_with_parent(parent)
                os.dup2(jobs, 0)
                os.dup2(results, 1)
                for fd in passed:
                    os.close(fd)
                serve(clean, problem, place)
            finally:
                os._exit(0)
    for fd in passed:
        os.close(fd)
    with contextlib.suppress(ChildProcessError):
        while True:
            os.wait()


def serve(clean, problem, folder):
    """One worker: its own temporary folder and fork server, its hello, then its jobs until stdin closes."""
    os.environ["HOME"] = os.environ["TMPDIR"] = tempfile.tempdir = folder
    server = ForkServer({SANDBOX: functools.partial(sandbox_main, clean=clean), JUDGE: judge_main})
    problem = problem or self_test(server)
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    protocol.write(
        stdout, {"ready": problem is None, "error": problem, "pid": os.getpid(), "isolation": levels.describe()}
    )
    if problem:
        return
    serial = 0
    while True:
        try:
            job = protocol.read(stdin, MAX_JOB_BYTES)
        except protocol.ProtocolError:
            return
        serial += 1
        protocol.write(stdout, supervise(server, job, f"attention-kit-{os.getpid()}-{serial}"))
        del job


if __name__ == "__main__":
    main()
