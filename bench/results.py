"""The benchmarks' figures as data: each run of a benchmark appends one JSON record to ``bench/results.jsonl``.

A record holds the benchmark's name, the date and time (UTC), the commit (``git rev-parse HEAD``, when the kit is a
git checkout), the cores this process may use, the wall seconds a new interpreter takes to ``import torch`` (the
machine's speed, in one number), the load average before the run (1 minute) and the benchmark's own figures. The
documentation's benchmarks page is made from this file (docs/_ext/kit_docs.py).

Each benchmark takes ``--results PATH`` (default ``bench/results.jsonl``); ``--results ''`` records nothing.
"""

import datetime
import json
import os
import pathlib
import subprocess
import sys
import time

KIT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT = KIT / "bench" / "results.jsonl"


def add_option(parser):
    """The ``--results`` option of a benchmark's argument parser."""
    parser.add_argument(
        "--results",
        default=str(DEFAULT),
        help="append this run's record to this JSON Lines file (default bench/results.jsonl; '' records nothing)",
    )


def commit():
    """The kit's commit, or None where it is not a git checkout (or git is missing)."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=KIT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def import_torch_seconds():
    """Wall seconds a new interpreter takes to import PyTorch."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import torch"], check=True, stdout=subprocess.DEVNULL)
    return round(time.monotonic() - started, 3)


def machine():
    """What a record says of the machine, measured now: call it before the run (the load average is the run's
    "before")."""
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": commit(),
        "cores": len(os.sched_getaffinity(0)),
        "load_before": round(os.getloadavg()[0], 2),
        "import_torch_s": import_torch_seconds(),
    }


def record(path, benchmark, figures, before):
    """Append ``{"benchmark": benchmark, **before, "figures": figures}`` to ``path`` (nothing when ``path`` is
    empty); ``before`` is :func:`machine`'s, taken before the run. Returns the record."""
    entry = {"benchmark": benchmark, **before, "figures": figures}
    if path:
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps(entry, sort_keys=False) + "\n")
    return entry
