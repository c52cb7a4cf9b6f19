"""Benchmark: ``python -m grader similarity`` on a class of ``--students`` students (default 300) × 5 notebooks.

The class is the demo generator's (grader/demo/generate.py), copied up to ``--students`` with variations: each
copy takes each notebook from a student of the demo class drawn at random, renames the variables its answers
assign and adds a comment, so that no two copies hand in the same text (each is fingerprinted). Prints the
class's size and the time the verb took, reading, comparing and writing its page included.

    .venv/bin/python bench/similarity_speed.py --students 300
"""

import argparse
import json
import os
import pathlib
import random
import re
import shutil
import sys
import tempfile
import time

if __package__ in (None, ""):  # run as a script: the kit's folder on the path, as ``-m bench...`` would
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.results import add_option, machine, record  # noqa: E402
from grader.checks.notebook import read  # noqa: E402
from grader.demo.generate import make_class  # noqa: E402
from grader.demo.run import ROOT  # noqa: E402
from grader.similarity import similarity  # noqa: E402
from grader.similarity.fingerprints import WORKERS  # noqa: E402

ASSIGNMENT = "self_attention"
ASSIGNED = re.compile(r"^\s*([a-z_]\w*)\s*=[^=]", re.MULTILINE)


def varied(source, student):
    """``source`` with the names it assigns renamed for ``student``, and a comment of theirs."""
    for name in set(ASSIGNED.findall(source)):
        source = re.sub(rf"\b{name}\b", f"{name}_{student}", source)
    return f"{source}\n    # checked by {student}"


def readable(path):
    """False for the demo's notebook that is broken on purpose (cut short)."""
    try:
        read(path)
    except ValueError:
        return False
    return True


def make_course(folder, students, seed):
    """A course folder (the kit's config, release and solutions) with ``students`` varied copies of the demo class."""
    folder = pathlib.Path(folder)
    demo = make_class(folder / "demo_class", seed=seed)
    shutil.copy(ROOT / "nbgrader_config.py", folder)
    for kit_folder in ("exercises", "solutions"):
        shutil.copytree(ROOT / kit_folder, folder / kit_folder)
    rng = random.Random(seed)
    handed_in = {
        nb.name: [read(p) for p in sorted((folder / "demo_class").glob(f"*/{nb.name}")) if readable(p)]
        for nb in sorted((folder / "exercises" / ASSIGNMENT).glob("*.ipynb"))
    }
    cells = 0
    for n in range(students):
        student = f"s{n:03d}"
        for name, papers in handed_in.items():
            nb = json.loads(json.dumps(rng.choice(papers)))
            for cell in nb["cells"]:
                if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                    cell["source"] = varied(cell["source"], student)
                    cells += 1
            path = folder / "submitted" / student / ASSIGNMENT / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(nb), encoding="utf-8")
    return folder, len(demo.students), cells


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    add_option(parser)
    arguments = parser.parse_args(argv)
    before = machine()
    with tempfile.TemporaryDirectory(prefix="similarity-bench-") as scratch:
        course, drawn_from, cells = make_course(scratch, arguments.students, arguments.seed)
        notebooks = len(list((course / "exercises" / ASSIGNMENT).glob("*.ipynb")))
        load, started, cpu = os.getloadavg()[0], time.perf_counter(), os.times()
        page = similarity(course=course)
        took, used = time.perf_counter() - started, os.times()
        own = used.user + used.system - cpu.user - cpu.system
        workers = used.children_user + used.children_system - cpu.children_user - cpu.children_system
        print(
            f"class: {arguments.students} students × {notebooks} notebooks ({cells} answer cells, varied copies "
            f"of the demo's {drawn_from} students); "
            f"{arguments.students * (arguments.students - 1) // 2} pairs per exercise"
        )
        print(f"similarity: {took:.1f} s wall clock (reading, fingerprinting, comparing, writing the page)")
        print(
            f"CPU: {own:.1f} s in this process, {workers:.1f} s in the fingerprinting processes "
            f"({min(len(os.sched_getaffinity(0)), WORKERS)} at once); the machine's load average before: "
            f"{load:.1f} on {len(os.sched_getaffinity(0))} cores"
        )
        print(f"page: {page.stat().st_size // 1024} KiB")
        record(
            arguments.results,
            "similarity_speed",
            {
                "students": arguments.students,
                "answer_cells": cells,
                "wall_s": round(took, 2),
                "cpu_main_s": round(own, 2),
                "cpu_fingerprinting_s": round(workers, 2),
                "page_kib": page.stat().st_size // 1024,
            },
            before,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
