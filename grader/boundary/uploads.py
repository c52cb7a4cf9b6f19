"""Files handed in (an LMS download, a student's upload), read as data: only the regular files inside it.

A folder is walked without following a link; each file is opened from its own folder with ``O_NOFOLLOW`` and
checked once open (a regular file with one name, of a notebook's size) before its bytes are read, so nothing
swapped in between is followed. A zip is read without extracting anything, by the same rules, with caps on what
it unpacks to. Every file refused is named with why: ``TOLD`` says it in a student's words.
"""

import errno
import functools
import io
import os
import pathlib
import stat
import zipfile
from dataclasses import dataclass

from ..cli.errors import UsageError

MAX_BYTES = 64 << 20  # a notebook larger than this is not a notebook a student wrote
MAX_TOTAL_BYTES = 4 << 30  # a zip that unpacks to more than this in all is a zip bomb
MAX_RATIO = 100  # a notebook compresses 3 to 20 times; a zip bomb a thousand times
RATIO_FROM = 1 << 20  # a smaller file may compress as far as it likes
MAX_DEPTH = 32  # folders within folders

LINK = "a symbolic link"
HARD_LINK = "a hard link (a second name for another file)"
SPECIAL = "not a regular file"
TOO_LARGE = f"larger than {MAX_BYTES >> 20} MB"
UNSAFE = "unsafe path (absolute or outside the download)"
BOMB = f"compressed more than {MAX_RATIO} to 1 (a zip bomb?)"
TOO_MUCH = f"unpacks to more than {MAX_TOTAL_BYTES >> 30} GB in all (a zip bomb?)"
NOT_A_ZIP = "not a zip file that can be opened"
TOO_DEEP = f"folders nested more than {MAX_DEPTH} deep"
UNREADABLE = "could not be read"
AGAIN = "Upload the notebook itself."
TOLD = {  # each reason in a student's words, after the file's name
    LINK: f"is a link to another file or folder, not a file you wrote: it was not graded. {AGAIN}",
    HARD_LINK: f"is a second name for another file (a hard link), not a file you wrote: it was not graded. {AGAIN}",
    SPECIAL: f"is not a regular file (a device, a pipe or a socket): it was not read. {AGAIN}",
    TOO_LARGE: f"is larger than {MAX_BYTES >> 20} MB, larger than any notebook: it was not graded.",
    UNSAFE: "has a path that leads out of its folder: it was not graded. Zip the notebooks themselves.",
    BOMB: f"is compressed far more than a notebook can be (a zip bomb?): it was not graded. {AGAIN}",
    TOO_MUCH: f"unpacks to more than {MAX_TOTAL_BYTES >> 30} GB: it was not opened. Upload the notebooks themselves.",
    NOT_A_ZIP: "is not a zip file that can be opened: nothing in it was graded. Upload the notebooks themselves.",
    TOO_DEEP: f"is in folders nested more than {MAX_DEPTH} deep: it was not read. {AGAIN}",
    UNREADABLE: f"could not be read: it was not graded. {AGAIN}",
}
FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC  # a pipe must not block


class Refused(ValueError):
    """A file not read; its message is one of the reasons above."""


@dataclass
class Entry:
    path: pathlib.PurePosixPath
    read: object  # () -> bytes, or raises Refused


def entries(source):
    """([Entry], [(shown name, reason)]): the regular files of ``source``, and every entry refused with why."""
    if zipfile.is_zipfile(source):
        return _zip_entries(zipfile.ZipFile(source), pathlib.Path(source).name, "")
    if pathlib.Path(source).is_dir():
        return _folder_entries(pathlib.Path(source))
    if not pathlib.Path(source).exists():
        raise UsageError(f"{source}: no such file or folder")
    raise UsageError(f"{source} is neither a folder nor a zip file")


def read_each(found, refused):
    """(entry, its bytes) for each entry of ``found`` that reads as a regular file; each other one is added to
    ``refused`` as (path, why)."""
    for entry in found:
        try:
            yield entry, entry.read()
        except Refused as error:
            refused.append((entry.path.as_posix(), str(error)))


def unzipped(entry):
    """([Entry], [(shown name, reason)]): the files of a zip that is itself an entry, named under it."""
    shown = entry.path.as_posix()
    try:
        archive = zipfile.ZipFile(io.BytesIO(entry.read()))
    except Refused as error:
        return [], [(shown, str(error))]
    except Exception:  # not a zip, or one zipfile cannot read: whatever it raises
        return [], [(shown, NOT_A_ZIP)]
    return _zip_entries(archive, shown, f"{shown}/")


