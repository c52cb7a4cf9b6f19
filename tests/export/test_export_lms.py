"""``export --format canvas|moodle|blackboard|brightspace``: each LMS's documented grade-import layout,
totals from nbgrader's gradebook less nbgrader's late penalty, fields quoted and formula-safe."""

import csv
import datetime
import json
import shutil

import pytest
from nbgrader.api import Gradebook

from grader.api import export
from grader.cli import main
from grader.course import Course, venv_on_path
from grader.export.lms import moodle
from grader.export.lms.totals import totals

from ..conftest import ROOT

BASICS = "01_attention_basics"


@pytest.fixture(scope="module")
def course(tmp_path_factory, empty_gradebook):
    """A gradebook: jdoe 7/10 less a 2-point late penalty, a formula-like name with 10/10, and one who
    handed in nothing."""
    course = tmp_path_factory.mktemp("course")
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copy(empty_gradebook, course)
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
        gradebook.add_assignment("self_attention", duedate=datetime.datetime(2026, 3, 2, 18))
        gradebook.add_notebook(BASICS, "self_attention")
        gradebook.add_grade_cell("softmax_test", BASICS, "self_attention", max_score=10, cell_type="code")
        gradebook.add_student(
            "jdoe", first_name="Jane", last_name="Doe, Jr.", email="jane@example.org", lms_user_id="12345"
        )
        gradebook.add_student("evil", first_name='=HYPERLINK("x")', last_name="+Sum", lms_user_id="777")
        gradebook.add_student("absent", first_name="Ab", last_name="Sent", lms_user_id="999")
        for student, score, penalty in (("jdoe", 7, 2), ("evil", 10, 0)):
            gradebook.add_submission("self_attention", student)
            grade = gradebook.find_grade("softmax_test", BASICS, "self_attention", student)
            grade.manual_score = score
            gradebook.find_submission_notebook(BASICS, "self_attention", student).late_submission_penalty = penalty
        gradebook.db.commit()
    identities = course / "collected" / "self_attention" / "identities.json"
    identities.parent.mkdir(parents=True)
    identities.write_text(json.dumps({"jdoe": {"lms": "blackboard", "usernames": ["jane.doe"]}}))
    return course


def read(path):
    return path.read_bytes().decode("utf-8")


def test_totals_follow_nbgrader_csv_export(course):
    assert [(t.student, t.score, t.max_score) for t in totals(Course.at(course))] == [
        ("absent", 0.0, 10.0),
        ("evil", 10.0, 10.0),
        ("jdoe", 5.0, 10.0),
    ]


def test_canvas(course):
    result = export(course, "self_attention", format="canvas", column="Self-attention (4242)")
    assert result.path == course / "reports" / "self_attention_canvas.csv"
    assert read(result.path) == (
        "Student,ID,SIS User ID,SIS Login ID,Section,Self-attention (4242)\r\n"
        "    Points Possible,,,,,10\r\n"
        '"Sent, Ab",999,,,,0\r\n'
        '"\'+Sum, =HYPERLINK(""x"")",777,,,,10\r\n'
        '"Doe, Jr., Jane",12345,,,,5\r\n'
    )


def test_canvas_refuses_a_column_without_its_assignment_id(course):
    with pytest.raises(ValueError, match="Title|title"):
        export(course, "self_attention", format="canvas", column="Self-attention")


def test_moodle(course):
    header, rows, omitted = moodle.sheet(
        totals(Course.at(course)), None, now=datetime.datetime(2026, 3, 3, 9, 0, tzinfo=datetime.UTC)
    )
    assert header[:1] == ["Identifier"] and {"Grade", "Last modified (grade)", "Maximum Grade"} <= set(header)
    assert rows[2] == [
        "Participant 12345",
        "Jane Doe, Jr.",
        "jane@example.org",
        "",
        5.0,
        10.0,
        "Yes",
        "",
        "2026-03-03T09:00:00+00:00",
        "",
    ]
    path = export(course, "self_attention", format="moodle").path
    table = list(csv.DictReader(open(path, encoding="utf-8")))
    assert [(r["Identifier"], r["Grade"]) for r in table] == [
        ("Participant 999", "0"),
        ("Participant 777", "10"),
        ("Participant 12345", "5"),
    ]
    assert table[1]["Full name"] == '\'=HYPERLINK("x") +Sum'


def test_blackboard(course, capsys):
    main(
        [
            "export",
            "--course",
            str(course),
            "--format",
            "blackboard",
            "--column",
            "Self Attention [Total Pts: 10 Score] |123456",
        ]
    )
    path = course / "reports" / "self_attention_blackboard.csv"
    assert str(path) in capsys.readouterr().out
    assert read(path) == (
        "Last Name,First Name,Username,Self Attention [Total Pts: 10 Score] |123456\r\n"
        "Sent,Ab,absent,0\r\n"
        '\'+Sum,"\'=HYPERLINK(""x"")",evil,10\r\n'
        '"Doe, Jr.",Jane,jane.doe,5\r\n'
    )


def test_brightspace(course):
    path = export(course, "self_attention", format="brightspace", column="Self Attention").path
    assert read(path) == (
        "OrgDefinedId,Username,Self Attention Points Grade,End-of-Line Indicator\r\n"
        "999,absent,0,#\r\n777,evil,10,#\r\n12345,jdoe,5,#\r\n"
    )


def test_students_without_an_lms_id_are_listed_not_guessed(course, tmp_path):
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
        gradebook.add_student("newcomer")
    try:
        result = export(course, "self_attention", format="canvas", column="A (1)", path=tmp_path / "c.csv")
        assert [s for s, _ in result.omitted] == ["newcomer"]
        assert "newcomer" not in read(result.path)
    finally:
        with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as gradebook:
            gradebook.remove_student("newcomer")
