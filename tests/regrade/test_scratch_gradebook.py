"""A regrade's scratch gradebook is made at the live gradebook's schema version, without the ``alembic`` process
that nbgrader starts for a new gradebook (over a second of a one-student regrade's few)."""

import shutil

import nbgrader.api
import pytest
from sqlalchemy import create_engine, text

from grader.cli import main

from .class_of_one import STUDENT, set_score

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def schema_version(gradebook):
    engine = create_engine(f"sqlite:///{gradebook}")
    try:
        with engine.connect() as db:
            return db.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    finally:
        engine.dispose()


def test_the_scratch_gradebook_has_the_live_schema_version_and_no_alembic_run(
    right, kit_as_it_was, tmp_path, monkeypatch, capsys
):
    course = shutil.copytree(right, tmp_path / "course")
    set_score(course, 0.0)
    asked = []
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", lambda: asked.append("alembic") or "none")
    main(["regrade", "--course", str(course), "--student", STUDENT, "--notebook", "01", "--workers", "1"])
    assert "0 → 5/5" in capsys.readouterr().out
    [scratch] = course.glob("grading/*/regrade/*/course/gradebook.db")
    assert asked == []
    assert schema_version(scratch) == schema_version(course / "gradebook.db")
