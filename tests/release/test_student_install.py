"""The student wheel installs into a student's environment and changes nothing there: a clean one (torch only),
one like Colab (its IPython and ipykernel pinned by google-colab), one like a JupyterHub image (numba caps
numpy; no pytest) and one with the oldest versions the wheel declares. In each, after ``pip install <wheel>``,
``pytest`` fails on every exercise of the stubs and passes every one of right answers, in folders of their
own (one run for both, each exercise's outcome read from its JUnit XML report), and the notebooks' test
cells run in a Jupyter kernel of that environment (one kernel for all of them, its namespace emptied
between two)."""

import concurrent.futures
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from xml.etree import ElementTree

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from grader.checks.cells import kit_exercise
from grader.checks.registry import notebooks
from grader.demo.fill import fill, reference_answers
from grader.release.wheel import wheel_name

from .. import student_envs
from ..conftest import EXERCISES, SOLUTIONS

pytestmark = pytest.mark.slow

ENVS = ["clean", "colab-like", "hub-like", "oldest"]
STEPS = "02_self_attention_step_by_step.ipynb"
CONFLICT = ("dependency conflicts", "incompatible", "which is not installed")


class StudentEnv:
    """One environment with the wheel installed: what pip said, and what was installed before and after.

    The clean environment gets the extra ``[jupyter]``, as a laptop would: it has no kernel of its own. pip
    compiles no bytecode: Python writes it for the modules that the notebooks import (a few hundred; pip would
    compile all 3,900 files of the Jupyter packages that the clean environment gets, half its CPU there).
    """

    def __init__(self, name, wheel):
        self.folder = student_envs.prepared(name)
        self.python = student_envs.python_of(self.folder)
        self.before = student_envs.installed(self.python)
        self.install = student_envs.pip(
            self.python, "install", "--no-compile", f"{wheel}[jupyter]" if name == "clean" else wheel
        )
        self.after = student_envs.installed(self.python)
        self.check = student_envs.pip(self.python, "check")


@pytest.fixture(scope="session")
def student_env(student_release, request):
    """{name: StudentEnv} of the environments this run's tests use (``make test`` leaves all but the clean one to
    ``make test-all``), built (or taken from the cache) in parallel, once per session, with the wheel that
    ``release`` puts in ``downloads/`` for students (the session's, which test_no_answers.py reads too)."""
    wheel = student_release / "downloads" / wheel_name()
    names = sorted(
        {item.callspec.params["name"] for item in request.session.items if item.module is sys.modules[__name__]}
    )
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(len(names)) as pool:
        built = dict(zip(names, pool.map(lambda name: StudentEnv(name, wheel), names)))
    print(f"\nstudent environments ready in {time.monotonic() - start:.0f} s")
    return built  # the next run takes out what the wheel installed (student_envs.prepared)


@pytest.fixture(scope="module")
def notebook_folders(tmp_path_factory):
    """Every notebook as released (stubs) in one folder, and with the instructor's answers in another, the two
    alone in a folder."""
    both = tmp_path_factory.mktemp("notebooks")
    stubs, answers = both / "stubs", both / "answers"
    stubs.mkdir()
    answers.mkdir()
    for name in notebooks():
        shutil.copy(EXERCISES / name, stubs)
        answer = reference_answers(nbformat.read(SOLUTIONS / name, as_version=4))
        nbformat.write(fill(nbformat.read(EXERCISES / name, as_version=4), answer), answers / name)
    return stubs, answers


