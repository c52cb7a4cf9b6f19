"""The files of a download (a zip or a folder), read without extracting anything, and the entries refused."""
import os
import pathlib
import stat
import zipfile
from dataclasses import dataclass

from ..errors import UsageError

MAX_BYTES = 64 << 20  # a notebook larger than this is not a notebook a student wrote


@dataclass
class Entry:
    path: pathlib.PurePosixPath
    read: object  # () -> bytes


def entries(source):
    """([Entry], [(shown name, reason)]): the regular files of ``source``, and every entry refused with why."""
    if zipfile.is_zipfile(source):
        return _zip_entries(pathlib.Path(source))
    if pathlib.Path(source).is_dir():
        return _folder_entries(pathlib.Path(source))
    if not pathlib.Path(source).exists():
        raise UsageError(f"{source}: no such file or folder")
    raise UsageError(f"{source} is neither a folder nor a zip file")


def safe_path(name):
    """The entry's path, or None when it is absolute, climbs out (``..``) or is otherwise odd."""
    name = name.replace("\\", "/")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":") or "\x00" in name:
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts):
        return None
    return pathlib.PurePosixPath(*parts)


def _zip_entries(source):
    found, refused = [], []
    archive = zipfile.ZipFile(source)
    for info in archive.infolist():
        if info.is_dir():
            continue
        path = safe_path(_decoded_name(info))
        mode = info.external_attr >> 16
        if path is None:
            refused.append((info.filename, "unsafe path (absolute or outside the download)"))
        elif stat.S_ISLNK(mode):
            refused.append((info.filename, "a symbolic link"))
        elif info.file_size > MAX_BYTES:
            refused.append((info.filename, f"larger than {MAX_BYTES >> 20} MB"))
        else:
            found.append(Entry(path, lambda info=info: _read_capped(archive, info)))
    return found, refused


def _decoded_name(info):
    """The entry's name: zip tools that do not set the UTF-8 flag mostly write UTF-8 anyway, which Python
    reads as cp437; such a name is read again as UTF-8 when it is valid UTF-8."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return info.filename


def _read_capped(archive, info):
    with archive.open(info) as stream:
        data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{info.filename}: larger than {MAX_BYTES >> 20} MB")
    return data


def _folder_entries(source):
    found, refused = [], []
    for folder, folders, files in os.walk(source, followlinks=False):
        for name in sorted(folders):
            if os.path.islink(os.path.join(folder, name)):
                refused.append((_shown(source, folder, name), "a symbolic link"))
        for name in sorted(files):
            full = pathlib.Path(folder, name)
            shown = _shown(source, folder, name)
            mode = full.lstat().st_mode
            if stat.S_ISLNK(mode):
                refused.append((shown, "a symbolic link"))
            elif not stat.S_ISREG(mode):
                refused.append((shown, "not a regular file"))
            elif full.lstat().st_size > MAX_BYTES:
                refused.append((shown, f"larger than {MAX_BYTES >> 20} MB"))
            else:
                found.append(Entry(pathlib.PurePosixPath(shown), full.read_bytes))
    return found, refused


def _shown(source, folder, name):
    return pathlib.Path(folder, name).relative_to(source).as_posix()
