"""``python -m grader.gradescope.check``: start the sandbox as grading will, and say at which isolation level.

setup.sh runs it, so that the image's build log says whether submissions will be walled in here.
"""

import sys

from ..course import Course
from ..sandbox.pool import SandboxUnavailable
from ..sandbox.worker import shared_pool, start_sandbox


def main():
    try:
        start_sandbox(Course.at("."))
    except SandboxUnavailable as error:
        sys.exit(f"The sandbox cannot start in this container: {error}")
    print(f"The sandbox starts here; isolation: {shared_pool().started[0].isolation}")


if __name__ == "__main__":
    main()
