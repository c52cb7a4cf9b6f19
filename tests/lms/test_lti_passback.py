"""``roster --lti`` and ``passback --lti`` against a real LTI 1.3 platform (grader/demo/lti_platform.py, on
lti1p3platform) over HTTP on 127.0.0.1, with real signed tokens and a key pair made for the test.

The course's gradebook is filled as nbgrader leaves it after grading (scores, a manual grade, a late penalty, a
cell waiting for a manual grade, a student who handed in nothing), without running notebooks: seconds, not
minutes. ``demo --lti`` runs the same commands on the demo class, graded for real."""

import contextlib
import http.server
import json
import shutil
import threading
import time

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from nbgrader.api import Gradebook

from grader.course import CONFIG, Course, venv_on_path
from grader.demo.lti_platform import CONTEXT, LEARNER, LINEITEM_READ, SCORE, TestPlatform, member
from grader.lms import lti
from grader.lms.keys import public_jwks
from grader.lms.ledger import LEDGER

from .graded_course import MEMBERS, NOTEBOOK, A, gradebook_totals, graded_course, run

pytestmark = pytest.mark.slow  # each test starts a platform and runs a command a few times: 1 to 5 s each


@pytest.fixture(scope="module")
def template(tmp_path_factory, empty_gradebook):
    return graded_course(tmp_path_factory.mktemp("lti"), empty_gradebook)


@pytest.fixture
def course(template, tmp_path):
    return shutil.copytree(template, tmp_path / "course")


def tool_jwks(course):
    return json.loads((course / "lti" / "jwks.json").read_text())


@pytest.fixture
def platform(course):
    """The platform, running, with the kit registered (its public key) and the course configured for it."""
    found = TestPlatform(tool_jwks(course), MEMBERS)
    with found.running():
        with open(course / CONFIG, "a") as config:
            config.write(found.config_lines())
        yield found


def test_each_posted_score_is_the_gradebooks_total_less_the_late_penalty(course, platform, capsys):
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal == 3, refusal  # cas has no final grade, eve no LMS user
    [(item_id, item)] = platform.lineitems.items()
    assert (item["label"], item["scoreMaximum"], item["tag"]) == (A, 10, f"nbgrader:{A}")
    posted = {
        user: (s["scoreGiven"], s["scoreMaximum"], s["activityProgress"], s["gradingProgress"])
        for user, s in platform.posted(item_id).items()
    }
    totals = gradebook_totals(course)
    assert posted == {
        f"sub-{student}": (totals[student], 10, "Completed", "FullyGraded") for student in ("ana", "ben", "fay")
    }
    assert posted["sub-ana"][0] == 6 and posted["sub-ben"][0] == 9  # a late penalty off; the manual grade wins
    assert "posted 3 scores to line item" in out
    assert "cas: waiting for a manual grade in formgrader" in out
    assert "dee: not handed in (--post-missing-as-zero posts 0)" in out
    assert "eve: not in the LMS's roster" in out


def test_the_ledger_keeps_each_post_and_a_second_run_posts_only_what_changed(course, platform, capsys):
    run(capsys, "passback", "--lti", "--course", str(course))
    first = len(platform.received)
    text = (course / "grading" / A / LEDGER).read_text()
    assert platform.issued and not any(secret in text for secret in secrets_of(course, platform))
    ledger = json.loads(text)
    [(place, students)] = ledger["posts"].items()
    assert place == f"lti {next(iter(platform.lineitems))}"
    assert {s: (e["posted"]["user"], e["posted"]["score"], e["posted"]["answer"]) for s, e in students.items()} == {
        "ana": ("sub-ana", 6.0, "201 Created"),
        "ben": ("sub-ben", 9.0, "201 Created"),
        "fay": ("sub-fay", 4.0, "201 Created"),
    }
    out, _ = run(capsys, "passback", "--lti", "--course", str(course))
    assert len(platform.received) == first and "posted 0 scores" in out and "3 unchanged" in out
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as book:
        book.find_grade("softmax_test", NOTEBOOK, A, "fay").manual_score = 6  # regraded by hand in formgrader
        book.db.commit()
    out, _ = run(capsys, "passback", "--lti", "--course", str(course))
    assert [(s["userId"], s["scoreGiven"]) for _, s in platform.received[first:]] == [("sub-fay", 7.0)]
    run(capsys, "passback", "--lti", "--force", "--course", str(course))
    assert len(platform.received) == first + 1 + 3


