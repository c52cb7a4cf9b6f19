"""Contract tests of the Canvas client, in the style of canvasapi's own tests: every request checked against
what Canvas's REST API documentation defines, and answered as it documents (Courses "List users in course",
Assignments "List assignments" and "Create an assignment", Submissions "Grade or comment on multiple
submissions", Progress "Query progress", "Throttling", "Pagination"). No live Canvas is exercised."""

import socket
from urllib.parse import parse_qsl

import pytest
import responses
from responses import matchers

from grader.lms import canvas_api
from grader.lms.canvas_api import PROGRESS_LIMIT, RATE_LIMIT_WAITS, CanvasGrades
from grader.lms.errors import LmsError
from grader.lms.people import LmsUser, Outcome

URL = "https://canvas.example.edu"
API = f"{URL}/api/v1"
TOKEN = "7~Zq4sEcReTt0kEn"
COURSE = {"id": 42, "name": "Self-attention", "course_code": "ATT101", "workflow_state": "available"}
ASSIGNMENT = {
    "id": 7,
    "course_id": 42,
    "name": "Self-attention",
    "points_possible": 24.0,
    "published": True,
    "grading_type": "points",
}
THROTTLED = {
    "status": 403,
    "body": "403 Forbidden (Rate Limit Exceeded)\n",
    "headers": {"X-Rate-Limit-Remaining": "0.0", "X-Request-Cost": "10.5"},
}


def progress(state, message=None):
    return {
        "id": 3,
        "context_id": 42,
        "context_type": "Course",
        "user_id": 9,
        "tag": "submissions_update",
        "completion": 100 if state in ("completed", "failed") else 0,
        "workflow_state": state,
        "message": message,
        "url": f"{API}/progress/3",
    }


@pytest.fixture
def canvas():
    with responses.RequestsMock() as mock:
        mock.get(f"{API}/courses/42", json=COURSE)
        yield mock


@pytest.fixture
def waits():
    return []


@pytest.fixture
def client(waits):
    return CanvasGrades(URL, TOKEN, 42, sleep=waits.append)


def form(call):
    return parse_qsl(call.request.body)


def with_assignment(canvas, found=(ASSIGNMENT,)):
    canvas.get(
        f"{API}/courses/42/assignments",
        json=list(found),
        match=[matchers.query_param_matcher({"search_term": "Self-attention", "per_page": "100"})],
    )


def test_users_are_the_course_students_on_every_page(canvas, client):
    first = {"enrollment_type[]": "student", "include[]": "email", "per_page": "100"}
    canvas.get(
        f"{API}/courses/42/search_users",
        match=[matchers.query_param_matcher(first)],
        json=[
            {
                "id": 101,
                "name": "Ada Lovelace",
                "sortable_name": "Lovelace, Ada",
                "short_name": "Ada",
                "sis_user_id": "S101",
                "login_id": "ada",
                "email": "ada@example.edu",
            }
        ],
        headers={
            "Link": f"<{API}/courses/42/search_users?enrollment_type%5B%5D=student&include%5B%5D=email"
            f'&page=2&per_page=100>; rel="next", <{API}/courses/42/search_users?page=1'
            f'&per_page=100>; rel="first"'
        },
    )
    canvas.get(
        f"{API}/courses/42/search_users",
        match=[matchers.query_param_matcher({**first, "page": "2"})],
        json=[{"id": 102, "name": "Alan Turing", "sortable_name": "Turing, Alan", "short_name": "Alan"}],
    )

    assert client.users() == [
        LmsUser("101", "Ada Lovelace", "ada@example.edu", "S101", "ada"),
        LmsUser("102", "Alan Turing", None, None, None),
    ]
    assert all(c.request.headers["Authorization"] == f"Bearer {TOKEN}" for c in canvas.calls)


