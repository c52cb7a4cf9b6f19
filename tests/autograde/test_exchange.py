"""nbgrader's own exchange (the JupyterHub workflow) on the kit's course, end to end, with a local exchange
folder: the instructor releases, two students fetch and submit (notebook 01), the instructor collects with
nbgrader and grades with the kit, then feedback goes back through the exchange. A submission of links is
collected without what they point at.

The students are told apart as nbgrader allows on one machine: each has a home of their own (the working
folder, ``CourseDirectory.root``, and ``Exchange.cache``) and names themselves with
``CourseDirectory.student_id`` (otherwise nbgrader takes the unix user name).
"""
import os
import subprocess
import sys

import nbformat
import pytest

from grader.course import Course

from ..course_builder import ASSIGNMENT, BASICS, autograde, make_course, submission

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

COURSE_ID = "self_attention_kit"
STUDENTS = {"alice": True, "bob": False}  # True: the reference answers in notebook 01; False: the stubs
STEP = "02_self_attention_step_by_step.ipynb"
NUMPY = "03_attention_in_numpy.ipynb"


def nbgrader(cwd, *arguments, exchange, home=None):
    env = {**os.environ, "HOME": str(home or cwd), "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    done = subprocess.run([sys.executable, "-m", "nbgrader", *arguments, f"--Exchange.root={exchange}",
                           f"--CourseDirectory.course_id={COURSE_ID}", "--log-level=WARN"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"nbgrader {' '.join(arguments)}:\n{done.stderr[-3000:]}"
    return done


def as_student(student, home, *arguments, exchange):
    return nbgrader(home, *arguments, f"--CourseDirectory.root={home}", f"--CourseDirectory.student_id={student}",
                    f"--Exchange.cache={home / '.nbgrader-cache'}", exchange=exchange, home=home)


@pytest.fixture(scope="module")
def graded(released_course, tmp_path_factory):
    top = tmp_path_factory.mktemp("exchange-workflow")
    exchange = top / "exchange"
    course = make_course(released_course, top / "instructor" / "course")
    nbgrader(course, "release_assignment", ASSIGNMENT, exchange=exchange)
    homes = {}
    for student, correct in STUDENTS.items():
        home = homes[student] = top / student
        home.mkdir()
        as_student(student, home, "fetch_assignment", ASSIGNMENT, exchange=exchange)
        fetched = home / ASSIGNMENT / BASICS
        assert fetched.exists()
        for other in set((home / ASSIGNMENT).glob("*.ipynb")) - {fetched}:
            other.unlink()  # notebook 01 alone is handed in: the tests read no other, grading them would be wasted
        if correct:
            nbformat.write(submission(course), fetched)
        as_student(student, home, "submit", ASSIGNMENT, exchange=exchange)
    nbgrader(course, "collect", ASSIGNMENT, exchange=exchange)
    graded = autograde(course)
    assert graded.returncode == 0, graded.stderr[-3000:]
    return course, exchange, homes


def basics_scores(course):
    """{student: (score, max score) of notebook 01} from the gradebook."""
    with Course.at(course).gradebook() as gradebook:
        return {s.student.id: (s.score, s.max_score)
                for s in gradebook.notebook_submissions(BASICS.removesuffix(".ipynb"), ASSIGNMENT)}


def test_collected_submissions_are_graded_right(graded):
    course, *_ = graded
    scores = basics_scores(course)
    assert set(scores) == set(STUDENTS)
    assert scores["alice"][0] == scores["alice"][1] > 0
    assert scores["bob"][0] == 0


def test_feedback_goes_back_through_the_exchange(graded):
    course, exchange, homes = graded
    nbgrader(course, "generate_feedback", ASSIGNMENT, "--force", exchange=exchange)
    nbgrader(course, "release_feedback", ASSIGNMENT, exchange=exchange)
    scores = basics_scores(course)
    for student, home in homes.items():
        as_student(student, home, "fetch_feedback", ASSIGNMENT, exchange=exchange)
        pages = list((home / ASSIGNMENT / "feedback").rglob(f"{BASICS.removesuffix('.ipynb')}.html"))
        assert len(pages) == 1, (student, list(home.rglob("*.html")))
        score, max_score = scores[student]
        assert f"Score: {score:.1f} / {max_score:.1f})" in pages[0].read_text()


def test_collect_follows_no_link_in_the_exchange(released_course, tmp_path):
    """nbgrader's submit leaves a submission in the exchange writable to its student, who can put links in it:
    ``nbgrader collect``, through the course's config, leaves out a symbolic link to the course's solutions, a hard
    link to one and a submission folder that is a link, says whose and which, and collects the regular files."""
    exchange = tmp_path / "exchange"
    course = make_course(released_course, tmp_path / "course")
    solutions = course / "solutions" / ASSIGNMENT
    nbgrader(course, "release_assignment", ASSIGNMENT, exchange=exchange)
    home = tmp_path / "alice"
    home.mkdir()
    as_student("alice", home, "fetch_assignment", ASSIGNMENT, exchange=exchange)
    as_student("alice", home, "submit", ASSIGNMENT, exchange=exchange)
    inbound = exchange / COURSE_ID / "inbound"
    [handed_in] = inbound.glob(f"alice+{ASSIGNMENT}+*")
    (handed_in / BASICS).unlink()
    (handed_in / BASICS).symlink_to(solutions / BASICS)
    (handed_in / STEP).unlink()
    os.link(solutions / STEP, handed_in / STEP)
    linked = f"mallory+{ASSIGNMENT}+2024-01-01 00:00:00.000000 UTC"
    (inbound / linked).symlink_to(solutions)
    collected = nbgrader(course, "collect", ASSIGNMENT, exchange=exchange)
    submitted = course / "submitted"
    answers = {path.read_bytes() for path in solutions.iterdir()}
    assert [path for path in submitted.rglob("*") if path.is_file() and path.read_bytes() in answers] == []
    alice = submitted / "alice" / ASSIGNMENT
    assert not (alice / BASICS).exists() and not (alice / STEP).exists()
    assert (alice / NUMPY).read_bytes() == (course / "exercises" / ASSIGNMENT / NUMPY).read_bytes()
    for kept in ("timestamp.txt", "submission_secret.txt"):  # nbgrader's own files, for --update and feedback
        assert (alice / kept).read_text() == (handed_in / kept).read_text()
    assert not (submitted / "mallory" / ASSIGNMENT).exists()
    for said in (f"alice's {BASICS} was not collected: a symbolic link",
                 f"alice's {STEP} was not collected: a hard link",
                 f"mallory's submission {linked} was not collected: a symbolic link"):
        assert said in collected.stderr, collected.stderr