def test_a_dry_run_says_what_it_would_post_and_posts_nothing(course, platform, capsys):
    out, refusal = run(capsys, "passback", "--lti", "--dry-run", "--course", str(course))
    assert refusal == 3, refusal
    assert not platform.lineitems and not platform.received
    assert not (course / "grading" / A / LEDGER).exists()
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("ana", "ben", "fay"))]
    assert rows == [
        ["ana", "sub-ana", "6", "/", "10"],
        ["ben", "sub-ben", "9", "/", "10"],
        ["fay", "sub-fay", "4", "/", "10"],
    ]
    assert "would post 3 scores to a new line item" in out


def test_a_line_item_that_already_exists_is_used_not_doubled(course, platform, capsys):
    made = f"{platform.lineitems_url}/by-hand"
    platform.lineitems[made] = {"id": made, "label": A, "scoreMaximum": 10}  # made in the LMS, with no tag
    out, _ = run(capsys, "passback", "--lti", "--course", str(course))
    assert list(platform.lineitems) == [made] and set(platform.posted(made)) == {"sub-ana", "sub-ben", "sub-fay"}
    assert f"line item {made}" in out


def test_a_line_item_worth_another_maximum_is_refused_then_updated_with_force(course, platform, capsys):
    made = f"{platform.lineitems_url}/by-hand"
    platform.lineitems[made] = {"id": made, "label": A, "scoreMaximum": 12, "resourceLinkId": "link-7"}
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal == (
        f"python -m grader passback: the line item {made} ({A!r}) has scoreMaximum 12 and the assignment's points "
        "are 10: set its maximum to 10 in the LMS, or run passback --lti --force to set it"
    )
    assert not platform.received and platform.lineitems[made]["scoreMaximum"] == 12
    out, refusal = run(capsys, "passback", "--lti", "--dry-run", "--force", "--course", str(course))
    assert f"line item {made} (its scoreMaximum 12 would be set to 10)" in out
    assert not platform.received and platform.lineitems[made]["scoreMaximum"] == 12
    out, _ = run(capsys, "passback", "--lti", "--force", "--course", str(course))
    assert ("PUT", f"/contexts/{CONTEXT}/lineitems/by-hand", 200) in platform.log
    assert platform.lineitems[made] == {"id": made, "label": A, "scoreMaximum": 10, "resourceLinkId": "link-7"}
    assert f"line item {made} (its scoreMaximum set from 12 to 10)" in out
    assert {user: s["scoreGiven"] for user, s in platform.posted(made).items()} == {
        f"sub-{student}": total
        for student, total in gradebook_totals(course).items()
        if student in ("ana", "ben", "fay")
    }
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal == 3 and "posted 0 scores" in out and "3 unchanged" in out  # 3: cas and eve, as always


def test_not_handed_in_is_posted_as_zero_only_with_the_flag(course, platform, capsys):
    run(capsys, "passback", "--lti", "--post-missing-as-zero", "--course", str(course))
    dee = platform.posted()["sub-dee"]
    assert (dee["scoreGiven"], dee["activityProgress"], dee["gradingProgress"]) == (0.0, "Initialized", "FullyGraded")


def grade_by_hand(course, student, cell, score):
    """``score`` typed into formgrader for ``student``'s ``cell``."""
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as book:
        grade = book.find_grade(cell, NOTEBOOK, A, student)
        grade.manual_score, grade.needs_manual_grade = score, False
        book.db.commit()


@pytest.mark.parametrize("answer", [422, 400])  # Canvas's answer, Moodle's
def test_a_score_the_lms_refuses_is_listed_and_the_exit_status_says_so(course, platform, capsys, answer):
    grade_by_hand(course, "cas", "why_scale", 2)  # every student who handed in now has a final grade
    platform.non_member_status = answer
    platform.members.append(member("sub-eve", "Eve", "eve@uni.example", status="Inactive"))  # listed, not gradable
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal == 3
    assert "posted 4 scores" in out and "refused by the LMS: 1 student" in out and f"eve: {answer} " in out
    assert "sub-eve" not in platform.posted()
    assert out.splitlines()[-1] == (
        "python -m grader passback: 1 student not posted, for you to act on: 1 refused by the LMS (listed above)"
    )
    platform.members[-1]["status"] = "Active"  # enrolled again in the LMS
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal is None, refusal  # dee handed in nothing: listed, not counted
    assert "posted 1 score" in out and "4 unchanged" in out and platform.posted()["sub-eve"]["scoreGiven"] == 10
    assert "dee: not handed in" in out and "for you to act on" not in out


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_a_student_with_no_final_grade_or_no_lms_user_makes_the_exit_status_3(course, platform, capsys, dry_run):
    out, refusal = run(capsys, "passback", "--lti", *dry_run, "--course", str(course))
    assert refusal == 3
    posted = "would not be posted" if dry_run else "not posted"
    assert out.splitlines()[-1] == (
        f"python -m grader passback: 2 students {posted}, for you to act on: 1 not matched to an LMS user, "
        "1 with no final grade yet (listed above)"
    )


