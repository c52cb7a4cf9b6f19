"""Inside the sandbox: run the notebook's code cells, then probe each exercise, reporting as it goes.

Everything here runs in the process that also runs the student's code, so nothing here
decides a grade: it only sends evidence (plain data) to the worker outside.
"""
import contextlib
import io
import signal

from ..checks import plain
from ..checks.probes import run_probe
from ..checks.source import python_lines


class UnitTimeout(BaseException):
    """A cell or an exercise ran out of its time (not an Exception, so `except Exception` cannot swallow it)."""


class CappedText(io.TextIOBase):
    """A stdout that keeps the first ``limit`` characters and drops the rest."""

    def __init__(self, limit):
        self.limit, self.kept = limit, []
        self.size = 0

    def writable(self):
        return True

    def write(self, text):
        if self.size < self.limit:
            self.kept.append(text[: self.limit - self.size])
        self.size += len(text)
        return len(text)


def _on_alarm(signum, frame):
    raise UnitTimeout()


@contextlib.contextmanager
def time_limit(seconds):
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def run_unit(action, seconds):
    """Run one cell or one exercise's probes: ('ok', result), ('error', text) or ('timeout', text)."""
    try:
        with time_limit(seconds):
            return "ok", action()
    except UnitTimeout:
        return "timeout", f"ran for more than {seconds:g} s"
    except (Exception, SystemExit) as error:
        return "error", f"{type(error).__name__}: {str(error)[:300]}"


def _probe_all(obj, requests):
    return [run_probe(obj, r["probe"], plain.from_plain(r["params"])) for r in requests]


def run_job(job, skip, emit):
    """Run the cells and probes of ``job`` not in ``skip``; ``emit`` sends each event out."""
    seconds = job["limits"]["unit_seconds"]
    namespace = {"__name__": "__main__", "display": lambda *a, **k: None}
    with contextlib.redirect_stdout(CappedText(job["limits"]["output_chars"])), \
            contextlib.redirect_stderr(CappedText(job["limits"]["output_chars"])):
        for index, source in job["cells"]:
            unit = f"cell:{index}"
            if unit in skip:
                continue
            emit({"event": "start", "unit": unit})
            code = python_lines(source)
            status, detail = run_unit(lambda: exec(compile(code, f"<cell {index}>", "exec"), namespace), seconds)
            emit({"event": "end", "unit": unit, "status": status, "detail": None if status == "ok" else detail})
        for exercise in job["exercises"]:
            unit = f"exercise:{exercise['name']}"
            if unit in skip:
                continue
            obj = namespace.get(exercise["name"])
            if obj is None:
                emit({"event": "end", "unit": unit, "status": "undefined", "detail": None})
                continue
            emit({"event": "start", "unit": unit})
            status, detail = run_unit(lambda: _probe_all(obj, exercise["requests"]), seconds)
            if status == "ok":
                emit({"event": "end", "unit": unit, "status": "ok", "outcomes": plain.to_plain(detail)})
            else:
                emit({"event": "end", "unit": unit, "status": status, "detail": detail})
    emit({"event": "done"})
