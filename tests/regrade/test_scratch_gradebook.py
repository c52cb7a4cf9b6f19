"""A regrade's scratch gradebook is made at the live gradebook's schema version, without the ``alembic`` process
that nbgrader starts for a new gradebook (over a second of a one-student regrade's few): the scratch course is made
as a regrade makes it, then opened with nbgrader."""

import shutil

import nbgrader.api
import pytest
from alembic.script import ScriptDirectory
from nbgrader.dbutil import ALEMBIC_DIR
from sqlalchemy import create_engine, text

from grader.course import Course
from grader.regrade import scratch
from grader.regrade.select import Selection

from ..course_builder import ASSIGNMENT, BASICS, schema_version
from .class_of_one import STUDENT

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]  # the class of one is graded once for the run


def test_the_scratch_gradebook_has_the_live_schema_version_and_no_alembic_run(right, tmp_path, monkeypatch):
    """The live gradebook is at the version before nbgrader's newest: so is the scratch one."""
    copy = shutil.copytree(right, tmp_path / "live")
    scripts = ScriptDirectory(ALEMBIC_DIR)
    older = scripts.get_revision(scripts.get_current_head()).down_revision
    engine = create_engine(f"sqlite:///{copy / 'gradebook.db'}")
    with engine.begin() as db:
        db.execute(text("UPDATE alembic_version SET version_num = :older"), {"older": older})
    engine.dispose()
    asked = []
    monkeypatch.setattr(nbgrader.api, "get_alembic_version", lambda: asked.append("alembic") or "none")
    live = Course.at(copy, ASSIGNMENT)
    made = scratch.make(live, tmp_path / "course", Selection({STUDENT: [BASICS]}, None, {}))
    with made.gradebook() as book, live.gradebook() as source:
        assert [s.id for s in book.students] == [STUDENT]
        notebooks = [[n.name for n in b.find_assignment(ASSIGNMENT).notebooks] for b in (book, source)]
        assert notebooks[0] == notebooks[1] != []
    assert asked == []
    assert schema_version(made.root / "gradebook.db") == schema_version(copy / "gradebook.db") == older