def test_a_network_failure_half_way_loses_nothing(course, platform, capsys):
    platform.stop_after = 1
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal.startswith("python -m grader passback: cannot reach") and "1 of 3 scores were posted" in refusal
    assert "\n" not in refusal
    ledger = json.loads((course / "grading" / A / LEDGER).read_text())
    assert [s for entries in ledger["posts"].values() for s in entries] == ["ana"]
    platform.stop_after, platform.dropping = None, False
    out, _ = run(capsys, "passback", "--lti", "--course", str(course))
    assert "posted 2 scores" in out and "1 unchanged" in out
    assert set(platform.posted()) == {"sub-ana", "sub-ben", "sub-fay"} and len(platform.received) == 3


def another_key():
    """The public key set of a key pair that is not the kit's."""
    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return public_jwks(pem.decode())


def secrets_of(course, platform):
    key = (course / "lti" / "private_key.pem").read_text()
    body = "".join(key.splitlines()[1:-1])
    return [body[i : i + 24] for i in range(0, len(body) - 24, 24)] + platform.issued


KEY_HINT = "check c.LtiPassback.client_id, and that the LMS holds the public key python -m grader jwks prints"


@pytest.mark.parametrize(
    "change, says",
    [
        (
            lambda p: p.tool_jwks.update(another_key()),
            "the LMS refused the kit's token request (401 Unauthorized: the client assertion is not signed by the "
            f"tool's registered key): {KEY_HINT}",
        ),
        (
            lambda p: setattr(p, "client_id", "another-tool"),
            "the LMS refused the kit's token request (401 Unauthorized: the client assertion's iss and sub must be "
            f"the client id): {KEY_HINT}",
        ),
        (
            lambda p: p.scopes.discard(SCORE),
            "(400 Bad Request: a scope asked for is not granted to this tool): enable the tool's LTI Advantage "
            "services",
        ),
    ],
)
def test_a_wrong_key_or_registration_stops_with_one_line_and_no_secret(course, platform, capsys, change, says):
    change(platform)
    platform.config._registration = None  # the platform reads its registration again
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal.startswith("python -m grader passback: ") and says in refusal and "\n" not in refusal
    assert "token_url" not in refusal  # the URL answered as a token endpoint: it is right
    assert "Traceback" not in out and not any(secret in out + refusal for secret in secrets_of(course, platform))


