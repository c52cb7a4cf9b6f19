"""A throw-away PostgreSQL server for the tests: the binaries of the ``pgserver`` wheel
(requirements-test.txt), a data folder, a private port and socket in a temporary folder.

PostgreSQL refuses to run as root: as root, the server runs as an unprivileged user made for it.
"""

import contextlib
import importlib.util
import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile

from .ports import free_port

USER = "kitpostgres"


def binaries():
    """The folder of ``initdb``/``pg_ctl``, or None when the pgserver wheel is not installed."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = pathlib.Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
    return folder if (folder / "pg_ctl").exists() else None


@contextlib.contextmanager
def postgres_server():
    """Start a server with its data and socket in a new temporary folder; yield its base URL
    (``postgresql://postgres@127.0.0.1:<port>``); stop it and remove the folder at the end."""
    bin_dir, as_user = binaries(), _server_user()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="kit-postgres-"))  # in /tmp: the server's user can reach it
    data, sockets = folder / "data", folder / "socket"
    sockets.mkdir()
    if as_user:
        for path in (folder, sockets):
            shutil.chown(path, as_user.pw_uid, as_user.pw_gid)
    port = free_port()
    run = lambda *args: _run(_as(as_user, [str(bin_dir / args[0]), *args[1:]]))  # noqa: E731
    run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
    run("pg_ctl", "-D", str(data), "-o", options, "-l", str(folder / "server.log"), "-w", "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        run("pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def _run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def create_database(base_url, name, template=None):
    """A new database on the server, empty or a copy of the database ``template`` (PostgreSQL's ``CREATE DATABASE
    ... TEMPLATE``: no connection to it may be open); returns its URL."""
    import psycopg

    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(f"{base_url}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"{copy}')
    return f"{base_url}/{name}"


def _server_user():
    """None when not root; as root, the unprivileged user the server runs as (made once with useradd)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam(USER)


def _as(user, command):
    if user is None:
        return command
    return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", *command]