def safe_path(name):
    """The entry's path, or None when it is absolute, climbs out (``..``) or is otherwise odd."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":") or "\x00" in name:
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return pathlib.PurePosixPath(*parts)


def _zip_entries(archive, shown, prefix):
    members = [info for info in archive.infolist() if not (info.is_dir() or stat.S_ISDIR(info.external_attr >> 16))]
    if sum(info.file_size for info in members) > MAX_TOTAL_BYTES:
        return [], [(shown, TOO_MUCH)]
    found, refused = [], []
    for info in members:
        path = safe_path(_decoded_name(info))
        why = _zip_refusal(info) if path else UNSAFE
        if why:
            refused.append((prefix + info.filename, why))
        else:
            found.append(Entry(pathlib.PurePosixPath(prefix, path), functools.partial(_read_member, archive, info)))
    return found, refused


def _zip_refusal(info):
    """Why a zip member is not read, or None. Its size is the one declared: zipfile reads no byte past it."""
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        return LINK
    if stat.S_IFMT(mode) not in (0, stat.S_IFREG):
        return SPECIAL
    if info.file_size > MAX_BYTES:
        return TOO_LARGE
    if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * info.compress_size:
        return BOMB
    return None


def _decoded_name(info):
    """The entry's name: zip tools that do not set the UTF-8 flag mostly write UTF-8 anyway, which Python
    reads as cp437; such a name is read again as UTF-8 when it is valid UTF-8."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return info.filename


def _read_member(archive, info):
    try:
        with archive.open(info) as stream:
            data = stream.read(MAX_BYTES + 1)
    except Exception:  # damaged, encrypted or compressed in a way zipfile cannot read: whatever it raises
        raise Refused(UNREADABLE) from None
    if len(data) > MAX_BYTES:
        raise Refused(TOO_LARGE)
    return data


def _folder_entries(source):
    found, refused = [], []
    folder = os.open(source, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the folder given may be a link
    try:
        _walk(source, folder, (), found, refused)
    finally:
        os.close(folder)
    return found, refused


def _walk(source, folder, parts, found, refused):
    """Add what the open ``folder`` (``parts`` inside ``source``) holds to ``found`` and ``refused``."""
    with os.scandir(folder) as listing:
        items = sorted((item.name, item.stat(follow_symlinks=False)) for item in listing)
    for name, status in items:
        path = (*parts, name)
        shown = "/".join(path)
        if not stat.S_ISDIR(status.st_mode):
            why = _refusal(status)
            if why:
                refused.append((shown, why))
            else:
                found.append(Entry(pathlib.PurePosixPath(*path), functools.partial(_read_file, source, path)))
        elif len(path) > MAX_DEPTH:
            refused.append((shown, TOO_DEEP))
        else:
            try:
                inner = _open(name, FOLDER_FLAGS, folder)
            except Refused as error:
                refused.append((shown, str(error)))
                continue
            try:
                _walk(source, inner, path, found, refused)
            finally:
                os.close(inner)


def _refusal(status):
    """Why a file is not read, from its own status (never its target's), or None."""
    if stat.S_ISLNK(status.st_mode):
        return LINK
    if not stat.S_ISREG(status.st_mode):
        return SPECIAL
    if status.st_nlink > 1:
        return HARD_LINK
    if status.st_size > MAX_BYTES:
        return TOO_LARGE
    return None


def _read_file(source, parts):
    """The bytes of the file at ``parts`` inside ``source``: every folder on the way and the file opened without
    following a link, and the file checked once open."""
    folder = os.open(source, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts[:-1]:
            inner = _open(part, FOLDER_FLAGS, folder)
            os.close(folder)
            folder = inner
        file = _open(parts[-1], FILE_FLAGS, folder)
    finally:
        os.close(folder)
    with open(file, "rb") as stream:
        why = _refusal(os.fstat(file))
        if why:
            raise Refused(why)
        data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Refused(TOO_LARGE)
    return data


def _open(name, flags, folder):
    """``name`` opened in the open ``folder``; a link (``O_NOFOLLOW``) or a file gone is refused."""
    try:
        return os.open(name, flags, dir_fd=folder)
    except OSError as error:
        raise Refused(LINK if error.errno in (errno.ELOOP, errno.ENOTDIR) else UNREADABLE) from None
