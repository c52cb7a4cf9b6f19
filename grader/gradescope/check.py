"""``python -m grader.gradescope.check``: start the sandbox as grading will, and say at which isolation level.

setup.sh runs it, so that the image's build log says whether submissions will be walled in here.
"""
import sys

from ..autograde.nbgrader_pass import start_sandbox
from ..autograde.preprocessors import shared_pool
from ..sandbox.pool import SandboxUnavailable


def main():
    try:
        start_sandbox(".")
    except SandboxUnavailable as error:
        sys.exit(f"The sandbox cannot start in this container: {error}")
    print(f"The sandbox starts here; isolation: {shared_pool().started[0].isolation}")


if __name__ == "__main__":
    main()
