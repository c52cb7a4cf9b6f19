"""Benchmark: stock sequential ``nbgrader autograde`` against the kit's sandboxed parallel autograde.

Builds a class with the demo generator (students without broken submissions, which stock nbgrader
cannot grade correctly), copied up to ``--students`` students, grades it both ways in one run,
checks that every notebook gets the same score, and prints notebooks per second, the ratio, the
scaling from 1 to 2 workers and the peak memory of the kit's grading.

    .venv/bin/python bench/autograde_speed.py --students 40
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import psutil

from grader.course import Course, path_with_venv
from grader.demo.generate import make_class
from grader.demo.run import ROOT, new_course

ASSIGNMENT = "self_attention"
STOCK_CONFIG = '''c = get_config()
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.OverwriteCells.add_missing_cells = True
'''


def clean_class(folder, students, notebooks):
    """``students`` submissions without breakage, copied round-robin from the demo class."""
    plan = make_class(folder / "generated")
    sound = [s for s in plan.students if not plan.composition[s]["profile"].startswith(("broken", "missing"))]
    chosen = folder / "class"
    for n in range(students):
        source = folder / "generated" / sound[n % len(sound)]
        target = chosen / f"{source.name}{n // len(sound) or ''}"
        target.mkdir(parents=True)
        for name in notebooks or [p.name for p in source.glob("*.ipynb")]:
            shutil.copy(source / name, target / name)
    return chosen


def make_course(folder, kind, submissions):
    course = new_course(folder / kind)
    if kind == "stock":
        (course / "nbgrader_config.py").write_text(STOCK_CONFIG)
    run(course, [sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force"])
    for student in submissions.iterdir():
        shutil.copytree(student, course / "submitted" / student.name / ASSIGNMENT)
    return course


def run(course, command):
    """Run a command in the course; return (seconds, peak resident memory of its process tree in MiB)."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=course, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**os.environ, "PATH": path_with_venv()})
    peak = [0]

    def sample():
        root = psutil.Process(process.pid)
        while process.poll() is None:
            try:
                tree = [root] + root.children(recursive=True)
                peak[0] = max(peak[0], sum(p.memory_info().rss for p in tree if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.1)

    watcher = threading.Thread(target=sample)
    watcher.start()
    _, errors = process.communicate()
    watcher.join()
    if process.returncode:
        raise SystemExit(f"{command} failed:\n{errors.decode()[-2000:]}")
    return time.monotonic() - started, peak[0] / 2**20


def scores(course):
    with Course.at(course).gradebook() as gradebook:
        return {(s.student.id, nb.name): nb.score for s in gradebook.assignment_submissions(ASSIGNMENT)
                for nb in s.notebooks}


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--students", type=int, default=40)
    options.add_argument("--notebooks", nargs="*", help="only these notebook files (default: all five)")
    options.add_argument("--out", default=None, help="keep the courses here (default: a temporary folder)")
    args = options.parse_args(argv)
    folder = pathlib.Path(args.out or tempfile.mkdtemp(prefix="bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    submissions = clean_class(folder, args.students, args.notebooks)
    count = sum(1 for _ in submissions.rglob("*.ipynb"))
    stock = make_course(folder, "stock", submissions)
    kit = make_course(folder, "kit", submissions)
    stock_seconds, stock_peak = run(stock, [sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT])
    kit_one, _ = run(kit, [sys.executable, "-m", "grader", "autograde", "--force", "--workers", "1"])
    kit_two, kit_peak = run(kit, [sys.executable, "-m", "grader", "autograde", "--force", "--workers", "2"])
    stock_scores, kit_scores = scores(stock), scores(kit)
    disagree = {k: (stock_scores.get(k), kit_scores.get(k)) for k in set(stock_scores) | set(kit_scores)
                if stock_scores.get(k) != kit_scores.get(k)}
    print(f"class: {args.students} students, {count} notebooks ({ROOT.name} demo generator, no broken submissions)")
    print(f"stock nbgrader autograde (sequential): {stock_seconds:7.1f} s  {count / stock_seconds:6.2f} notebooks/s"
          f"  peak {stock_peak:6.0f} MiB")
    print(f"kit autograde, 1 worker:              {kit_one:7.1f} s  {count / kit_one:6.2f} notebooks/s")
    print(f"kit autograde, 2 workers:             {kit_two:7.1f} s  {count / kit_two:6.2f} notebooks/s"
          f"  peak {kit_peak:6.0f} MiB")
    print(f"ratio kit (2 workers) / stock: {stock_seconds / kit_two:.1f}x;"
          f" scaling 1 -> 2 workers: {kit_one / kit_two:.2f}x")
    print(f"grades agree: {'yes' if not disagree else 'NO'} ({len(stock_scores)} notebooks compared)")
    for key, pair in sorted(disagree.items()):
        print(f"  {key}: stock {pair[0]}, kit {pair[1]}")
    if not args.out:
        shutil.rmtree(folder)
    return 1 if disagree or not stock_scores else 0


if __name__ == "__main__":
    sys.exit(main())
