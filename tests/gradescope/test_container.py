"""The Gradescope container of the tests runs a program it has just written even while another thread's child
still holds it open for writing, as happens when run_all lays out two containers at once."""

import errno
import os
import subprocess
import threading

import pytest

from .container import _run_just_written


def test_a_program_held_open_for_writing_runs_once_it_is_let_go(tmp_path):
    program = tmp_path / "run_autograder"
    program.write_text("#!/bin/sh\necho ran\n")
    program.chmod(0o755)
    held = os.open(program, os.O_WRONLY)  # as a child forked while the file was being written holds it
    with pytest.raises(OSError) as refused:
        subprocess.run([str(program)], capture_output=True)
    assert refused.value.errno == errno.ETXTBSY
    threading.Timer(0.2, os.close, [held]).start()
    assert _run_just_written([str(program)], capture_output=True, text=True).stdout == "ran\n"
