"""A new gradebook, made as nbgrader makes one but without the ``alembic`` process that nbgrader starts to learn the
schema version (about a second of CPU): nbgrader's tables, and the version in a table ``alembic_version``."""

import pathlib

from nbgrader.api import Base
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError


def newest_schema():
    """The newest schema version of nbgrader's gradebook: the head of nbgrader's own migration scripts, read in this
    process (nbgrader asks ``alembic heads`` in a new one)."""
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    return ScriptDirectory(ALEMBIC_DIR).get_current_head()


def make(db_url, schema):
    """Give the empty database at ``db_url`` nbgrader's tables and alembic's version ``schema``."""
    engine = create_engine(db_url)
    try:
        Base.metadata.create_all(engine)
        with engine.begin() as db:
            db.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)"))
            db.execute(text("INSERT INTO alembic_version (version_num) VALUES (:schema)"), {"schema": schema})
    finally:
        engine.dispose()


def make_if_empty(db_url, root):
    """Make the gradebook at ``db_url`` (an SQLite path relative to ``root``, the course's folder, as for nbgrader)
    at the newest schema when it has no table yet, as nbgrader would when it first opens it. A database that
    cannot be reached is left for nbgrader to report."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            return
        path = pathlib.Path(root) / url.database
        if path.exists():
            return
        url = url.set(database=str(path))
    try:
        engine = create_engine(url)
        try:
            empty = not inspect(engine).get_table_names()
        finally:
            engine.dispose()
        if empty:
            make(url, newest_schema())
    except SQLAlchemyError:
        return
