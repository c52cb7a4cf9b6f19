"""``python -m grader gradescope``: the autograder zip Gradescope asks for.

At its root, ``setup.sh`` (run once to build the image) and ``run_autograder`` (run on each
submission); beside them ``kit/``, the course as the grader needs it: nbgrader_config.py, the
solutions, the release, the kit's package and pinned requirements, and a gradebook that holds the
assignment (its notebooks, graded cells, points and the instructor's test cells) and no student.
Gradescope unpacks the zip into /autograder/source.
"""

import pathlib
import re
import shutil
import tempfile
import zipfile

import nbformat

from ..boundary.student_safe import KIT_ROOT, PACKAGE
from ..checks.cells import is_test_cell
from ..course import CONFIG, Course
from .layout import KIT

TEMPLATES = pathlib.Path(__file__).parent / "templates"
MEMORY_MB = 128  # a submission's share of Gradescope's default 768 MB: the grader's own processes peak near 620 MB
OVERRIDES = """
# Added by `python -m grader gradescope`, for Gradescope's container: the gradebook is the zip's own
# (SQLite, in this folder, which every grading process works in); a submission reads nothing under
# /autograder (the submission folder, the results); its memory fits Gradescope's container.
import os as _os
c.CourseDirectory.db_url = "sqlite:///" + _os.path.abspath("gradebook.db")
c.SandboxExecute.hidden_folders = [_os.environ.get("AUTOGRADER_ROOT", "/autograder")]
c.SandboxExecute.memory_bytes = {memory}
"""


def gradescope(course=".", assignment="self_attention", out=None, memory_mb=MEMORY_MB):
    """Write the autograder zip (default ``<course>/autograder.zip``), whose sandbox gives a submission
    ``memory_mb`` of memory; return its path."""
    course = Course.at(course, assignment).resolved()
    out = pathlib.Path(out or course.root / "autograder.zip").resolve()
    with tempfile.TemporaryDirectory() as scratch:
        kit = pathlib.Path(scratch) / KIT
        stage(course, kit, memory_mb << 20)
        write_zip(kit, out)
    return out


def stage(course, kit, memory_bytes):
    """The course as the autograder needs it, in ``kit``, its gradebook filled by nbgrader generate_assignment."""
    source = course.source
    kit.mkdir(parents=True)
    shutil.copytree(source, kit / source.relative_to(course.root))
    shutil.copytree(PACKAGE, kit / PACKAGE.name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("requirements.txt", "pyproject.toml"):
        shutil.copy(KIT_ROOT / name, kit)
    overrides = OVERRIDES.format(memory=memory_bytes)
    (kit / CONFIG).write_text((course.root / CONFIG).read_text() + overrides)
    staged = Course(kit, course.assignment)
    staged.generate_assignment("--force")
    _same_release(course.release, staged.release)


def _test_cells(folder):
    return {
        path.name: [
            (c.metadata["nbgrader"]["grade_id"], c.metadata["nbgrader"]["points"], c.source)
            for c in nbformat.read(path, as_version=4).cells
            if is_test_cell(c)
        ]
        for path in sorted(pathlib.Path(folder).glob("*.ipynb"))
    }


def _same_release(released, rebuilt):
    """The students' notebooks must be the ones the zip grades: stop if solutions/ changed since the release."""
    if released.exists() and _test_cells(released) != _test_cells(rebuilt):
        raise RuntimeError(
            f"The notebooks in {released} are not the ones solutions/ makes now: run "
            "'python -m grader release' first, so that students get the notebooks Gradescope grades."
        )


def _torch_version():
    pinned = re.search(r"^torch==(\S+)", (KIT_ROOT / "requirements.txt").read_text(), re.M)
    return pinned.group(1)


def write_zip(kit, out):
    """setup.sh and run_autograder at the zip's root (executable), the course under ``kit/``: its sources, not the
    bytecode that staging's run of nbgrader left beside them."""
    setup = (TEMPLATES / "setup.sh").read_text().replace("@TORCH_VERSION@", _torch_version())
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in (("setup.sh", setup), ("run_autograder", (TEMPLATES / "run_autograder").read_text())):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o100755 << 16
            archive.writestr(info, text, zipfile.ZIP_DEFLATED)
        for path in sorted(kit.rglob("*")):
            if path.is_file() and "__pycache__" not in path.relative_to(kit).parts:
                archive.write(path, f"{KIT}/{path.relative_to(kit)}")
