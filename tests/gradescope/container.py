"""Gradescope's container, laid out here: the zip unpacked under a root of the test's own, run_autograder run there."""

import errno
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

from ..hidden_lines import hidden_test_lines


def run_autograder(autograder, root, files, python=sys.executable):
    """Lay the zip out as Gradescope does under ``root``, put ``files`` ({path: text, or a function of the
    path and ``root`` that makes it}) in the submission folder, run run_autograder with ``python``; return
    (results.json as a dict, stdout)."""
    shutil.rmtree(root, ignore_errors=True)
    with zipfile.ZipFile(autograder) as archive:
        archive.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "results").mkdir()
    (root / "results" / "results.json").write_text('{"secret": "a stale result"}')  # must be neither read nor kept
    (root / "submission_metadata.json").write_text('{"users": [{"email": "student@example.com"}]}')
    (root / "submission").mkdir()
    for name, content in files.items():
        path = root / "submission" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):  # made by the test: a link, a zip...
            content(path, root)
        else:
            path.write_text(content)
    done = _run_just_written(
        [str(root / "run_autograder")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": str(python)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads((root / "results" / "results.json").read_text()), done.stdout


def _run_just_written(command, tries=20, **options):
    """``subprocess.run`` of a program this process has just written. While run_all lays out two containers at
    once, a child forked by the other thread can still hold the file open for writing (until it execs), and Linux
    then refuses to run it (ETXTBSY): run it again once that child has moved on."""
    for attempt in range(tries):
        try:
            return subprocess.run(command, **options)
        except OSError as error:
            if error.errno != errno.ETXTBSY or attempt == tries - 1:
                raise
            time.sleep(0.05)


def run_all(autograder, base, submissions):
    """run_autograder on each {name: files}, two at a time (one per core)."""
    with ThreadPoolExecutor(2) as pool:
        runs = {
            name: pool.submit(run_autograder, autograder, base / name, files) for name, files in submissions.items()
        }
        return {name: run.result() for name, run in runs.items()}


def scored(results):
    return {t["name"]: t["score"] for t in results["tests"] if "score" in t}


def no_hidden_source(runs):
    """No line of a hidden test in any results.json; scored tests wait for publication, the rest are visible."""
    secrets = hidden_test_lines()
    for results, _ in runs.values():
        text = json.dumps(results)
        assert not [line for line in secrets if line in text]
        assert {t["visibility"] for t in results["tests"] if "score" in t} == {"after_published"}
        assert {t["visibility"] for t in results["tests"] if "score" not in t} == {"visible"}
