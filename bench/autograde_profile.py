"""Profile: where a notebook's grading time goes, inside the sandbox and outside it.

Grades a small clean class (the benchmark's) as one grading process does, in this process: the warm
worker started, then nbgrader's autograde for each student. Outside the sandbox, each nbgrader
preprocessor is timed through nbgrader's own configuration (the profiled course's nbgrader_config.py
lists timed subclasses of the same preprocessors), and what remains of nbgrader's run is its per-student
setup and the gradebook's rows. Inside, every job the worker ran is replayed in a fork of a warm process
(as the worker forks a sandbox, without the walls), timed per request: the student's cells, the figures
(the inline backend's drawing after a cell), each exercise's probes and the answers' encoding for the
channel back; the walls and the fork are timed on the real worker with a one-cell job. Then the
feedback pages are rendered. Figures are CPU milliseconds per notebook (process time: a busy machine
changes them less than wall time) with each row's share of its table.

    .venv/bin/python bench/autograde_profile.py --students 4
"""

import argparse
import collections
import contextlib
import gc
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

if __package__ in (None, ""):  # run as a script: the kit's folder on the path, as ``-m bench...`` would
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.autograde_speed import clean_class, make_course  # noqa: E402
from bench.results import add_option, machine, record  # noqa: E402
from grader.sandbox.zygote import TINY_JOB  # noqa: E402

KIT = pathlib.Path(__file__).resolve().parents[1]
SPENT = collections.Counter()  # CPU seconds by row, outside the sandbox
TIMED_CONFIG = """
# The profile's timing (bench/autograde_profile.py): the same preprocessors, each timed.
from bench.autograde_profile import timed
c.Autograde.sanitize_preprocessors = timed(c.Autograde.sanitize_preprocessors)
c.Autograde.autograde_preprocessors = timed(c.Autograde.autograde_preprocessors)
"""
CELLS, FIGURES, TESTS, CHANNEL = (
    "student's cells",
    "figures (inline backend, after the cell)",
    "test cells run in the sandbox",
    "answers encoded for the channel back",
)


def timed(classes):
    """The same preprocessors, each a subclass (of the same name, so the same configuration) that adds its CPU
    time to SPENT."""

    def subclass(cls):
        def preprocess(self, nb, resources):
            started = time.process_time()
            try:
                return cls.preprocess(self, nb, resources)
            finally:
                SPENT[f"preprocessor {cls.__name__}"] += time.process_time() - started

        return type(cls.__name__, (cls,), {"preprocess": preprocess})

    return [subclass(cls) for cls in classes]


def grade_in_process(course, students):
    """Grade ``students`` here as one grading process does;
    return the jobs the worker ran and the wall seconds of starting it and of each job."""
    from grader.autograde.nbgrader_pass import autograde_app, warm_up
    from grader.sandbox.worker import shared_pool, start_sandbox, stop_sandbox

    os.chdir(course.root)
    started = time.monotonic()
    warm_up()
    walls = {"the checks planned before the grading processes are forked (once per run)": time.monotonic() - started}
    started = time.monotonic()
    start_sandbox(course)
    walls["start the warm worker (imports, warm-up, self-test)"] = time.monotonic() - started
    pool = shared_pool()
    jobs, run = [], pool.run

    def recorded(job):
        begun, cpu = time.monotonic(), time.process_time()
        try:
            result = run(job)
            jobs.append((job, result))
            return result
        finally:
            SPENT["  of SandboxExecute: waiting for the sandbox (grader's own CPU)"] += time.process_time() - cpu
            walls.setdefault("jobs (wall, summed)", 0.0)
            walls["jobs (wall, summed)"] += time.monotonic() - begun

    pool.run = recorded
    for student in students:  # as nbgrader_pass.grade_student, step by step
        cpu = time.process_time()
        app = autograde_app(course)
        app.coursedir.student_id = student
        SPENT["nbgrader app: set up (config file, course folders)"] += time.process_time() - cpu
        cpu = time.process_time()
        app.start()
        SPENT["nbgrader app: start"] += time.process_time() - cpu
    begun = time.monotonic()
    for _ in range(5):
        run(TINY_JOB)
    walls["a one-cell job: fork, walls, channel (wall, per notebook)"] = (time.monotonic() - begun) / 5
    stop_sandbox()
    judging(jobs)
    return [job for job, _ in jobs], walls


def judging(jobs):
    """The kit's checks judged again on the evidence each job sent back, as SandboxExecute judges them."""
    from grader.autograde.jobs import judge_exercise

    started = time.process_time()
    for job, result in jobs:
        for position, unit in enumerate(job["units"]):
            if unit["kind"] == "kit":
                judge_exercise(job, result["units"], position)
    SPENT["  of SandboxExecute: judging the kit's checks (outside any sandbox)"] += time.process_time() - started


def outside_rows():
    """The grading process's rows: nbgrader's own work is app.start less the preprocessors."""
    preprocessing = sum(v for k, v in SPENT.items() if k.startswith("preprocessor"))
    rows = [(k, v) for k, v in SPENT.items() if k != "nbgrader app: start"]
    rows.insert(
        1,
        (
            "nbgrader: per-student setup, gradebook rows, notebooks read and written",
            SPENT["nbgrader app: start"] - preprocessing,
        ),
    )
    return rows


