"""The parts of ``passback`` that need no LMS: who has no grade yet and why, matching students to LMS users, the
ledger, the course's LMS settings and the kit's key pair."""

import json
import os
import shutil
import stat

import pytest
import requests
from pylti1p3.registration import Registration

from grader.cli.errors import UsageError
from grader.course import CONFIG, Course
from grader.course.grades import CellGrade, NotebookGrade
from grader.export.lms.totals import Total
from grader.lms import config, keys, lti
from grader.lms.ledger import Ledger
from grader.lms.matching import match
from grader.lms.people import LmsUser, Outcome
from grader.lms.scores import HANDED_IN, Score, why_no_score

from ..conftest import ROOT


def notebook(status, *cells, name="01.ipynb"):
    return NotebookGrade(
        "ana",
        name,
        status,
        None,
        0.0,
        10.0,
        cells=[CellGrade(f"c{n}", "test", None, 5.0, cell, None) for n, cell in enumerate(cells)],
    )


@pytest.mark.parametrize(
    "notebooks, reason",
    [
        ([notebook("missing", "missing"), notebook("missing", "missing", name="02.ipynb")], "not handed in"),
        ([notebook("graded", "graded", "by_hand"), notebook("missing", "missing", name="02.ipynb")], None),
        ([notebook("graded", "graded", "needs_manual")], "waiting for a manual grade in formgrader (01.ipynb)"),
        (
            [notebook("graded", "needs_manual"), notebook("timeout", "timeout", name="02.ipynb")],
            "could not be graded: 02.ipynb timed out, regrade or grade by hand",
        ),
        (
            [notebook("invalid")],
            "could not be graded: 01.ipynb the file is not a readable notebook, ask for a new copy or grade by hand",
        ),
    ],
)
def test_a_student_without_a_final_total_says_why(notebooks, reason):
    assert why_no_score(notebooks) == reason


def total(student, email="", lms_user_id="", identity=None):
    return Total(student, "", "", email, lms_user_id, 1.0, 2.0, identity or {})


def test_students_are_matched_by_lms_id_then_e_mail_then_login_as_collect_does():
    users = [
        LmsUser("11", "Ana", "ana@x.edu"),
        LmsUser("12", "Ben", "BEN@x.edu"),
        LmsUser("13", "Cas", None, login_id="cas"),
        LmsUser("14", "Dee", "dee@x.edu"),
        LmsUser("15", "Dee Too", "dee@x.edu"),
    ]
    found, missing = match(
        [
            total("ana", lms_user_id="99", identity={"lms": "canvas", "user_id": "11"}),
            total("ben", email="ben@x.edu"),
            total("cas"),
            total("dee", email="dee@x.edu"),
            total("eve", email="eve@x.edu"),
            total("fay", lms_user_id="12"),
        ],
        users,
        "canvas",
    )
    assert {s: (u.user_id, how) for s, (u, how) in found.items()} == {
        "ana": ("11", "by LMS id"),
        "cas": ("13", "by login"),
    }
    assert missing == {
        "dee": "2 LMS users match e-mail",
        "eve": "not in the LMS's roster (no user with the student's LMS id, e-mail or login)",
        "ben": "the LMS user 12 matches 2 students (ben, fay)",
        "fay": "the LMS user 12 matches 2 students (ben, fay)",
    }


def test_the_ledger_is_written_at_each_answer_and_knows_what_is_unchanged(tmp_path):
    course = Course.at(tmp_path)
    score = Score("ana", 7.0, 10.0, *HANDED_IN, None)
    ledger = Ledger(course)
    assert not ledger.unchanged("lti item", score, "u1")
    ledger.record("lti item", score, "u1", Outcome(False, "422 Unprocessable Entity"))
    assert not Ledger(course).unchanged("lti item", score, "u1")  # refused: posted again next time
    ledger.record("lti item", score, "u1", Outcome(True, "200 OK"))
    again = Ledger(course)
    assert again.unchanged("lti item", score, "u1")
    assert not again.unchanged("lti item", Score("ana", 8.0, 10.0, *HANDED_IN, None), "u1")
    assert not again.unchanged("lti other", score, "u1") and not again.unchanged("lti item", score, "u2")
    kept = json.loads((tmp_path / "grading" / "self_attention" / "passback.json").read_text())
    assert kept["posts"]["lti item"]["ana"]["posted"]["answer"] == "200 OK"
    assert "refused" not in kept["posts"]["lti item"]["ana"]
    assert not list((tmp_path / "grading" / "self_attention").glob(".passback-*"))  # no temporary file left


