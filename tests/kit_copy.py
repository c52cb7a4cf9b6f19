"""A copy of the kit, extended as an instructor extends it: its commands import the copy's ``grader``, never
this checkout's (tests/autograde/test_course_cells.py, tests/autograde/test_new_exercise.py)."""

import os
import shutil
import subprocess
import sys

from .conftest import ROOT


def copy_kit(course, *names):
    """Put the kit's ``names`` (folders or files, ``grader`` among them) into the course folder ``course``, with
    the bytecode that ``make test`` compiled: where PYTHONDONTWRITEBYTECODE is set (CI), each process of the copy
    would compile what it imports again. Python checks each file's bytecode against its source's time and size
    (a file that the test edits is compiled anew) and names the copy's files in it."""
    for name in names:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, course / name)
        else:
            shutil.copy(ROOT / name, course / name)
    return course


def copy_venv(target):
    """This virtual environment at ``target``, as if the kit's checkout there had made it: Python finds its packages
    there (``sys.prefix`` is ``target``). Its files are hard links to this one's, copies where they cannot be; its
    scripts still start this environment's Python."""

    def link(source, copy):
        try:
            os.link(source, copy)
        except OSError:  # another file system
            shutil.copy2(source, copy)

    shutil.copytree(sys.prefix, target, symlinks=True, copy_function=link)
    return target


def run(kit, *command, python=sys.executable):
    """``python *command`` in the copy, with the copy first on the path; its output, once it succeeded."""
    env = {**os.environ, "PYTHONPATH": str(kit)}
    done = subprocess.run([python, *command], cwd=kit, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:] + done.stdout[-2000:]
    return done
