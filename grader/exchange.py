"""``grader.exchange``, the name that ``nbgrader_config.py`` files written before the package layout use: the
module is :mod:`grader.boundary.exchange`, and this name is that same module."""

import sys

from .boundary import exchange as moved

sys.modules[__name__] = moved