@pytest.fixture
def course(tmp_path):
    shutil.copy(ROOT / CONFIG, tmp_path)
    return Course.at(tmp_path)


def test_every_setting_that_is_missing_or_not_https_is_named_at_once(course, monkeypatch):
    with pytest.raises(UsageError, match=r"^no c.LtiPassback.client_id, c.LtiPassback.token_url, .* add them"):
        config.settings(course, config.LtiPassback)
    with open(course.root / CONFIG, "a") as file:
        file.write("c.CanvasPassback.url = 'http://canvas.example.edu'\nc.CanvasPassback.token_env = 'KIT_TOKEN'\n")
    monkeypatch.delenv("KIT_TOKEN", raising=False)
    with pytest.raises(UsageError) as stopped:
        config.settings(course, config.CanvasPassback)
    assert str(stopped.value) == (
        f"no c.CanvasPassback.course_id in {course.root / CONFIG}: add it, as the LMS shows it (docs: "
        "instructors/canvas.md); c.CanvasPassback.url = 'http://canvas.example.edu' is plain http: credentials "
        "would cross the network unencrypted; give its https:// address; the environment variable KIT_TOKEN "
        "(c.CanvasPassback.token_env) is empty: set it to the LMS's API token, in the shell only, never in a file "
        "of the course"
    )


def test_a_token_comes_from_the_environment_only(course, monkeypatch):
    rest = config.CanvasPassback()
    monkeypatch.delenv("CANVAS_TOKEN", raising=False)
    with pytest.raises(
        UsageError,
        match=r"^the environment variable CANVAS_TOKEN \(c.CanvasPassback.token_env\) "
        "is empty",
    ):
        config.token(rest)
    monkeypatch.setenv("CANVAS_TOKEN", "s3cret")
    assert config.token(rest) == "s3cret"


def test_the_key_pair_is_private_and_its_public_set_is_what_pylti1p3_signs_with(course):
    made = keys.jwks(course.root)
    mode = stat.S_IMODE(os.stat(made.private_key).st_mode)
    assert mode == 0o600 and made.made
    pem = made.private_key.read_text()
    [key] = made.jwks["keys"]
    assert key["kid"] == Registration.get_kid(Registration().set_tool_public_key(pem)) and "d" not in key
    assert json.loads(made.jwks_path.read_text()) == made.jwks and pem not in str(made)
    again = keys.jwks(course.root)
    assert not again.made and again.jwks == made.jwks
    assert keys.jwks(course.root, new=True).jwks != made.jwks


def test_a_key_in_a_folder_that_release_copies_is_refused(course):
    with open(course.root / CONFIG, "a") as file:
        file.write(f"c.LtiPassback.private_key_path = '{course.source.relative_to(course.root)}/key.pem'\n")
    with pytest.raises(UsageError, match="which release or the student zip copies"):
        keys.jwks(course.root)
    assert not course.source.exists()


def answered(status, reason, body):
    response = requests.Response()
    response.status_code, response.reason, response._content = status, reason, body.encode()
    return response


@pytest.mark.parametrize(
    "response, said",
    [
        (  # Canvas, for a user who is not a student of the course
            answered(
                422,
                "Unprocessable Entity",
                json.dumps(
                    {
                        "errors": {
                            "type": "unprocessable_entity",
                            "message": "User not found in course or is not a student",
                        }
                    }
                ),
            ),
            "422 Unprocessable Entity: User not found in course or is not a student",
        ),
        (  # Canvas, for an unpublished assignment
            answered(
                422,
                "Unprocessable Entity",
                json.dumps({"errors": [{"field": "grade", "message": "cannot be changed at this time"}]}),
            ),
            "422 Unprocessable Entity: cannot be changed at this time",
        ),
        (answered(400, "Incorrect score received", "[]"), "400 Incorrect score received"),  # Moodle, for the same
    ],
)
def test_a_refused_score_shows_the_lms_own_words(response, said):
    assert lti.answer(response) == said
