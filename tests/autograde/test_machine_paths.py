"""No path of the grading machine in what a student gets: a file in a traceback or an error's text is named from
inside the folder that holds it (``torch/nn/modules/module.py``), however the text writes the folder, on tracebacks
made by the sandbox's own IPython shell and by Python."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import traceback

import nbformat
import pytest

from grader.boundary.machine_paths import scrub_exercise, scrub_outputs, without_machine_paths
from grader.boundary.student_safe import KIT_ROOT
from grader.records import ExerciseRecord, PartRecord
from grader.sandbox.levels import SCRATCH_PREFIX, WORKING_FOLDER
from grader.sandbox.pool import WORKER_FOLDER
from grader.tutor.hidden_tests import ANSI, clear_hidden_tests, hidden_lines

from ..conftest import ROOT

LIBRARY_FILE = "torch/nn/modules/module.py"
WRONG_SHAPE = "layer(torch.zeros(4, 2))"  # a student's line: a Linear(3, 2) called on 2 features


def raised(call):
    """The exception ``call`` raises."""
    try:
        call()
    except Exception as error:
        return error
    raise AssertionError("it did not raise")


def test_python_traceback_lines_through_pytorch_name_its_files_from_the_package_on():
    """As the judge shows an error raised in the student's code: Python's own traceback lines."""
    import torch

    error = raised(lambda: torch.nn.Linear(3, 2)(torch.zeros(4, 2)))
    lines = traceback.format_list(traceback.extract_tb(error.__traceback__))
    assert any(sys.prefix in line for line in lines)  # the machine's path, as the judge receives it
    said = "".join(without_machine_paths(line) for line in lines)
    assert f'File "{LIBRARY_FILE}", line' in said and "site-packages" not in said and sys.prefix not in said


def test_an_error_in_a_folder_of_the_sandbox_names_the_file_alone(tmp_path):
    """The error's own text, for a file in the sandbox's working folder, a worker's folder or a sandbox's scratch
    folder (made as grader.sandbox.pool and grader.sandbox.levels make them), or the notebook's folder."""
    worker = tempfile.mkdtemp(prefix=f"{WORKER_FOLDER}{os.getpid()}-", dir=tmp_path)
    scratch = tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=worker)
    notebook = tmp_path / "submitted" / "alice"
    for folder in (WORKING_FOLDER, worker, scratch, notebook):
        error = raised(lambda folder=folder: open(os.path.join(folder, "weights.pt")))
        assert without_machine_paths(str(error), [notebook]) == "[Errno 2] No such file or directory: 'weights.pt'"


def test_the_words_of_a_test_cells_record_lose_the_machines_paths():
    message = f"your code raised FileNotFoundError: {raised(lambda: open(f'{KIT_ROOT}/grader/weights.pt'))}"
    record = ExerciseRecord("Head", 0.0, 5.0, parts=[PartRecord("shapes", 1.0, 0.0, False, message=message)])
    clean = scrub_exercise(record)
    assert clean.parts[0].message.endswith("No such file or directory: 'grader/weights.pt'")
    assert clean.reason is None and clean.note is None and record.parts[0].message == message


def test_text_without_paths_is_left_as_it_is():
    text = "\x1b[91mValueError\x1b[39m: shapes (3,) and (4,) do not match"
    assert without_machine_paths(text) == text


# The sandbox's shell, in a process of its own (it is a singleton), with HOME above its Python environment as the
# sandbox's may be: a cell that calls nn.Linear with the wrong shape, the same with IPython's colours on, and a
# test cell whose hidden test names a file of the grading machine.
IN_THE_SANDBOX = """
import json, sys
from grader.sandbox.shell import new_shell

shell = new_shell()
cells = ["import torch\\nlayer = torch.nn.Linear(3, 2)", "{wrong}", "%colors linux", "{wrong}", "%colors nocolor",
         {hidden!r}]
print(json.dumps([shell.run(cell, 10_000)[0] for cell in cells]))
"""
HIDDEN_TEST = '### BEGIN HIDDEN TESTS\nassert (pathlib.Path("{folder}") / "answer.txt").read_text() == "42"\n'


def sandbox_outputs(python, home, folder):
    """The outputs of ``IN_THE_SANDBOX``'s cells, run by ``python`` with ``home`` as HOME."""
    hidden = "import pathlib\n" + HIDDEN_TEST.format(folder=folder) + "### END HIDDEN TESTS"
    script = IN_THE_SANDBOX.format(wrong=WRONG_SHAPE, hidden=hidden)
    env = {**os.environ, "HOME": str(home)}
    done = subprocess.run([str(python), "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return hidden, [[nbformat.from_dict(output) for output in outputs] for outputs in json.loads(done.stdout)]


@pytest.fixture(params=["this environment", "another environment with spaces"])
def environment(request, tmp_path):
    """(its Python, a HOME above it): this one, that the grader knows, or a link to it under a folder with spaces,
    that it does not (any environment's site-packages)."""
    if request.param == "this environment":
        return pathlib.Path(sys.executable), pathlib.Path(sys.prefix).parent.parent
    home = tmp_path / "my home"
    (home / "a kit").mkdir(parents=True)
    (home / "a kit" / ".venv").symlink_to(sys.prefix)
    return home / "a kit" / ".venv" / "bin" / pathlib.Path(sys.executable).name, home


@pytest.mark.slow  # a new process with IPython's shell
def test_the_sandboxs_tracebacks_through_pytorch_name_its_files_from_the_package_on(environment, tmp_path):
    python, home = environment
    hidden, (_, plain, _, coloured, _, failed) = sandbox_outputs(python, home, tmp_path)
    for outputs in (plain, coloured):
        raw = ANSI.sub("", "".join(outputs[0].traceback))
        assert f"File ~/{pathlib.Path(python).parent.parent.relative_to(home)}" in raw  # as IPython shortens it
        said = ANSI.sub("", "".join(scrub_outputs(outputs)[0].traceback))
        assert f"File {LIBRARY_FILE}:" in said and "Cell In[" in said and WRONG_SHAPE in said, said
        assert "~/" not in said and "site-packages" not in said and ".venv" not in said, said
    assert "\x1b[" in coloured[0].traceback[0], "a line without a path keeps its colours"

    secrets = hidden_lines(nbformat.v4.new_code_cell(hidden))
    cell = nbformat.v4.new_code_cell(hidden, outputs=scrub_outputs(failed, [tmp_path], secrets))
    clear_hidden_tests(cell)
    shown = json.dumps(cell.outputs)
    assert "answer.txt" in shown and str(tmp_path) not in shown, shown
    assert "read_text()" not in shown, f"the hidden test shows, its path taken out: {shown}"