def run_student(env, *arguments, cwd):
    """Run the environment's Python as a student would: its own bin first on PATH, nothing of the kit's."""
    return subprocess.run(
        [str(env.python), *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=student_environ(env),
        stdin=subprocess.DEVNULL,
        timeout=600,
    )


def student_environ(env):
    """A student's shell's environment variables, with ``env``'s bin first on PATH."""
    return {**student_envs.environ(), "PATH": f"{env.python.parent}{os.pathsep}/usr/bin:/bin"}


@pytest.mark.parametrize("name", ENVS)
def test_installing_the_wheel_changes_no_installed_package(student_env, name):
    env = student_env[name]
    assert env.install.returncode == 0, env.install.stdout[-2000:] + env.install.stderr[-2000:]
    changed = {
        package: (version, env.after.get(package))
        for package, version in env.before.items()
        if env.after.get(package) != version
    }
    assert changed == {}
    assert env.after["attention-kit-student"] == "0.1.0"


@pytest.mark.parametrize("name", ENVS)
def test_installing_the_wheel_raises_no_conflict(student_env, name):
    env = student_env[name]
    said = (env.install.stdout + env.install.stderr).lower()
    assert not [words for words in CONFLICT if words in said], said[-3000:]
    assert env.check.returncode == 0, env.check.stdout


def outcomes(report):
    """[(test id, outcome)] of a JUnit XML report of pytest's, sorted; the id as the report gives it:
    ``<folder>.<notebook>::<exercise>``."""
    said = {"failure": "failed", "error": "error", "skipped": "skipped"}
    return sorted(
        (
            f"{case.get('classname')}::{case.get('name')}",
            next((said[child.tag] for child in case if child.tag in said), "passed"),
        )
        for case in ElementTree.parse(report).iter("testcase")
    )


@pytest.mark.parametrize("name", ENVS)
def test_pytest_fails_on_stubs_and_passes_on_answers_in_a_folder_of_their_own(
    student_env, notebook_folders, name, tmp_path
):
    env, (stubs, answers) = student_env[name], notebook_folders
    exercises = [
        (nb, kit_exercise(cell))
        for nb in notebooks()
        for cell in nbformat.read(EXERCISES / nb, as_version=4).cells
        if kit_exercise(cell)
    ]
    report = tmp_path / "report.xml"
    done = run_student(
        env,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        f"--junitxml={report}",
        stubs.name,
        answers.name,
        cwd=stubs.parent,
    )
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]  # tests failed: no error of pytest's
    assert outcomes(report) == sorted(
        [(f"stubs.{nb}::{exercise}", "failed") for nb, exercise in exercises]
        + [(f"answers.{nb}::{exercise}", "passed") for nb, exercise in exercises]
    )
    for folder in notebook_folders:  # nothing written beside them
        assert sorted(p.name for p in folder.iterdir()) == sorted(notebooks())
    assert sorted(p.name for p in stubs.parent.iterdir()) == ["answers", "stubs"]


@contextlib.contextmanager
def student_kernel(env, folder, kernels):
    """A kernel manager with a kernel of ``env`` (its ipykernel) started in ``folder``, as a student's shell
    would start it, configured by ``kernels`` (the tests' Unix sockets, tests/ports.py); shut down at the end."""
    specs = folder / "kernels"
    spec = specs / "student"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(env.python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "student",
                "language": "python",
            }
        )
    )
    km = KernelManager(
        kernel_name="student", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)]), config=kernels
    )
    try:
        km.start_kernel(env=student_environ(env), cwd=str(folder))
        yield km
    finally:
        if km.has_kernel:
            km.shutdown_kernel(now=True)


def run_in_kernel(km, nb):
    """Run ``nb`` in the kernel of ``km``, errors kept as outputs, after ``%reset -f``: each notebook starts
    from an empty namespace, as in a kernel of its own (the modules the last one imported stay imported);
    return the run notebook."""
    nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
    client = NotebookClient(nb, km=km, timeout=300, allow_errors=True)
    try:
        return client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()


def errors_by_cell(nb):
    return [
        (cell, [o for o in cell.get("outputs", []) if o.output_type == "error"])
        for cell in nb.cells
        if cell.cell_type == "code"
    ]


WHERE_FROM = "import grader, IPython\nprint(grader.__file__, IPython.get_ipython().__class__.__name__)"


@pytest.mark.parametrize("name", ENVS)
def test_test_cells_run_in_a_kernel_of_the_environment(student_env, notebook_folders, name, tmp_path, kernels):
    env, (stubs, answers) = student_env[name], notebook_folders
    with student_kernel(env, tmp_path, kernels) as km:
        for notebook in notebooks():
            done = nbformat.read(answers / notebook, as_version=4)
            done.cells.append(nbformat.v4.new_code_cell(WHERE_FROM))
            done = run_in_kernel(km, done)
            assert [(cell.source[:80], errors) for cell, errors in errors_by_cell(done) if errors] == []
            where = "".join(o.get("text", "") for o in done.cells[-1].outputs)  # one print may come in pieces
            assert where.startswith(str(env.folder)) and "ZMQInteractiveShell" in where, where  # the wheel's copy
        # The stubs fail every test cell (one notebook: pytest above checks them all).
        fresh = run_in_kernel(km, nbformat.read(stubs / STEPS, as_version=4))
    tests = [errors for cell, errors in errors_by_cell(fresh) if kit_exercise(cell)]
    assert tests and all(tests)
