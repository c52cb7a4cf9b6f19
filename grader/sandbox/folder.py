"""The notebook's folder, as stock nbgrader runs a notebook in it: the files nbgrader puts beside the notebook (the
student's, then the course's own over them) are copied into the sandbox's working folder and into the judge's, and
the files the student's code writes there are copied to the judge's, so that a test cell reads them.

Only regular files cross, each read once through a descriptor opened without following links. The judge takes the
student's files as data: a name that leads out of its folder, a link, or a file Python would import (``.py``,
``.so``, ``.pth``...) is never written there, so no code of the student's reaches the judge through a file.
"""

import os
import stat

SKIPPED_FOLDERS = frozenset({".ipynb_checkpoints", "__pycache__", ".git"})
MODULE_SUFFIXES = (".py", ".pyc", ".pyo", ".pyd", ".so", ".pth", ".pyw", ".pyz")
NOTEBOOK = ".ipynb"
MAX_FILES = 2000
MAX_NAME = 255


def read_folder(root, limit):
    """{relative path: bytes} of the regular files below ``root`` (links and other kinds left out), at most
    ``limit`` bytes in all: a file that would pass it is left out. Notebooks are left out too: nbgrader writes each
    autograded notebook, the instructor's hidden tests in it, into the folder where the next one is graded."""
    found, total = {}, 0
    for relative, fd in _regular_files(root):
        if relative.endswith(NOTEBOOK):
            os.close(fd)
            continue
        with os.fdopen(fd, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            if total + size > limit:
                continue
            data = file.read(size + 1)
        if len(data) == size:
            found[relative] = data
            total += size
    return found


def _regular_files(root):
    """(relative path, read-only descriptor) of each regular file below ``root``, walked without following links;
    the caller closes each descriptor. At most MAX_FILES files."""
    try:
        top = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return
    stack, count = [("", top)], 0
    try:
        while stack and count < MAX_FILES:
            prefix, folder = stack.pop()
            try:
                for entry in sorted(os.listdir(folder)):
                    try:
                        fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
                    except OSError:
                        continue  # a link, or gone
                    kind = os.fstat(fd).st_mode
                    if stat.S_ISDIR(kind) and entry not in SKIPPED_FOLDERS:
                        stack.append((f"{prefix}{entry}/", fd))
                    elif stat.S_ISREG(kind) and count < MAX_FILES:
                        count += 1
                        yield f"{prefix}{entry}", fd
                    else:
                        os.close(fd)
            finally:
                os.close(folder)
    finally:
        for _, folder in stack:  # left when the walk stops early
            os.close(folder)


def write_folder(files, root):
    """Write ``files`` ({relative path: bytes}) below ``root``; a name that is not a plain relative path is left
    out. Returns the names written."""
    written = []
    for relative, data in files.items():
        target = inside(root, relative)
        if target is None:
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        partial = f"{target}.{os.getpid()}.partial"
        with open(partial, "wb") as file:
            file.write(data)
        os.replace(partial, target)  # a new file: never writes through an existing one
        written.append(relative)
    return written


def inside(root, relative):
    """The path of ``relative`` below ``root`` when it is a plain relative path that stays there, else None."""
    parts = relative.split("/") if isinstance(relative, str) else []
    if not parts or any(part in ("", ".", "..") or len(part) > MAX_NAME or "\0" in part for part in parts):
        return None
    target = os.path.join(root, *parts)
    real_root = os.path.realpath(root)
    if os.path.commonpath([real_root, os.path.realpath(os.path.dirname(target))]) != real_root:
        return None
    return target


def instructors_files(notebook_folder, source, limit=256 << 20):
    """The judge's copy of the notebook's folder: every file nbgrader put there, but a file Python would import only
    where it is the instructor's (the same bytes as in the assignment's ``source`` folder)."""
    files = read_folder(notebook_folder, limit)
    return {name: data for name, data in files.items() if is_data(name) or _same_in(source, name, data)}


def _same_in(source, relative, data):
    path = inside(source, relative) if source else None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW) if path else None
    except OSError:
        return False
    if fd is None:
        return False
    with os.fdopen(fd, "rb") as file:
        return file.read(len(data) + 1) == data


def is_data(relative):
    """Whether a file the student's code wrote may be copied to the judge: not a file Python imports."""
    parts = relative.split("/")
    return (
        not relative.endswith(MODULE_SUFFIXES)
        and "__pycache__" not in parts
        and not any(part.endswith(".egg-link") or part.endswith(".dist-info") for part in parts)
    )


class Changes:
    """The sandbox's side: which files of its working folder changed since they were last sent."""

    def __init__(self, root, limit):
        self.root, self.limit, self.sent = root, 0, {}
        self.since_last()  # what the folder holds now was copied there: noted, not sent
        self.limit = limit

    def since_last(self):
        """{relative path: bytes} of the data files written or changed since the last call (at most ``limit``
        bytes in all), and the names of those removed."""
        now, changed, total = {}, {}, 0
        for relative, fd in _regular_files(self.root):
            with os.fdopen(fd, "rb") as file:
                info = os.fstat(file.fileno())
                now[relative] = (info.st_size, info.st_mtime_ns)
                if self.sent.get(relative) == now[relative] or not is_data(relative):
                    continue
                if total + info.st_size <= self.limit:
                    changed[relative] = file.read(info.st_size)
                    total += len(changed[relative])
        removed = [name for name in self.sent if name not in now and is_data(name)]
        self.sent = now
        return changed, removed
