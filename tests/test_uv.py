"""uv installs ``.venv`` and the students' environments: tools/uv.py hands it the ``find-links`` and ``constraint``
of pip's configuration, which uv does not read (this machine's torch is a file that pip's ``find-links`` names)."""
import os

from tools import uv


def test_uv_is_told_where_pip_finds_packages_and_what_constrains_them(tmp_path):
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("torch<=2.14.1\n")
    wheels = tmp_path / "wheels"
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull,  # no file of pip's configuration: the variables alone
           "PIP_FIND_LINKS": f"{wheels} {wheels}", "PIP_CONSTRAINT": str(constraints)}
    options = uv.pip_sources(env)  # each place once
    assert sorted(zip(options[::2], options[1::2])) == [("--constraint", str(constraints)), ("--find-links", str(wheels))]
