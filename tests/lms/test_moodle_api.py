"""Contract tests of the Moodle client: every request checked against what Moodle's web-service API defines
(``core_enrol_get_enrolled_users``, ``mod_assign_get_assignments``, ``mod_assign_save_grades`` as their
``*_parameters()`` and ``*_returns()`` describe them, sent to ``/webservice/rest/server.php`` with
``moodlewsrestformat=json``), and answered as Moodle answers, refusals included (HTTP 200 and
``{"exception", "errorcode", "message"}``). No live Moodle is exercised."""

import socket
from urllib.parse import parse_qsl

import pytest
import responses

from grader.lms.errors import LmsError
from grader.lms.moodle_api import BUSY_WAITS, MoodleGrades
from grader.lms.people import LmsUser, Outcome

URL = "https://moodle.example.edu"
SERVER = f"{URL}/webservice/rest/server.php"
TOKEN = "5f2b0c9e8d7a6b5c4d3e2f1a0b9c8d7e"
STUDENT = [{"roleid": 5, "name": "", "shortname": "student", "sortorder": 0}]
TEACHER = [{"roleid": 3, "name": "", "shortname": "editingteacher", "sortorder": 0}]
ASSIGNMENT = {
    "id": 5,
    "cmid": 31,
    "course": 42,
    "name": "Self-attention",
    "grade": 24,
    "markingworkflow": 0,
    "teamsubmission": 0,
    "nosubmissions": 0,
    "duedate": 0,
    "configs": [],
}
SAVE = {
    "wstoken": TOKEN,
    "wsfunction": "mod_assign_save_grades",
    "moodlewsrestformat": "json",
    "assignmentid": "5",
    "applytoall": "0",
}


def refusal(exception, errorcode, message):
    return {"exception": exception, "errorcode": errorcode, "message": message}


def grade(i, user, points):
    return {
        f"grades[{i}][userid]": user,
        f"grades[{i}][grade]": points,
        f"grades[{i}][attemptnumber]": "-1",
        f"grades[{i}][addattempt]": "0",
        f"grades[{i}][workflowstate]": "",
    }


@pytest.fixture
def moodle():
    with responses.RequestsMock() as mock:
        yield mock


@pytest.fixture
def waits():
    return []


@pytest.fixture
def client(waits):
    return MoodleGrades(URL, TOKEN, 42, sleep=waits.append)


def sent(moodle):
    """The form of each request, in order."""
    return [dict(parse_qsl(c.request.body, keep_blank_values=True)) for c in moodle.calls]


def with_assignments(moodle, assignments=(ASSIGNMENT,)):
    moodle.post(
        SERVER,
        json={
            "courses": [
                {
                    "id": 42,
                    "fullname": "Self-attention",
                    "shortname": "ATT101",
                    "timemodified": 1700000000,
                    "assignments": list(assignments),
                }
            ],
            "warnings": [],
        },
    )


def test_users_are_the_course_students(moodle, client):
    moodle.post(
        SERVER,
        json=[
            {
                "id": 101,
                "username": "ada",
                "firstname": "Ada",
                "lastname": "Lovelace",
                "fullname": "Ada Lovelace",
                "email": "ada@example.edu",
                "idnumber": "S101",
                "roles": STUDENT,
            },
            {"id": 102, "username": "alan", "fullname": "Alan Turing", "idnumber": "", "roles": STUDENT},
            {
                "id": 2,
                "username": "teacher",
                "fullname": "Grace Hopper",
                "email": "grace@example.edu",
                "roles": TEACHER,
            },
        ],
    )

    assert client.users() == [
        LmsUser("101", "Ada Lovelace", "ada@example.edu", "S101", "ada"),
        LmsUser("102", "Alan Turing", None, None, "alan"),
    ]
    assert sent(moodle) == [
        {
            "wstoken": TOKEN,
            "wsfunction": "core_enrol_get_enrolled_users",
            "moodlewsrestformat": "json",
            "courseid": "42",
        }
    ]
    assert TOKEN not in moodle.calls[0].request.url


