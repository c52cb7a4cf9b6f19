"""uv installs ``.venv`` and the students' environments: tools/uv.py tells it what pip's configuration tells pip,
which uv does not read (this machine's torch is a file that pip's ``find-links`` names, and the certificates that
pip trusts are in a file that pip's ``cert`` names)."""

import os

from tools import uv


def test_uv_is_told_where_pip_finds_packages_what_constrains_them_and_which_certificates_to_trust(tmp_path):
    constraints, certificates = tmp_path / "constraints.txt", tmp_path / "certificates.pem"
    constraints.write_text("torch<=2.14.1\n")
    wheels = tmp_path / "wheels"
    env = {
        **os.environ,
        "PIP_CONFIG_FILE": os.devnull,  # no file of pip's configuration: the variables alone
        "PIP_FIND_LINKS": f"{wheels} {wheels}",
        "PIP_CONSTRAINT": str(constraints),
        "PIP_CERT": str(certificates),
    }
    options, trusted = uv.pip_configuration(env)
    assert sorted(zip(options[::2], options[1::2])) == [
        ("--constraint", str(constraints)),
        ("--find-links", str(wheels)),
    ]
    assert trusted == str(certificates)
