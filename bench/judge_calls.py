"""Benchmark: what a plain test cell judged outside the student's process pays for each call into the student's code.

One warm worker runs one notebook: a student cell that defines ``double``, then the same test cell twice, which
calls ``double`` in a loop and prints the time a call takes: once judged in the student's process (it uses
``inspect``), once judged outside it (the judge, grader/sandbox/judge.py). Prints both and their ratio.

    .venv/bin/python -m bench.judge_calls
"""

import argparse

from bench.results import add_option, machine, record
from grader.autograde.jobs import DEFAULT_LIMITS
from grader.sandbox.pool import Pool

CALLS = 2000
TIMED = (
    "import time\nstarted = time.perf_counter()\nfor i in range({calls}):\n    assert double(i) == 2 * i\n"
    "print((time.perf_counter() - started) / {calls} * 1e6)\n"
)


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_option(options)
    args = options.parse_args(argv)
    before = machine()
    cell = TIMED.format(calls=CALLS)
    units = [
        {"kind": "cell", "source": "def double(x):\n    return 2 * x\n"},
        {"kind": "test", "source": "import inspect\n" + cell},
        {"kind": "judged", "source": cell},
    ]
    pool = Pool(1, "none")
    try:
        result = pool.run({"units": units, "hide": [], "limits": DEFAULT_LIMITS})
    finally:
        pool.close()
    inside, outside = (float(unit["outputs"][0]["text"]) for unit in result["units"][1:])
    print(f"a call from a test cell judged in the student's process: {inside:.1f} µs")
    print(f"a call from a test cell judged outside it:               {outside:.1f} µs ({outside / inside:.0f}x)")
    record(
        args.results,
        "judge_calls",
        {"inside_us": round(inside, 2), "outside_us": round(outside, 1), "ratio": round(outside / inside)},
        before,
    )


if __name__ == "__main__":
    main()
