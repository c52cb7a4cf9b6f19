"""Benchmark: the time ``python -m grader autograde`` takes for a small class at each isolation level.

Four students hand in notebook 01 (two right, one wrong answer, one untouched release); the class
is graded as root at level ``root``, then as an unprivileged user (made with ``useradd``, as in
tests/sandbox/test_isolation_levels.py) at ``userns``, and as that user with ``unshare(2)`` denied (the
worker falls back to ``landlock``). Needs root. Prints the wall-clock time of each run.

    .venv/bin/python -m bench.isolation_speed
"""

import argparse
import os
import pathlib
import shutil
import sys
import tempfile
import time

os.environ["PATH"] = f"{pathlib.Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"

from bench.results import add_option, machine, record  # noqa: E402
from tests.course_builder import release_course  # noqa: E402 (after PATH: nbgrader runs jupyter by name)
from tests.sandbox import test_isolation_levels as levels  # noqa: E402
from tests.sandbox.attacks import RIGHT, WRONG  # noqa: E402

CLASS = {"s1": RIGHT, "s2": RIGHT, "s3": WRONG, "s4": None}


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_option(options)
    args = options.parse_args(argv)
    before, figures = machine(), {}
    home, python = levels.make_grader_user()
    released = release_course(pathlib.Path(tempfile.mkdtemp()) / "released")
    for level in ("root", "userns", "landlock"):
        if level == "root":
            course = levels._course(released, pathlib.Path(tempfile.mkdtemp()) / "course", CLASS, "root")
            command = [sys.executable, "-m", "grader", "autograde", "--course", str(course)]
        else:
            setting = "auto" if level == "landlock" else level
            course = levels._course(released, home / f"bench-{level}", CLASS, setting, owner=levels.USER)
            command = levels._as_user(home, python, "-m", "grader", "autograde", "--course", str(course))
            if level == "landlock":
                command = levels._without_namespaces(command, python)
        started = time.monotonic()
        done = levels._run(command, cwd=course, timeout=900)
        seconds = time.monotonic() - started
        found = levels.records(course)
        isolation = {r.isolation for r in found.values()}
        scores = {s: r.score for s, r in sorted(found.items())}
        print(f"{level:9} {seconds:6.1f} s  exit {done.returncode}  {isolation}  {scores}", flush=True)
        figures[f"{level}_s"] = round(seconds, 1)
        shutil.rmtree(course.parent if level == "root" else course, ignore_errors=True)
    shutil.rmtree(released.parent, ignore_errors=True)
    record(args.results, "isolation_speed", figures, before)


if __name__ == "__main__":
    main()