def test_post_saves_every_grade_of_the_found_assignment_in_one_request(moodle, client):
    with_assignments(moodle, [{**ASSIGNMENT, "id": 4, "name": "Self-attention (practice)"}, ASSIGNMENT])
    moodle.post(SERVER, body="null", content_type="application/json")

    outcomes = client.post("Self-attention", 24, {"101": 17.5, "102": 24.0})

    assert sent(moodle) == [
        {
            "wstoken": TOKEN,
            "wsfunction": "mod_assign_get_assignments",
            "moodlewsrestformat": "json",
            "courseids[0]": "42",
        },
        {**SAVE, **grade(0, "101", "17.5"), **grade(1, "102", "24")},
    ]
    assert outcomes == dict.fromkeys(["101", "102"], Outcome(True, "saved"))


def test_grades_under_a_marking_workflow_say_they_wait_for_release(moodle, client):
    with_assignments(moodle, [{**ASSIGNMENT, "markingworkflow": 1}])
    moodle.post(SERVER, body="null", content_type="application/json")

    assert client.post("Self-attention", 24, {"101": 3.0}) == {
        "101": Outcome(True, "saved, not yet released (marking workflow): release the grades in Moodle")
    }


@pytest.mark.parametrize(
    "assignments, fix",
    [
        (
            [{**ASSIGNMENT, "name": "Attention"}],
            "has no assignment named 'Self-attention', and web services cannot "
            "create one: add an Assignment named 'Self-attention' with maximum "
            "grade 24 to the course in Moodle",
        ),
        (
            [{**ASSIGNMENT, "grade": 100}],
            "has maximum grade 100 and the kit's maximum is 24: set its maximum grade to 24 in Moodle",
        ),
        ([{**ASSIGNMENT, "grade": -3}], "is not graded in points"),
        ([ASSIGNMENT, {**ASSIGNMENT, "id": 6}], "has 2 assignments named 'Self-attention'"),
    ],
    ids=["missing", "other maximum", "scale", "two"],
)
def test_an_assignment_that_cannot_take_the_grades_stops_before_saving(moodle, client, assignments, fix):
    with_assignments(moodle, assignments)
    with pytest.raises(LmsError, match=fix):
        client.post("Self-attention", 24, {"101": 3.0})
    assert len(moodle.calls) == 1


def test_a_course_the_token_user_is_not_enrolled_in_names_the_fix(moodle, client):
    moodle.post(
        SERVER,
        json={
            "courses": [],
            "warnings": [
                {
                    "item": "course",
                    "itemid": 42,
                    "warningcode": "2",
                    "message": "User is not enrolled or does not have requested capability",
                }
            ],
        },
    )

    with pytest.raises(
        LmsError,
        match=r"course 42 is not open to the token's user \(User is not enrolled or does "
        r"not have requested capability\): enrol that user in the course as a teacher",
    ):
        client.post("Self-attention", 24, {"101": 3.0})


def test_a_partial_failure_fails_only_the_refused_grades(moodle, client):
    with_assignments(moodle)
    missing_user = refusal(
        "dml_missing_record_exception", "invalidrecord", "Can't find data record in database table user."
    )
    moodle.post(SERVER, json=missing_user)
    moodle.post(SERVER, body="null", content_type="application/json")
    moodle.post(SERVER, json=missing_user)
    moodle.post(SERVER, body="null", content_type="application/json")

    outcomes = client.post("Self-attention", 24, {"101": 10.0, "999": 5.0, "102": 20.0})

    assert sent(moodle)[1:] == [
        {**SAVE, **grade(0, "101", "10"), **grade(1, "999", "5"), **grade(2, "102", "20")},
        {**SAVE, **grade(0, "101", "10")},
        {**SAVE, **grade(0, "999", "5")},
        {**SAVE, **grade(0, "102", "20")},
    ]
    assert outcomes == {
        "101": Outcome(True, "saved"),
        "102": Outcome(True, "saved"),
        "999": Outcome(
            False, "Moodle refused the grade (invalidrecord: Can't find data record in database table user.)"
        ),
    }


