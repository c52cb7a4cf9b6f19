"""``grader.safe_html``, the name that ``nbgrader_config.py`` files written before the package layout use: the
module is :mod:`grader.boundary.safe_html`, and this name is that same module."""

import sys

from .boundary import safe_html as moved

sys.modules[__name__] = moved
