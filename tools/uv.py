"""uv, the installer of ``.venv`` (Makefile) and of the install tests' student environments (tests/student_envs.py):
installed under ``.cache/uv`` by pip at the version ``requirements-uv.txt`` pins, and told what pip's
configuration tells pip, which uv does not read: where it finds packages (this machine's torch is a file that
pip's ``find-links`` names), what constrains them, and which certificates to trust.

Standard library only, for the Makefile before ``.venv`` exists: ``python3.11 tools/uv.py install`` installs uv
anew; ``python3.11 tools/uv.py <arguments>`` runs ``uv pip install --quiet <arguments>`` as pip would install.
"""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / ".cache" / "uv"
COMMAND = FOLDER / "bin" / "uv"
OPTIONS = {"find-links": "--find-links", "constraint": "--constraint"}  # pip's option: uv's


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


def pip_install(*arguments, env=None, **run):
    """Run ``uv pip install --quiet <arguments>`` with the options and certificates of pip's configuration (its files
    and its ``PIP_`` variables in ``env``, default this process's); ``run``: more of subprocess.run's arguments."""
    env = dict(os.environ if env is None else env)
    options, certificates = pip_configuration(env)
    if certificates:
        env["SSL_CERT_FILE"] = certificates
    return subprocess.run(
        [str(installed()), "pip", "install", "--quiet", *map(str, arguments), *options],
        env=env,
        stdin=subprocess.DEVNULL,
        **run,
    )


def pip_configuration(env):
    """(uv's options for pip's ``find-links`` and ``constraint``, each place once; pip's ``cert``, or None)."""
    options, certificates = {}, None
    for line in _pip("config", "list", env=env).splitlines():
        key, _, value = line.partition("=")
        name, value = key.rpartition(".")[2], ast.literal_eval(value)
        if name in OPTIONS:
            options.update(((OPTIONS[name], item), None) for item in value.split())
        elif name == "cert":
            certificates = value
    return [word for option in options for word in option], certificates


def _pip(*arguments, env=None):
    """What this Python's pip prints; its error output in the exception when it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", *arguments], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL
    )
    if done.returncode != 0:
        raise RuntimeError(f"pip {' '.join(arguments)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


if __name__ == "__main__":
    if sys.argv[1:] == ["install"]:
        install()
    else:
        sys.exit(pip_install(*sys.argv[1:]).returncode)
