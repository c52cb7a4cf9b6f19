"""``grader.course_config``, the name that ``nbgrader_config.py`` files written before the package layout use: the
module is :mod:`grader.course.config`, and this name is that same module."""

import sys

from .course import config as moved

sys.modules[__name__] = moved
