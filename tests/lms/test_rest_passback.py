"""``passback --canvas`` and ``--moodle``: the same plan, ledger and lists as ``--lti``, through helper clients
(grader/lms/canvas_api.py, moodle_api.py, tested against each API's documented contract in their own modules),
here replaced by fakes that keep what they were given; and the LTI key kept out of what students get."""

import io
import json
import shutil
import zipfile

import pytest

from grader.api import release
from grader.course import CONFIG
from grader.demo.run import new_course
from grader.lms import canvas_api, moodle_api
from grader.lms.errors import LmsError
from grader.lms.keys import jwks
from grader.lms.people import LmsUser, Outcome

from .graded_course import A, gradebook_totals, graded_course, run

pytestmark = pytest.mark.slow  # builds a gradebook; the last test releases a course

TOKEN = "7~s3cretCanvasToken"
USERS = [
    LmsUser("101", "Ana Lima", "ana@uni.example"),
    LmsUser("102", "Ben Okoro", "ben@uni.example"),
    LmsUser("106", "Fay Wong", "fay.wong@uni.example", login_id="fay"),
    LmsUser("107", "Gil", "gil@uni.example"),
]


class FakeLms:
    """An LMS client as grader/lms/people.py's interface has it; refuses user 102, or its token."""

    made = []

    def __init__(self, url, token, course_id):
        if token != TOKEN:
            raise LmsError("Canvas refused the access token (401 Unauthorized): make a new one")
        self.given, self.posted = (url, token, course_id), []
        FakeLms.made.append(self)

    def users(self):
        return USERS

    def post(self, assignment_name, maximum, scores):
        self.posted.append((assignment_name, maximum, dict(scores)))
        return {user: Outcome(user != "102", "200 OK" if user != "102" else "user is not enrolled") for user in scores}


@pytest.fixture(scope="module")
def template(tmp_path_factory, empty_gradebook):
    return graded_course(tmp_path_factory.mktemp("rest"), empty_gradebook)


@pytest.fixture
def course(template, tmp_path, monkeypatch):
    course = shutil.copytree(template, tmp_path / "course")
    with open(course / CONFIG, "a") as config:
        for kind in ("Canvas", "Moodle"):
            config.write(
                f"c.{kind}Passback.url = 'https://{kind.lower()}.example.edu'\nc.{kind}Passback.course_id = '42'\n"
            )
    monkeypatch.setattr(canvas_api, "CanvasGrades", FakeLms)
    monkeypatch.setattr(moodle_api, "MoodleGrades", FakeLms)
    FakeLms.made = []
    return course


@pytest.mark.parametrize("route, variable", [("canvas", "CANVAS_TOKEN"), ("moodle", "MOODLE_TOKEN")])
def test_rest_routes_share_the_plan_the_ledger_and_the_lists(course, capsys, monkeypatch, route, variable):
    monkeypatch.setenv(variable, TOKEN)
    out, refusal = run(capsys, "passback", f"--{route}", "--course", str(course))
    assert refusal == 3, refusal
    assert out.splitlines()[-1] == (
        "python -m grader passback: 3 students not posted, for you to act on: 1 refused by the LMS, 1 not matched "
        "to an LMS user, 1 with no final grade yet (listed above)"
    )
    [client] = FakeLms.made
    assert client.given == (f"https://{route}.example.edu", TOKEN, "42")
    totals = gradebook_totals(course)
    assert client.posted == [(A, 10, {"101": totals["ana"], "102": totals["ben"], "106": totals["fay"]})]
    assert "posted 2 scores to" in out and "ben: user is not enrolled (user 102)" in out
    assert "cas: waiting for a manual grade" in out and "eve: not in the LMS's roster" in out and TOKEN not in out
    ledger = json.loads((course / "grading" / A / "passback.json").read_text())
    assert set(ledger["posts"][f"{route} {route.title()} course 42 at https://{route}.example.edu"]) == {
        "ana",
        "ben",
        "fay",
    }
    run(capsys, "passback", f"--{route}", "--course", str(course))
    assert FakeLms.made[1].posted == [(A, 10, {"102": totals["ben"]})]  # only the refused one again


def test_a_missing_or_wrong_token_stops_in_one_line_without_it(course, capsys, monkeypatch):
    monkeypatch.delenv("CANVAS_TOKEN", raising=False)
    _, refusal = run(capsys, "passback", "--canvas", "--course", str(course))
    assert refusal.startswith("python -m grader passback: the environment variable CANVAS_TOKEN")
    monkeypatch.setenv("CANVAS_TOKEN", "wrong-token")
    out, refusal = run(capsys, "passback", "--canvas", "--course", str(course))
    assert "refused the access token" in refusal and "wrong-token" not in out + refusal


def test_without_a_route_passback_says_which_to_choose(course, capsys):
    _, refusal = run(capsys, "passback", "--course", str(course))
    assert refusal == (
        "python -m grader passback: say which way into the LMS: --lti (an LTI 1.3 tool), --canvas "
        "(a Canvas token) or --moodle (a Moodle web-service token)"
    )


def test_the_lti_private_key_never_reaches_the_release_or_the_student_zip(tmp_path):
    course = new_course(tmp_path / "course")
    jwks(course)
    key = (course / "lti" / "private_key.pem").read_text()
    body = "".join(key.splitlines()[1:-1])
    bundle = release(course)
    shipped = [p.read_bytes() for p in (course / "exercises").rglob("*") if p.is_file()]
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
        shipped += [archive.read(name) for name in names]
        for wheel in (n for n in names if n.endswith(".whl")):
            with zipfile.ZipFile(io.BytesIO(archive.read(wheel))) as inner:
                shipped += [inner.read(name) for name in inner.namelist()]
    assert not any("private_key" in name or name.endswith(".pem") for name in names)
    assert not any(b"PRIVATE KEY" in data or body[:40].encode() in data for data in shipped)


def test_roster_through_a_rest_route_adds_and_matches_as_the_lti_one_does(course, capsys, monkeypatch):
    monkeypatch.setenv("CANVAS_TOKEN", TOKEN)
    out, refusal = run(capsys, "roster", "--canvas", "--course", str(course))
    assert refusal is None, refusal
    assert "roster --canvas: 1 student added, 2 matched, 1 could not be matched" in out
    assert "added gil (LMS user 107)" in out and "matched ana (LMS user 101) by e-mail" in out
    assert "could not match Fay Wong (fay.wong@uni.example): its id fay is another student's" in out
