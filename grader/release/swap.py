"""Generate the student notebooks beside the release folder, then swap them in: a failure leaves it untouched."""

import contextlib
import pathlib
import tempfile


def generate_atomically(course):
    """Run ``nbgrader generate_assignment`` into a temporary folder; replace the release folder only on success.

    The temporary folder is inside the course (same file system), so the swap is two renames.
    Returns the release folder.
    """
    release = course.release
    release.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".release-", dir=course.root) as scratch:
        scratch = pathlib.Path(scratch)
        course.generate_assignment("--force", f"--CourseDirectory.release_directory={scratch / 'new'}")
        fresh = scratch / "new" / course.assignment
        if not fresh.is_dir():
            raise RuntimeError(f"nbgrader generate_assignment wrote nothing for {course.assignment}")
        old = scratch / "old"
        with contextlib.suppress(FileNotFoundError):
            release.rename(old)
        try:
            fresh.rename(release)
        except OSError:
            if old.exists():
                old.rename(release)
            raise
    return release
