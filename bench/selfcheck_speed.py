"""Self-check speed: ``pytest <notebook>.ipynb`` on each released stub against ``import torch`` alone.

Each figure is the minimum of ``--runs`` runs of a new interpreter (wall seconds: the minimum is the run least
disturbed by whatever else the machine does). The self-check runs what a student installs: the student wheel,
built now (grader/release/wheel.py: the visible halves of the exercise modules as the release compiles them),
unpacked into a folder that comes first on the path, the kit's own ``grader`` (its editable install) out of
the way, in the kit's environment (the same torch, NumPy, matplotlib and pytest).

    .venv/bin/python bench/selfcheck_speed.py
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile
import time
import zipfile

KIT = pathlib.Path(__file__).resolve().parents[1]
EXERCISES = KIT / "exercises" / "self_attention"
AIM = 0.5  # seconds beyond import torch
# pytest as a student runs it, with the wheel's grader only (the kit's editable install finds its own first)
STUDENT_PYTEST = """import sys
sys.meta_path[:] = [finder for finder in sys.meta_path if "editable" not in getattr(finder, "__module__", "")
                    and "editable" not in type(finder).__module__]
sys.path.insert(0, sys.argv.pop(1))
import pytest
sys.exit(pytest.main(sys.argv[1:]))
"""


def student_package(folder):
    """The student wheel, built from the kit now and unpacked into ``folder``."""
    from grader.course import Course
    from grader.release.wheel import build_wheel, course_points
    wheel = build_wheel(folder / "wheel", course_points(Course.at(KIT)))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(folder / "package")
    return folder / "package"


def fastest(command, runs):
    best = None
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run(command, cwd=KIT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.monotonic() - started
        best = seconds if best is None else min(best, seconds)
    return best


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("notebooks", nargs="*", help="notebook files (default: every released notebook)")
    args = options.parse_args(argv)
    notebooks = [pathlib.Path(n) for n in args.notebooks] or sorted(EXERCISES.glob("*.ipynb"))
    scratch = tempfile.TemporaryDirectory()
    package = student_package(pathlib.Path(scratch.name))
    torch = fastest([sys.executable, "-c", "import torch"], args.runs)
    print(f"import torch alone: {torch:.2f} s (minimum of {args.runs} runs)")
    over = []
    for notebook in notebooks:
        seconds = fastest([sys.executable, "-c", STUDENT_PYTEST, str(package), "-q", "-p", "no:cacheprovider", "-p",
                           "grader.selfcheck.plugin", str(notebook)], args.runs)
        beyond = seconds - torch
        over += [notebook.name] if beyond > AIM else []
        print(f"  pytest {notebook.name:<40} {seconds:5.2f} s   {beyond:+5.2f} s beyond import torch")
    print(f"within {AIM} s of import torch: {'every notebook' if not over else 'not ' + ', '.join(over)}")
    scratch.cleanup()
    return 1 if over else 0


if __package__ in (None, ""):  # run as a script: the kit's folder on the path, as ``-m bench...`` would
    sys.path.insert(0, str(KIT))

if __name__ == "__main__":
    sys.exit(main())
