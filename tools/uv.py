"""uv, the installer of ``.venv`` (Makefile) and of the install tests' student environments (tests/student_envs.py):
installed under ``.cache/uv`` by pip at the version ``requirements-uv.txt`` pins, and told where pip's
configuration finds packages, which uv does not read (this machine's torch is a file that pip's ``find-links``
names).

Standard library only, for the Makefile before ``.venv`` exists: ``python3.11 tools/uv.py install`` installs uv
anew, ``python3.11 tools/uv.py`` prints the options.
"""
import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / ".cache" / "uv"
COMMAND = FOLDER / "bin" / "uv"


def install():
    """Install uv anew, at the pinned version, with this Python's pip."""
    shutil.rmtree(FOLDER, ignore_errors=True)
    _pip("install", "--quiet", "--target", str(FOLDER), "-r", str(ROOT / "requirements-uv.txt"))
    COMMAND.touch()  # newer than requirements-uv.txt, for make


def installed():
    """uv's command, installed if it is not there yet."""
    if not COMMAND.exists():
        install()
    return COMMAND


def pip_sources(env=None):
    """uv's ``--find-links`` and ``--constraint`` options for those of pip's configuration (its files and its
    ``PIP_`` variables in ``env``)."""
    options = {}
    for line in _pip("config", "list", env=env).splitlines():
        key, _, value = line.partition("=")
        option = key.rpartition(".")[2]
        if option in ("find-links", "constraint"):
            for item in ast.literal_eval(value).split():
                options[(f"--{option}", item)] = None
    return [word for option in options for word in option]


def _pip(*arguments, env=None):
    """What this Python's pip prints; its error output in the exception when it fails."""
    done = subprocess.run([sys.executable, "-m", "pip", *arguments], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise RuntimeError(f"pip {' '.join(arguments)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


if __name__ == "__main__":
    if sys.argv[1:] == ["install"]:
        install()
    else:
        print(" ".join(pip_sources()))
