"""The student wheel installs into a student's environment and changes nothing there: a clean one (torch only),
one like Colab (its IPython and ipykernel pinned by google-colab), one like a JupyterHub image (numba caps
numpy; no pytest) and one with the oldest versions the wheel declares. In each, after ``pip install <wheel>``,
``pytest <notebook>.ipynb`` fails on the stubs and passes on right answers, in a folder of its own, and the
notebooks' test cells run in a Jupyter kernel of that environment (one kernel for all of them, its
namespace emptied between two)."""
import concurrent.futures
import contextlib
import json
import os
import shutil
import subprocess
import time

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

    The clean environment gets the extra ``[jupyter]``, as a laptop would: it has no kernel of its own.
    """

    def __init__(self, name, wheel):
        self.folder = student_envs.prepared(name)
        self.python = student_envs.python_of(self.folder)
        self.before = student_envs.installed(self.python)
        self.install = student_envs.pip(self.python, "install", f"{wheel}[jupyter]" if name == "clean" else wheel)
        self.after = student_envs.installed(self.python)
        self.check = student_envs.pip(self.python, "check")


@pytest.fixture(scope="session")
def student_env(student_release):
    """{name: StudentEnv}, built (or taken from the cache) in parallel, once per session, with the wheel that
    ``release`` puts in ``downloads/`` for students (the session's, which test_no_answers.py reads too)."""
    wheel = student_release / "downloads" / wheel_name()
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(len(ENVS)) as pool:
        built = dict(zip(ENVS, pool.map(lambda name: StudentEnv(name, wheel), ENVS)))
    print(f"\nstudent environments ready in {time.monotonic() - start:.0f} s")
    return built  # the next run takes out what the wheel installed (student_envs.prepared)


@pytest.fixture(scope="module")
def notebook_folders(tmp_path_factory):
    """Every notebook as released (stubs) in one folder, and with the instructor's answers in another."""
    stubs, answers = tmp_path_factory.mktemp("stubs"), tmp_path_factory.mktemp("answers")
    for name in notebooks():
        shutil.copy(EXERCISES / name, stubs)
        answer = reference_answers(nbformat.read(SOLUTIONS / name, as_version=4))
        nbformat.write(fill(nbformat.read(EXERCISES / name, as_version=4), answer), answers / name)
    return stubs, answers


def run_student(env, *arguments, cwd):
    """Run the environment's Python as a student would: its own bin first on PATH, nothing of the kit's."""
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    clean["PATH"] = f"{env.python.parent}{os.pathsep}/usr/bin:/bin"
    return subprocess.run([str(env.python), *arguments], cwd=cwd, capture_output=True, text=True, env=clean,
                          stdin=subprocess.DEVNULL, timeout=600)


@pytest.mark.parametrize("name", ENVS)
def test_installing_the_wheel_changes_no_installed_package(student_env, name):
    env = student_env[name]
    assert env.install.returncode == 0, env.install.stdout[-2000:] + env.install.stderr[-2000:]
    changed = {package: (version, env.after.get(package)) for package, version in env.before.items()
               if env.after.get(package) != version}
    assert changed == {}
    assert env.after["attention-kit-student"] == "0.1.0"


@pytest.mark.parametrize("name", ENVS)
def test_installing_the_wheel_raises_no_conflict(student_env, name):
    env = student_env[name]
    said = (env.install.stdout + env.install.stderr).lower()
    assert not [words for words in CONFLICT if words in said], said[-3000:]
    assert env.check.returncode == 0, env.check.stdout


@pytest.mark.parametrize("name", ENVS)
def test_pytest_fails_on_stubs_and_passes_on_answers_in_a_folder_of_their_own(student_env, notebook_folders, name):
    env, (stubs, answers) = student_env[name], notebook_folders
    exercises = sum(1 for nb in notebooks() for cell in nbformat.read(EXERCISES / nb, as_version=4).cells
                    if kit_exercise(cell))
    passed = run_student(env, "-m", "pytest", "-p", "no:cacheprovider", *notebooks(), cwd=answers)
    assert passed.returncode == 0, passed.stdout[-3000:] + passed.stderr[-2000:]
    assert f"{exercises} passed" in passed.stdout
    failed = run_student(env, "-m", "pytest", "-p", "no:cacheprovider", *notebooks(), cwd=stubs)
    assert failed.returncode == 1, failed.stdout[-3000:] + failed.stderr[-2000:]
    assert f"{exercises} failed" in failed.stdout and "passed" not in failed.stdout.splitlines()[-1]
    assert sorted(p.name for p in stubs.iterdir()) == sorted(notebooks())  # nothing written beside them


@contextlib.contextmanager
def student_kernel(env, folder):
    """A kernel manager for a kernel of ``env`` (its ipykernel), started in ``folder`` by the first notebook
    run in it and shut down at the end."""
    specs = folder / "kernels"
    spec = specs / "student"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(env.python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "student", "language": "python",
        "env": {"PATH": f"{env.python.parent}{os.pathsep}/usr/bin:/bin"}}))
    km = KernelManager(kernel_name="student", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(specs)]))
    try:
        yield km
    finally:
        if km.has_kernel:
            km.shutdown_kernel(now=True)


def run_in_kernel(km, nb, folder):
    """Run ``nb`` in the kernel of ``km``, errors kept as outputs, after ``%reset -f``: each notebook starts
    from an empty namespace, as in a kernel of its own (the modules the last one imported stay imported);
    return the run notebook."""
    nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
    client = NotebookClient(nb, km=km, timeout=300, allow_errors=True, resources={"metadata": {"path": str(folder)}})
    try:
        return client.execute()
    finally:
        if client.kc is not None:
            client.kc.stop_channels()


def errors_by_cell(nb):
    return [(cell, [o for o in cell.get("outputs", []) if o.output_type == "error"]) for cell in nb.cells
            if cell.cell_type == "code"]


WHERE_FROM = "import grader, IPython\nprint(grader.__file__, IPython.get_ipython().__class__.__name__)"


@pytest.mark.parametrize("name", ENVS)
def test_test_cells_run_in_a_kernel_of_the_environment(student_env, notebook_folders, name, tmp_path):
    env, (stubs, answers) = student_env[name], notebook_folders
    with student_kernel(env, tmp_path) as km:
        for notebook in notebooks():
            done = nbformat.read(answers / notebook, as_version=4)
            done.cells.append(nbformat.v4.new_code_cell(WHERE_FROM))
            done = run_in_kernel(km, done, tmp_path)
            assert [(cell.source[:80], errors) for cell, errors in errors_by_cell(done) if errors] == []
            where = "".join(o.get("text", "") for o in done.cells[-1].outputs)  # one print may come in pieces
            assert where.startswith(str(env.folder)) and "ZMQInteractiveShell" in where, where  # the wheel's copy
        # The stubs fail every test cell (one notebook: pytest above checks them all).
        fresh = run_in_kernel(km, nbformat.read(stubs / STEPS, as_version=4), tmp_path)
    tests = [errors for cell, errors in errors_by_cell(fresh) if kit_exercise(cell)]
    assert tests and all(tests)
