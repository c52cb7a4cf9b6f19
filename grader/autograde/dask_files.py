"""A folder's files as plain data, to travel with a Dask task or its result: {path inside the folder: bytes}.

The paths are relative and written with ``/``; :func:`write_files` refuses one that would leave its folder."""

import os
import pathlib

from nbgrader.utils import find_all_files


def read_files(folder, ignore=()):
    """Every file under ``folder`` (none when it is not there), but those ``ignore`` matches (nbgrader's globs)."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        return {}
    return {
        pathlib.Path(path).relative_to(folder).as_posix(): pathlib.Path(path).read_bytes()
        for path in sorted(find_all_files(str(folder), list(ignore)))
    }


def write_files(folder, files):
    """Write ``files`` (as :func:`read_files` gives them) under ``folder``; each file is replaced whole."""
    folder = pathlib.Path(folder)
    for name, data in files.items():
        relative = pathlib.PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts or not relative.parts:
            raise ValueError(f"a file sent back from a Dask worker has a path outside its folder: {name!r}")
        path = folder.joinpath(*relative.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".part")
        temporary.write_bytes(data)
        os.replace(temporary, path)
