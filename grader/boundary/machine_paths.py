"""The grading machine's own folders out of what a student gets back.

A file in a traceback or an error's text is named from inside the folder that holds it, as Python imports it:
``torch/nn/modules/module.py``, ``grader/checks/plain.py``, ``helper.py`` in the notebook's folder; never by the
grader's checkout, virtual environment, HOME or temporary folders. A folder is found however the text writes it:
whole; shortened with ``~``, as IPython shortens a path under HOME (the sandbox's HOME is not the grader's, so
each folder above a path may be it); as the sandbox's own temporary folders; as any environment's
``site-packages`` or ``dist-packages``; split by ANSI colours (a cell can turn IPython's colours on).
"""

import dataclasses
import functools
import os
import re
import site
import sys
import sysconfig
from pathlib import PurePosixPath

from ..sandbox.levels import SCRATCH_PREFIX, WORKING_FOLDER
from ..sandbox.pool import WORKER_FOLDER
from ..tutor.hidden_tests import ANSI, leaks
from .student_safe import kit_copies

PATH_CHAR, IN_PATH = r"[\w.~+@%-]", r"[\w.~+@%/-]"  # a folder's name, a path
START = rf"(?:(?<!{IN_PATH})|(?<=file://))"  # not inside a longer path
END = rf"(/|(?!{PATH_CHAR}))"  # a file inside the folder follows, or nothing more of the path
LIBRARY = re.compile(
    r'(?<=File ")[^"\n]*/(?:site|dist)-packages/'  # Python's traceback: File "<path>", line 3, in f
    r'|(?<=File )[~/.][^"\n]*?/(?:site|dist)-packages/'  # IPython's: File <path>:3, in f
    rf"|{START}{IN_PATH}*/(?:site|dist)-packages/"  # anywhere else, a path without spaces
)
TEMPORARY = "|".join(map(re.escape, (WORKER_FOLDER, SCRATCH_PREFIX)))
SANDBOX_TEMPORARY = re.compile(  # a sandbox worker's folder, a sandbox's scratch folder in it
    rf"{START}(?:~/|(?:/[^\s/\"']+)*/)?(?:(?:{TEMPORARY})[\w-]+/)*(?:{TEMPORARY})[\w-]+{END}"
)


def without_machine_paths(text, folders=(), hidden=()):
    """``text`` with each path of the grading machine named from inside its folder; ``folders``: more folders of
    the grading machine (the notebook's, the course's). A line that shows one of the ``hidden`` test lines is left
    as it is, for grader.tutor.hidden_tests to take out whole; a text or line cleaned loses its colours."""
    if hidden:
        return "".join(
            line if leaks(line, hidden) else without_machine_paths(line, folders)
            for line in text.splitlines(keepends=True)
        )
    plain = ANSI.sub("", text)
    if "/" not in plain and "~" not in plain:
        return text
    clean = LIBRARY.sub("", plain)
    clean = _known_folders(tuple(str(folder) for folder in folders if folder)).sub(_inside, clean)
    clean = SANDBOX_TEMPORARY.sub(_inside, clean)
    return text if clean == plain else clean


def scrub_outputs(outputs, folders=(), hidden=()):
    """The outputs (nbformat nodes), their errors and stream text without the grading machine's paths (see
    :func:`without_machine_paths`)."""
    clean = functools.partial(without_machine_paths, folders=folders, hidden=hidden)
    for output in outputs:
        if output.get("output_type") == "error":
            output["traceback"] = [clean(line) for line in output.get("traceback", [])]
            output["evalue"] = clean(output.get("evalue", ""))
        elif output.get("output_type") == "stream":
            output["text"] = clean(output.get("text", ""))
    return outputs


def scrub_exercise(exercise, folders=()):
    """A test cell's record (grader.records.ExerciseRecord) whose words are without the grading machine's paths."""

    def clean(text):
        return text and without_machine_paths(text, folders)

    parts = [dataclasses.replace(part, message=clean(part.message)) for part in exercise.parts]
    return dataclasses.replace(exercise, reason=clean(exercise.reason), note=clean(exercise.note), parts=parts)


def _inside(match):
    """What is left of a folder: nothing before a file inside it, '.' for the folder itself."""
    return "" if match.group(1) else "."


@functools.lru_cache(maxsize=16)
def _known_folders(folders):
    """One pattern for the grading machine's folders, each as a text may write it, the longest first."""
    forms = {form for folder in _machine_folders(folders) for form in _written(folder)}
    alternatives = "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
    return re.compile(rf"{START}(?:{alternatives}|~(?=/)){END}")  # last, any other HOME's path: ~/x


def _machine_folders(folders):
    """Where Python imports from (the Python environment, the kit), Python itself, the kit's copies, the sandbox's
    working folder, HOME and ``folders``: each as given and with its links resolved."""
    named = [
        *sys.path,
        *site.getsitepackages(),
        site.getusersitepackages(),
        *sysconfig.get_paths().values(),
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        *map(str, kit_copies()),
        WORKING_FOLDER,
        os.path.expanduser("~"),
        *folders,
    ]
    found = {
        form
        for name in named
        if name and os.path.isabs(name)
        for form in (os.path.normpath(name), os.path.realpath(name))
    }
    return found - {"/"}


def _written(folder):
    """``folder`` whole, and shortened with ``~`` for each folder above it that may be HOME."""
    parts = PurePosixPath(folder).parts
    return [folder, *("~/" + "/".join(parts[n:]) for n in range(2, len(parts)))]