@contextlib.contextmanager
def another_site(status):
    """A web server on 127.0.0.1 that is not the LMS: every request gets ``status`` and an HTML page."""

    class Page(http.server.BaseHTTPRequestHandler):
        def answer(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = b"<html><body>The school's home page</body></html>"
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


URL_HINT = "not as an OAuth 2 token endpoint: check c.LtiPassback.token_url"


@pytest.mark.parametrize(
    "setting, value, says",
    [
        (
            "token_url",
            "http://127.0.0.1:9/token",
            "cannot reach the LMS's token URL http://127.0.0.1:9/token (connection"
            " error): check c.LtiPassback.token_url",
        ),
        ("lineitems_url", "{base}/contexts/course-9/lineitems", "lineitems answered 404 Not Found"),
        ("lineitems_url", "{base}/contexts/course-9/lineitems", "check c.LtiPassback.lineitems_url"),
        (
            "lineitems_url",
            "{base}/token",
            "{base}/token answered 405 Method Not Allowed: check c.LtiPassback.lineitems_url",
        ),
        ("token_url", "{base}/tokens", f"the token URL {{base}}/tokens answered 404 Not Found, {URL_HINT}"),
        ("token_url", "{base}/jwks", f"the token URL {{base}}/jwks answered 405 Method Not Allowed, {URL_HINT}"),
        (
            "token_url",
            "{base}/contexts/Course-1/memberships",
            f"the token URL {{base}}/contexts/Course-1/memberships answered 405 Method Not Allowed, {URL_HINT}",
        ),
        (
            "token_url",
            "{base}/contexts/Course-1/lineitems",
            "the token URL {base}/contexts/Course-1/lineitems answered 401 Unauthorized: missing bearer token, "
            f"{URL_HINT}",
        ),
        ("token_url", "http://lms.example.edu/token", "is plain http"),
        ("private_key_path", "lti/none.pem", "no LTI private key at"),
    ],
)
def test_a_wrong_url_or_key_path_names_the_setting_to_fix(course, platform, capsys, setting, value, says):
    with open(course / CONFIG, "a") as config:
        config.write(f"c.LtiPassback.{setting} = {value.format(base=platform.base)!r}\n")
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert says.format(base=platform.base) in refusal and "\n" not in refusal and "Traceback" not in out
    assert "client_id" not in refusal  # a wrong URL is not a wrong key


@pytest.mark.parametrize(
    "status, says",
    [
        (200, "answered with no access token: check c.LtiPassback.token_url"),
        (404, f"answered 404 Not Found, {URL_HINT}"),
        (405, f"answered 405 Method Not Allowed, {URL_HINT}"),
        (403, f"answered 403 Forbidden, {URL_HINT}; if it is right, check c.LtiPassback.client_id"),
    ],
)
def test_a_token_url_on_another_site_is_named_before_the_key(course, platform, capsys, status, says):
    with another_site(status) as site:
        with open(course / CONFIG, "a") as config:
            config.write(f"c.LtiPassback.token_url = '{site}/login/oauth2/token'\n")
        out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal.startswith(f"python -m grader passback: the token URL {site}/login/oauth2/token {says}")
    assert ("client_id" in refusal) == (status == 403)  # only a bare 403 may also be the key


@pytest.mark.parametrize(
    "route, says",
    [
        (
            "lti",
            "no c.LtiPassback.client_id, c.LtiPassback.token_url, c.LtiPassback.lineitems_url, "
            "c.LtiPassback.memberships_url in {config}: add them, as the LMS shows them (docs: instructors/lti.md)",
        ),
        (
            "canvas",
            "no c.CanvasPassback.url, c.CanvasPassback.course_id in {config}: add them, as the LMS shows them (docs: "
            "instructors/canvas.md); the environment variable CANVAS_TOKEN (c.CanvasPassback.token_env) is empty",
        ),
        (
            "moodle",
            "no c.MoodlePassback.url, c.MoodlePassback.course_id in {config}: add them, as the LMS shows them (docs: "
            "instructors/moodle.md); the environment variable MOODLE_TOKEN (c.MoodlePassback.token_env) is empty",
        ),
    ],
)
def test_every_missing_setting_is_named_in_one_line(course, capsys, monkeypatch, route, says):
    monkeypatch.delenv("CANVAS_TOKEN", raising=False)
    monkeypatch.delenv("MOODLE_TOKEN", raising=False)
    out, refusal = run(capsys, "passback", f"--{route}", "--course", str(course))
    assert refusal.startswith("python -m grader passback: " + says.format(config=course / CONFIG))
    assert "\n" not in refusal and "issuer" not in refusal


def test_a_course_that_still_sets_the_issuer_and_deployment_id_posts_as_before(course, platform, capsys):
    with open(course / CONFIG, "a") as config:  # not used: any value will do
        config.write("c.LtiPassback.issuer = 'https://another-lms.example.edu'\nc.LtiPassback.deployment_id = '9'\n")
    out, refusal = run(capsys, "passback", "--lti", "--course", str(course))
    assert refusal == 3 and "posted 3 scores" in out and "issuer" not in out and "deployment" not in out


def test_an_expired_access_token_is_asked_for_again(course, capsys):
    platform = TestPlatform(tool_jwks(course), MEMBERS, token_seconds=2)
    with platform.running():
        with open(course / CONFIG, "a") as config:
            config.write(platform.config_lines())
        lms = lti.LtiCourse(Course.at(course))
        first = lms.users()
        time.sleep(3.1)
        assert lms.users() == first and len(platform.issued) == 2
    assert ("GET", f"/contexts/{CONTEXT}/memberships", 401) in platform.log


def test_roster_adds_matches_and_lists_whom_it_cannot(course, platform, capsys):
    platform.members.append(member("sub-dup", "Ana Again", "ana2@uni.example", sis_id="ana"))
    out, refusal = run(capsys, "roster", "--lti", "--course", str(course))
    assert refusal is None, refusal
    assert "roster --lti: 1 student added, 5 matched, 1 could not be matched" in out
    assert "added zed (LMS user sub-zed)" in out
    assert "matched ana (LMS user sub-ana) by e-mail" in out and "matched fay (LMS user sub-fay) by LMS id" in out
    assert "could not match Ana Again (ana2@uni.example): its id ana is another student's" in out
    assert "in the gradebook, not in the LMS's roster: eve" in out and "Tia" not in out
    with venv_on_path(), Gradebook(f"sqlite:///{course}/gradebook.db") as book:
        zed, ana = book.find_student("zed"), book.find_student("ana")
        assert (zed.first_name, zed.last_name, zed.email, zed.lms_user_id) == (
            "Zed",
            "Amari",
            "zed@uni.example",
            "sub-zed",
        )
        assert (ana.email, ana.lms_user_id) == ("ana@uni.example", "sub-ana")


def test_roster_reads_every_page_of_the_memberships(course, platform, capsys):
    with open(course / CONFIG, "a") as config:
        config.write(f"c.LtiPassback.memberships_url = {platform.memberships_url + '?limit=2'!r}\n")
    assert len(lti.LtiCourse(Course.at(course)).users()) == 6
    assert sum(path.endswith("memberships") for _, path, _ in platform.log) == 4


# The platform's own fixes to lti1p3platform 0.1.8, over HTTP.
def token(platform, course, *scopes):
    return lti.LtiCourse(Course.at(course)).connector.get_access_token(list(scopes))


def test_the_platform_answers_401_for_an_expired_or_garbled_token_and_403_without_the_scope(course, platform):
    url = platform.lineitems_url
    for bearer in ("garbled", "a.b.c"):
        answer = requests.get(url, headers={"Authorization": f"Bearer {bearer}"}, timeout=5)
        assert answer.status_code == 401 and "invalid_token" in answer.headers["WWW-Authenticate"]
    platform.token_seconds = 1
    expired = token(platform, course, LINEITEM_READ)
    time.sleep(2.1)  # at least a second past its expiry
    assert requests.get(url, headers={"Authorization": f"Bearer {expired}"}, timeout=5).status_code == 401
    platform.token_seconds = 3600
    read_only = token(platform, course, LINEITEM_READ)
    made = f"{url}/1"
    platform.lineitems[made] = {"id": made, "label": A, "scoreMaximum": 10}
    score = {
        "userId": "sub-ana",
        "scoreGiven": 1,
        "scoreMaximum": 10,
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": lti.now(),
    }
    post = lambda bearer, body: requests.post(  # noqa: E731
        f"{made}/scores",
        data=json.dumps(body),
        timeout=5,
        headers={"Authorization": f"Bearer {bearer}", "Content-Type": "application/vnd.ims.lis.v1.score+json"},
    )
    assert post(read_only, score).status_code == 403 and not platform.received
    full = token(platform, course, SCORE)
    for wrong in ({"scoreGiven": -1}, {"activityProgress": "Done"}, {"timestamp": "yesterday"}, {"scoreMaximum": 0}):
        assert post(full, {**score, **wrong}).status_code == 400
    assert post(full, score).status_code == 201
    assert post(full, score).status_code == 409  # the same timestamp again: not newer than the last


def test_the_platforms_line_item_list_is_a_bare_array_paged_by_link(course, platform):
    for n in range(3):
        platform.lineitems[f"{platform.lineitems_url}/{n}"] = {
            "id": f"{platform.lineitems_url}/{n}",
            "label": f"item {n}",
            "scoreMaximum": 1,
        }
    bearer = token(platform, course, LINEITEM_READ)
    answer = requests.get(
        platform.lineitems_url, params={"limit": 2}, timeout=5, headers={"Authorization": f"Bearer {bearer}"}
    )
    assert isinstance(answer.json(), list) and len(answer.json()) == 2
    assert answer.links["next"]["url"] == f"{platform.lineitems_url}?limit=2&page=2"
    assert answer.headers["Content-Type"] == "application/vnd.ims.lis.v2.lineitemcontainer+json"


def test_learners_only(course, platform):
    assert {u.user_id for u in lti.LtiCourse(Course.at(course)).users()} == {
        m["user_id"] for m in MEMBERS if LEARNER in m["roles"]
    }