def replay(jobs_file):
    """Inside: each job replayed in a fork of a warm process; prints CPU seconds by row as JSON."""
    from grader.sandbox import zygote
    from grader.sandbox.hooks import Snapshot

    shell = zygote.warm_up()
    drawing = collections.Counter()
    callbacks = shell.events.callbacks["post_execute"]
    for position, callback in enumerate(callbacks):
        if getattr(callback, "__name__", "") == "flush_figures":
            callbacks[position] = _timed_flush(callback, drawing)
    clean = Snapshot(shell)
    gc.collect()
    gc.freeze()  # as the worker does before its fork server starts (zygote.main)
    totals = collections.Counter()
    for job in json.loads(pathlib.Path(jobs_file).read_text()):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read)
                os.write(write, json.dumps(_replay_job(job, shell, clean, drawing)).encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read) as channel:
            totals.update(json.loads(channel.read() or "{}"))
        os.waitpid(pid, 0)
    print(json.dumps(totals))


def _timed_flush(flush, drawing):
    def flush_figures():
        started = time.process_time()
        try:
            return flush()
        finally:
            drawing["seconds"] += time.process_time() - started

    return flush_figures


def _replay_job(job, shell, clean, drawing):
    """CPU seconds by row for one job, run in this (forked) process."""
    from grader.sandbox import protocol, runner
    from grader.sandbox.handles import Handles

    found, handles = collections.Counter(), Handles()
    for unit in job["units"]:
        if unit["kind"] == "judged":
            continue
        if unit["kind"] == "kit":
            requests = [{"exercise": unit["exercise"], **request} for request in unit["requests"]]
            row = f"probes of {unit['exercise']}"
        else:
            requests = [{"cell": unit["source"], "test": unit["kind"] == "test"}]
            row = TESTS if unit["kind"] == "test" else CELLS
        for request in requests:
            started = time.process_time()
            answer = runner.answer(shell, request, job["limits"]["output_chars"], clean, handles)
            middle = time.process_time()
            protocol.encode(answer)
            found[row] += middle - started
            found[CHANNEL] += time.process_time() - middle
    found[CELLS] -= drawing["seconds"]
    found[FIGURES] += drawing["seconds"]
    return found


def print_table(title, rows, notebooks):
    total = sum(seconds for label, seconds in rows if not label.startswith("  "))
    print(f"\n{title}  (CPU ms per notebook, share of the table)")
    for label, seconds in rows:
        print(f"  {label:<72} {1000 * seconds / notebooks:7.1f}  {100 * seconds / total:5.1f}%")
    print(f"  {'total':<72} {1000 * total / notebooks:7.1f}")


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--students", type=int, default=4)
    options.add_argument("--out", default=None, help="keep the course here (default: a temporary folder)")
    options.add_argument("--replay", help=argparse.SUPPRESS)  # internal: the inside replay of a jobs file
    add_option(options)
    args = options.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    before = machine()
    from grader.course import Course

    folder = pathlib.Path(args.out or tempfile.mkdtemp(prefix="profile-")).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    submissions = clean_class(folder, args.students, None)
    root = make_course(folder, "kit", submissions)
    with open(root / "nbgrader_config.py", "a") as config:
        config.write(TIMED_CONFIG)
    course = Course.at(root).resolved()
    students = sorted(p.name for p in submissions.iterdir())
    with contextlib.redirect_stderr(open(os.devnull, "w")):
        jobs, walls = grade_in_process(course, students)
    notebooks = len(jobs)
    (folder / "jobs.json").write_text(json.dumps(jobs))
    inside = json.loads(
        subprocess.run(
            [sys.executable, __file__, "--replay", str(folder / "jobs.json")],
            check=True,
            capture_output=True,
            text=True,
            cwd=KIT,
            env={**os.environ, "MPLBACKEND": "Agg"},
        ).stdout.splitlines()[-1]
    )
    started = time.monotonic()
    course.run_nbgrader("generate_feedback", course.assignment, "--force")
    walls["feedback pages (python -m grader feedback, wall, per notebook)"] = (time.monotonic() - started) / notebooks
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import grader.autograde.nbgrader_pass"], check=True, cwd=KIT)
    walls["a new interpreter importing a grading process's code (the kit forks one)"] = time.monotonic() - started
    print(f"class: {len(students)} students, {notebooks} notebooks")
    outside = outside_rows()
    print_table("outside the sandbox: the grading process", outside, notebooks)
    print_table(
        "inside the sandbox: the jobs replayed in a warm fork",
        sorted(inside.items(), key=lambda item: (item[0].startswith("probes"), item[0])),
        notebooks,
    )
    print("\nwall seconds:")
    for label, seconds in walls.items():
        print(f"  {label:<72} {seconds:7.3f}")
    record(
        args.results,
        "autograde_profile",
        {
            "students": len(students),
            "notebooks": notebooks,
            "outside_cpu_ms_per_notebook": round(
                1000 * sum(s for label, s in outside if not label.startswith("  ")) / notebooks, 1
            ),
            "inside_cpu_ms_per_notebook": round(1000 * sum(inside.values()) / notebooks, 1),
            **{f"wall_s: {label}": round(seconds, 3) for label, seconds in walls.items()},
        },
        before,
    )
    if not args.out:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":  # the module itself, not __main__: the course's configuration imports it (SPENT)
    from bench.autograde_profile import main as profile

    sys.exit(profile())
