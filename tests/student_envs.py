"""Students' Python environments for the install tests: each built from a pinned list in ``tests/envs/`` plus
torch 2.13.0 (the CPU build this machine holds), from PyPI and where pip's configuration finds packages, by uv
(tools/uv.py: the four took a core for 86 s with pip, 15 s with uv). The wheel goes in with each environment's own
pip, as a student installs it.

A built environment is kept under ``.cache/student-envs/`` (git-ignored), keyed by a hash of what went into
it, so that repeated local runs skip the build. A test installs into it; the next run uninstalls what it
installed, and builds anew an environment whose own packages changed.

The standard library and uv are all this module needs: ``make test`` starts building the environments with it
(``python3.11 -m tests.student_envs [name ...]``) in the background before it builds the kit's own; the tests that
use them wait for them.
"""

import csv
import fcntl
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import venv

from tools import uv

ROOT = pathlib.Path(__file__).resolve().parent.parent
LISTS = ROOT / "tests" / "envs"
CACHE = ROOT / ".cache" / "student-envs"
TORCH = "torch==2.13.0"  # the only torch this machine may install: any other pulls gigabytes of CUDA packages

# Colab's google-colab package pins its IPython and ipykernel: a stand-in that pins them as it does.
GOOGLE_COLAB = """\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "google-colab"
version = "1.0.0"
description = "A stand-in for Colab's google-colab: its pins, no code"
dependencies = ["ipython==7.34.0", "ipykernel==6.17.1"]

[tool.setuptools]
py-modules = []
"""
EXTRAS = {"colab-like": GOOGLE_COLAB}


# What a student's shell has not: the kit's environment, and Python told to keep no bytecode (where the kit's
# tests run with it, every process in a student's environment would compile PyTorch's and pip's modules anew).
KIT_ONLY = ("PYTHONPATH", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV", "PYTHONDONTWRITEBYTECODE")


def environ():
    """The environment variables of a student's shell: this process's, less the kit's own (:data:`KIT_ONLY`)."""
    return {k: v for k, v in os.environ.items() if k not in KIT_ONLY}


def pip(python, *arguments, timeout=1200):
    """Run ``python``'s pip, outside the kit's environment; return the finished process, output captured."""
    return subprocess.run(
        [str(python), "-m", "pip", *arguments],
        capture_output=True,
        text=True,
        env=environ(),
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


def install(python, *requirements):
    """Install ``requirements`` into the environment of ``python`` with uv; return the finished process."""
    with _lock("uv"):  # one installs it, the others wait
        uv.installed()
    return uv.pip_install(
        "--python", python, *requirements, env=environ(), capture_output=True, text=True, timeout=1200
    )


def checked(done):
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, done.args))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return done


def python_of(folder):
    return pathlib.Path(folder) / "bin" / "python"


def _key(name):
    extra = EXTRAS.get(name, "")
    text = "\n".join([sys.version, TORCH, (LISTS / f"{name}.txt").read_text(), extra])
    return f"{name}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def _stand_in(name, scratch):
    """The source folder of ``name``'s stand-in package, for pip to build and install; or None."""
    if name not in EXTRAS:
        return None
    source = scratch / "stand-in"
    source.mkdir()
    (source / "pyproject.toml").write_text(EXTRAS[name])
    return source


# What ``pip list`` lists, through the standard library (a tenth of pip's start-up), names normalised (PEP 503).
LIST = (
    "import importlib.metadata as m, json, re\n"
    "print(json.dumps({re.sub(r'[-_.]+', '-', d.metadata['Name']).lower(): d.version for d in m.distributions()}))"
)


def installed(python):
    """{package: version} of everything installed, pip and setuptools included."""
    listed = checked(subprocess.run([str(python), "-I", "-c", LIST], capture_output=True, text=True, env=environ()))
    return json.loads(listed.stdout)


def _stamp(python):
    return json.dumps(installed(python), sort_keys=True, indent=0)


def _lock(name):
    """The open lock file of environment ``name``, locked: one process at a time builds or checks it."""
    CACHE.mkdir(parents=True, exist_ok=True)
    lock = open(CACHE / f"{name}.lock", "a")
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def prepared(name):
    """The environment built from ``tests/envs/<name>.txt``, from the cache when it is there as it was built
    (after waiting for a build under way: two test runs on one checkout, or ``make test``'s)."""
    with _lock(name):
        return _prepared(name)


def _prepared(name):
    target = CACHE / _key(name)
    stamp = target / ".built"
    if stamp.exists() and _as_built(python_of(target), json.loads(stamp.read_text())):
        return target
    for stale in CACHE.glob(f"{name}-*"):
        shutil.rmtree(stale)
    venv.create(target, with_pip=True)  # Python 3.11's venv: pip and setuptools
    _share_torch(target)
    with tempfile.TemporaryDirectory() as scratch:
        stand_in = _stand_in(name, pathlib.Path(scratch))
        checked(install(python_of(target), "-r", LISTS / f"{name}.txt", TORCH, *([stand_in] if stand_in else [])))
    stamp.write_text(_stamp(python_of(target)))
    return target


def _site_packages(folder):
    return next(pathlib.Path(folder).glob("lib/python3.*/site-packages"))


def _share_torch(target):
    """Put the torch of an environment built before into ``target`` as hard links to the same files (those its
    RECORD lists), so that uv finds it installed rather than install its 750 MB again. Nothing
    if no environment is built yet."""
    built = [stamp.parent for stamp in CACHE.glob("*/.built") if stamp.parent != target]
    version = TORCH.split("==")[1]
    records = [record for env in built for record in _site_packages(env).glob(f"torch-{version}*.dist-info/RECORD")]
    if not records:
        return
    source, into = records[0].parents[1], _site_packages(target)
    with open(records[0], newline="") as record:
        paths = [row[0] for row in csv.reader(record)]
    for path in sorted(paths, key=lambda p: ".dist-info/" in p):  # the dist-info last: torch counts once whole
        (into / path).parent.mkdir(parents=True, exist_ok=True)
        if path.startswith("../"):  # a console script in bin/: its first line names the environment's Python
            lines = (source / path).read_text().splitlines(keepends=True)
            (into / path).write_text(f"#!{python_of(target)}\n" + "".join(lines[1:]))
            (into / path).chmod(0o755)
        else:
            os.link(source / path, into / path)


def _as_built(python, built):
    """Whether the environment holds what it was built with, once what a test run installed in it since (the
    student wheel and what it brought) is uninstalled: here, before the next run, rather than after each one,
    so that a run in a fresh clone (CI) spends nothing on it."""
    now = installed(python)
    if any(now.get(package) != version for package, version in built.items()):
        return False
    added = sorted(set(now) - set(built))
    return not added or (pip(python, "uninstall", "--yes", *added).returncode == 0 and installed(python) == built)


def build_in_background(names=()):
    """Lock the environments ``names`` (default: every one), then build them one after another in a child process
    and return at once: ``make test`` builds them on one core while it builds the kit's ``.venv`` on the other, and
    each test that needs one waits for it (:func:`prepared`). The installers' output goes to
    ``.cache/student-envs/build.log``; a build that fails is tried again by the test."""
    names = sorted(names or (path.stem for path in LISTS.glob("*.txt")))
    locks = {name: _lock(name) for name in names}
    if os.fork():
        return
    with open(CACHE / "build.log", "w") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
    for name, lock in locks.items():
        with lock:
            print(f"student environment {name}: {_prepared(name).relative_to(ROOT)}", flush=True)
    os._exit(0)


if __name__ == "__main__":
    build_in_background(sys.argv[1:])
