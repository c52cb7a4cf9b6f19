"""``python -m grader <verb>``: see :mod:`grader.cli`."""

from .cli import main

main()