def test_post_grades_the_found_assignment_and_polls_its_progress(canvas, client, waits):
    with_assignment(canvas, [ASSIGNMENT, {**ASSIGNMENT, "id": 8, "name": "Self-attention (practice)"}])
    bulk = canvas.post(f"{API}/courses/42/assignments/7/submissions/update_grades", json=progress("queued"))
    for state in ("queued", "running", "completed"):
        canvas.get(f"{API}/progress/3", json=progress(state))

    outcomes = client.post("Self-attention", 24, {"101": 17.5, "102": 24.0, "103": 0.0})

    assert form(bulk.calls[0]) == [
        ("grade_data[101][posted_grade]", "17.5"),
        ("grade_data[102][posted_grade]", "24"),
        ("grade_data[103][posted_grade]", "0"),
    ]
    assert waits == [1, 2, 4]
    assert outcomes == dict.fromkeys(["101", "102", "103"], Outcome(True, "Canvas progress 3: completed"))


def test_post_creates_a_missing_assignment_published_and_worth_the_maximum(canvas, client, waits):
    with_assignment(canvas, found=[])
    created = canvas.post(f"{API}/courses/42/assignments", json={**ASSIGNMENT, "id": 9})
    bulk = canvas.post(f"{API}/courses/42/assignments/9/submissions/update_grades", json=progress("completed"))

    assert client.post("Self-attention", 24.0, {"101": 12.25})["101"].ok

    assert form(created.calls[0]) == [
        ("assignment[name]", "Self-attention"),
        ("assignment[points_possible]", "24"),
        ("assignment[grading_type]", "points"),
        ("assignment[submission_types][]", "none"),
        ("assignment[published]", "true"),
    ]
    assert form(bulk.calls[0]) == [("grade_data[101][posted_grade]", "12.25")]
    assert waits == []


@pytest.mark.parametrize(
    "found, fix",
    [
        ([{**ASSIGNMENT, "published": False}], "publish it in Canvas"),
        ([{**ASSIGNMENT, "points_possible": 100.0}], "worth 100 points and the kit's maximum is 24"),
        ([ASSIGNMENT, {**ASSIGNMENT, "id": 8}], "has 2 assignments named 'Self-attention'"),
    ],
)
def test_an_assignment_that_cannot_take_the_grades_stops_before_posting(canvas, client, found, fix):
    with_assignment(canvas, found)
    with pytest.raises(LmsError, match=fix):
        client.post("Self-attention", 24, {"101": 12.0})


@pytest.mark.parametrize(
    "refusal",
    [THROTTLED, {"status": 429, "headers": {"X-Rate-Limit-Remaining": "0.0"}}],
    ids=["403 Rate Limit Exceeded", "429"],
)
def test_a_throttled_request_is_retried_after_growing_waits(canvas, client, waits, refusal):
    with_assignment(canvas)
    endpoint = f"{API}/courses/42/assignments/7/submissions/update_grades"
    canvas.post(endpoint, **refusal)
    canvas.post(endpoint, **refusal)
    canvas.post(endpoint, json=progress("completed"))

    assert client.post("Self-attention", 24, {"101": 20.0})["101"].ok

    posts = [c for c in canvas.calls if c.request.url == endpoint]
    assert [form(c) for c in posts] == [[("grade_data[101][posted_grade]", "20")]] * 3
    assert waits == list(RATE_LIMIT_WAITS[:2])


def test_a_rate_limit_that_never_ends_stops_with_a_clear_error(canvas, client, waits):
    canvas.get(f"{API}/courses/42/search_users", **THROTTLED)

    with pytest.raises(
        LmsError,
        match="rate limit still refused listing the course's students after 5 retries over 62 s: wait a few minutes",
    ):
        client.users()
    assert waits == list(RATE_LIMIT_WAITS)
    assert len(canvas.calls) == 1 + len(RATE_LIMIT_WAITS) + 1


def test_a_refusal_that_is_not_the_rate_limit_is_not_retried(canvas, client, waits):
    canvas.get(
        f"{API}/courses/42/search_users",
        status=403,
        json={"status": "unauthorized", "errors": [{"message": "user not authorized to perform that action"}]},
    )

    with pytest.raises(
        LmsError,
        match=r"\(user not authorized to perform that action\): use the access token of a "
        "teacher of the course",
    ):
        client.users()
    assert waits == []


