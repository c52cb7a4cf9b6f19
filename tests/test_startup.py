"""The instructor's commands start without compiling a grammar they never use."""
import subprocess
import sys


def test_reading_notebooks_does_not_import_rfc3987_syntax():
    """jsonschema, under nbformat, imports rfc3987-syntax (1.5 s of grammar building) unless rfc3987 is there:
    every grader command and nbgrader process would pay it (requirements.txt)."""
    done = subprocess.run([sys.executable, "-c", "import sys, nbformat; print('rfc3987_syntax' in sys.modules)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