@pytest.mark.parametrize(
    "answer, message",
    [
        (
            refusal("moodle_exception", "invalidtoken", "Invalid token - token not found"),
            "Moodle rejected the web-service token (Invalid token - token not found): make a token for the kit's "
            "service "
            "in Site administration → Server → Web services → Manage tokens, and set it again",
        ),
        (
            refusal("webservice_access_exception", "accessexception", "Access control exception"),
            "Moodle refused core_enrol_get_enrolled_users (Access control exception): add "
            "core_enrol_get_enrolled_users "
            "to the token's external service (Site administration → Server → Web services → External services → "
            "Functions)",
        ),
        (
            refusal(
                "dml_missing_record_exception", "invalidrecord", "Can't find data record in database table course."
            ),
            "Moodle has no course 42 (invalidrecord: Can't find data record in database table course.): check "
            "the course "
            "id (the number after id= in the course's address)",
        ),
        (
            refusal(
                "moodle_exception",
                "errorcoursecontextnotvalid",
                "You cannot execute functions in the course context (course id:42).",
            ),
            "Moodle refused core_enrol_get_enrolled_users in course 42 (You cannot execute functions in the course "
            "context (course id:42).): enrol the token's user in the course as a teacher",
        ),
    ],
    ids=["invalidtoken", "accessexception", "invalidrecord", "not enrolled"],
)
def test_a_refusal_gives_one_line_that_names_the_fix_and_not_the_token(moodle, client, answer, message):
    moodle.post(SERVER, json=answer)

    with pytest.raises(LmsError) as refused:
        client.users()
    assert str(refused.value) == message
    assert TOKEN not in str(refused.value)


def test_a_busy_site_is_retried_after_growing_waits(moodle, client, waits):
    moodle.post(SERVER, status=503, body="<html>Site is undergoing maintenance</html>", content_type="text/html")
    moodle.post(SERVER, json=[])

    assert client.users() == []
    assert waits == [BUSY_WAITS[0]]


def test_a_site_that_stays_busy_stops_with_a_clear_error(moodle, client, waits):
    moodle.post(SERVER, status=503, body="<html>Site is undergoing maintenance</html>", content_type="text/html")

    with pytest.raises(LmsError, match="stayed busy \\(HTTP 503\\) after 5 retries over 62 s: try again later"):
        client.users()
    assert waits == list(BUSY_WAITS)
    assert len(moodle.calls) == len(BUSY_WAITS) + 1


def test_a_url_with_nothing_listening_says_moodle_cannot_be_reached():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(
        LmsError,
        match=rf"cannot reach Moodle at https://127.0.0.1:{port} \(ConnectionError\): "
        "check the Moodle URL",
    ):
        MoodleGrades(f"https://127.0.0.1:{port}/", TOKEN, 42).users()


@pytest.mark.parametrize(
    "status, body", [(404, "<html>Not Found</html>"), (403, "")], ids=["not Moodle", "REST protocol off"]
)
def test_a_url_that_answers_but_not_as_moodle_says_what_to_check(moodle, client, status, body):
    moodle.post(SERVER, status=status, body=body, content_type="text/html")

    with pytest.raises(
        LmsError,
        match=rf"did not answer as Moodle's REST web services \(HTTP {status}\): check the "
        "Moodle URL .* and that the REST protocol is enabled",
    ):
        client.users()


def test_a_course_id_that_is_not_a_number_stops_before_any_request():
    with pytest.raises(LmsError, match="must be the number after id= in the course's address"):
        MoodleGrades(URL, TOKEN, "ATT101")