def test_a_partial_failure_fails_only_the_users_canvas_could_not_find(canvas, client):
    with_assignment(canvas)
    canvas.post(
        f"{API}/courses/42/assignments/7/submissions/update_grades",
        json=progress("failed", "Couldn't find User(s) with API ids '103', '104'"),
    )

    outcomes = client.post("Self-attention", 24, {"101": 1.0, "103": 2.0, "102": 3.0, "104": 4.0})

    assert outcomes["101"] == outcomes["102"] == Outcome(True, "Canvas progress 3: graded (2 other users not found)")
    assert (
        outcomes["103"]
        == outcomes["104"]
        == Outcome(False, "Canvas progress 3 failed for this user: Couldn't find User(s) with API ids '103', '104'")
    )


@pytest.mark.parametrize(
    "last, answer, polls",
    [
        (
            progress("failed", "Some assignments are either not published or deleted and can not be graded '7'"),
            "Canvas progress 3 failed: Some assignments are either not published or deleted and can not be graded '7'",
            [1],
        ),
        (
            progress("running"),
            f"Canvas progress 3 was still running after {PROGRESS_LIMIT} s: check the Canvas "
            "gradebook, then post again",
            [1, 2, 4, 8] + [16] * 18,
        ),
    ],
    ids=["failed", "never ends"],
)
def test_a_bulk_update_that_fails_or_never_ends_fails_every_user(canvas, client, waits, last, answer, polls):
    with_assignment(canvas)
    canvas.post(f"{API}/courses/42/assignments/7/submissions/update_grades", json=progress("queued"))
    canvas.get(f"{API}/progress/3", json=last)

    assert client.post("Self-attention", 24, {"101": 1.0, "102": 2.0}) == dict.fromkeys(
        ["101", "102"], Outcome(False, answer)
    )
    assert waits == polls


def test_a_bad_token_gives_one_line_that_names_the_token_and_not_its_value():
    with responses.RequestsMock() as canvas:
        canvas.get(
            f"{API}/courses/42",
            status=401,
            json={"errors": [{"message": "Invalid access token."}]},
            headers={"WWW-Authenticate": 'Bearer realm="canvas-lms"'},
        )
        with pytest.raises(LmsError) as refused:
            CanvasGrades(URL, TOKEN, 42).users()
    message = str(refused.value)
    assert message == (
        "Canvas refused the access token (Invalid access token.): make a new one in Canvas "
        "(Account → Settings → Approved Integrations → New Access Token) and set it "
        "again"
    )
    assert TOKEN not in message and "\n" not in message


def test_a_course_that_does_not_exist_names_the_course_id():
    with responses.RequestsMock() as canvas:
        canvas.get(
            f"{API}/courses/42", status=404, json={"errors": [{"message": "The specified resource does not exist."}]}
        )
        with pytest.raises(LmsError, match="404 Not Found.*check the course id 42"):
            CanvasGrades(URL, TOKEN, 42).users()


@pytest.mark.parametrize("course_id", ["ATT101", "", "42/users"])
def test_a_course_id_that_is_not_a_number_stops_before_any_request(course_id):
    with pytest.raises(LmsError, match="must be the number in the course's address"):
        CanvasGrades(URL, TOKEN, course_id)


def test_a_url_with_nothing_listening_says_canvas_cannot_be_reached():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(
        LmsError,
        match=rf"cannot reach Canvas at https://127.0.0.1:{port} \(ConnectionError\): "
        "check the Canvas URL",
    ):
        CanvasGrades(f"https://127.0.0.1:{port}/", TOKEN, 42).users()


def test_a_site_that_never_answers_stops_the_request_with_a_clear_error(monkeypatch):
    monkeypatch.setattr(canvas_api, "TIMEOUT", 1)
    with socket.socket() as silent:  # takes the connection (the kernel's backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        with pytest.raises(
            LmsError,
            match=rf"Canvas at https://127.0.0.1:{port} did not answer within 1 s when "
            "reading course 42: try again later",
        ):
            CanvasGrades(f"https://127.0.0.1:{port}", TOKEN, 42).users()


def test_a_url_that_answers_but_not_as_canvas_says_so():
    with responses.RequestsMock() as site:
        site.get(f"{API}/courses/42", body="<html><body>Welcome to our school</body></html>", content_type="text/html")
        with pytest.raises(LmsError, match="did not answer as Canvas when reading course 42: check the Canvas URL"):
            CanvasGrades(URL, TOKEN, 42).users()
