#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu 22.04, whose
# Python is 3.10): Python 3.11 from the deadsnakes PPA, then the kit's pinned packages in a virtual
# environment beside the course, PyTorch from PyTorch's CPU wheel index.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
KIT=/autograder/source/kit

apt-get update
apt-get install -y --no-install-recommends ca-certificates software-properties-common gpg-agent
add-apt-repository -y ppa:deadsnakes/ppa
apt-get update
apt-get install -y --no-install-recommends python3.11 python3.11-venv

python3.11 -m venv "$KIT/.venv"
"$KIT/.venv/bin/python" -m pip install --quiet --upgrade pip
"$KIT/.venv/bin/python" -m pip install --quiet --index-url https://download.pytorch.org/whl/cpu "torch==@TORCH_VERSION@"
"$KIT/.venv/bin/python" -m pip install --quiet -r "$KIT/requirements.txt"
chmod +x /autograder/source/run_autograder

# The sandbox must start here: say now, in the image's build log, at which isolation level.
cd "$KIT" && "$KIT/.venv/bin/python" -m grader.gradescope.check
