"""Self-check speed: ``pytest <notebook>.ipynb`` on each released stub against ``import torch`` alone.

Each figure is the minimum of ``--runs`` runs of a new interpreter (wall seconds: the minimum is the run least
disturbed by whatever else the machine does), the runs of ``import torch`` and of each notebook taken in turn; the
CPU seconds beside them (user and system, the minimum too) vary less on a busy machine. The load average is
printed before and after: on a busy machine, compare the notebooks with each other, not with the aim.

The self-check runs what a student installs: the student wheel, built now (grader/release/wheel.py: the visible
halves of the exercise modules as the release compiles them), unpacked into a folder that comes first on the
path and compiled, as pip compiles it, the kit's own ``grader`` (its editable install) out of the way, in the
kit's environment (the same torch, NumPy, matplotlib and pytest). The runs keep compiled files, as a student's
Python does, whatever ``PYTHONDONTWRITEBYTECODE`` says here: pytest rewrites the plugin's modules on the first
run and reads its copies afterwards.

    .venv/bin/python bench/selfcheck_speed.py
"""

import argparse
import compileall
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time
import zipfile

KIT = pathlib.Path(__file__).resolve().parents[1]
EXERCISES = KIT / "exercises" / "self_attention"
AIM = 0.5  # seconds beyond import torch
TORCH = "import torch"
# pytest as a student runs it, with the wheel's grader only (the kit's editable install finds its own first)
STUDENT_PYTEST = """import sys
sys.meta_path[:] = [finder for finder in sys.meta_path if "editable" not in getattr(finder, "__module__", "")
                    and "editable" not in type(finder).__module__]
sys.path.insert(0, sys.argv.pop(1))
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def student_package(folder):
    """The student wheel, built from the kit now, unpacked into ``folder`` and compiled, as pip installs it."""
    from grader.course import Course
    from grader.release.wheel import build_wheel, course_points

    wheel = build_wheel(folder / "wheel", course_points(Course.at(KIT)))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder / "package")
    compileall.compile_dir(folder / "package", quiet=1)
    return folder / "package"


def timed(command, env):
    """(wall seconds, CPU seconds: user and system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(command, cwd=KIT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def fastest(commands, runs):
    """{key: (least wall seconds, least CPU seconds)} of ``commands`` ({key: command}) over ``runs`` rounds, each
    running every command once in turn, so that a change in the machine's load falls on all of them alike."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    times = {key: [] for key in commands}
    for _ in range(runs):
        for key, command in commands.items():
            times[key].append(timed(command, env))
    return {key: (min(wall for wall, _ in each), min(cpu for _, cpu in each)) for key, each in times.items()}


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("notebooks", nargs="*", help="notebook files (default: every released notebook)")
    add_option(options)
    args = options.parse_args(argv)
    before = machine()
    notebooks = [pathlib.Path(n) for n in args.notebooks] or sorted(EXERCISES.glob("*.ipynb"))
    scratch = tempfile.TemporaryDirectory()
    package = student_package(pathlib.Path(scratch.name))
    print(f"load average: {_load()}")
    commands = {TORCH: [sys.executable, "-c", "import torch"]}
    commands.update(
        {
            notebook: [
                sys.executable,
                "-c",
                STUDENT_PYTEST,
                str(package),
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "grader.selfcheck.plugin",
                str(notebook),
            ]
            for notebook in notebooks
        }
    )
    best = fastest(commands, args.runs)
    torch, torch_cpu = best[TORCH]
    print(f"import torch alone: {torch:.2f} s, CPU {torch_cpu:.2f} s (minimum of {args.runs} runs)")
    over = []
    for notebook in notebooks:
        seconds, cpu = best[notebook]
        over += [notebook.name] if seconds - torch > AIM else []
        print(
            f"  pytest {notebook.name:<40} {seconds:5.2f} s   {seconds - torch:+5.2f} s beyond import torch "
            f"(CPU {cpu - torch_cpu:+5.2f} s)"
        )
    print(f"within {AIM} s of import torch: {'every notebook' if not over else 'not ' + ', '.join(over)}")
    print(f"load average: {_load()}")
    beyond = {notebook.name: round(best[notebook][0] - torch, 3) for notebook in notebooks}
    record(
        args.results,
        "selfcheck_speed",
        {
            "import_torch_s": round(torch, 3),
            "import_torch_cpu_s": round(torch_cpu, 3),
            "beyond_torch_s": beyond,
            "beyond_torch_cpu_s": {n.name: round(best[n][1] - torch_cpu, 3) for n in notebooks},
            "worst_beyond_torch_s": max(beyond.values()),
            "aim_s": AIM,
            "runs": args.runs,
        },
        before,
    )
    scratch.cleanup()
    return 1 if over else 0


def _load():
    return ", ".join(f"{load:.2f}" for load in os.getloadavg()) + f" (1, 5, 15 min; {os.cpu_count()} cores)"


if __package__ in (None, ""):  # run as a script: the kit's folder on the path, as ``-m bench...`` would
    sys.path.insert(0, str(KIT))

from bench.results import add_option, machine, record  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
