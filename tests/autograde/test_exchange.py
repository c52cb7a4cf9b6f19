"""nbgrader's own exchange (the JupyterHub workflow) on the kit's course, end to end, with a local exchange
folder: the instructor releases, two students fetch and submit (notebook 01), the instructor collects with
nbgrader and grades with the kit, then feedback goes back through the exchange. Bob also submits notebooks 02 and
03, then puts links in their place in the exchange: they, and a submission that is a link, are collected without
what they point at, in the same collect, and his notebook 01 is graded as usual.

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
LINKER = "bob"  # hands in notebooks 02 and 03 too, which links replace in the exchange (put_links)
STEP = "02_self_attention_step_by_step.ipynb"
NUMPY = "03_attention_in_numpy.ipynb"
HANDED_IN = {"alice": (BASICS,), LINKER: (BASICS, STEP, NUMPY)}  # the notebooks each submits


def nbgrader(cwd, *arguments, exchange, home=None):
    env = {**os.environ, "HOME": str(home or cwd), "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "nbgrader",
            *arguments,
            f"--Exchange.root={exchange}",
            f"--CourseDirectory.course_id={COURSE_ID}",
            "--log-level=WARN",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"nbgrader {' '.join(arguments)}:\n{done.stderr[-3000:]}"
    return done


def as_student(student, home, *arguments, exchange):
    return nbgrader(
        home,
        *arguments,
        f"--CourseDirectory.root={home}",
        f"--CourseDirectory.student_id={student}",
        f"--Exchange.cache={home / '.nbgrader-cache'}",
        exchange=exchange,
        home=home,
    )


@pytest.fixture(scope="module")
def collected(released_course, tmp_path_factory):
    """The class handed in through the exchange and collected by the instructor: Alice and Bob hand in notebook 01
    (see STUDENTS); Bob, once his submission is in the exchange, puts a symbolic link to the course's solutions in
    place of his notebook 02 and a hard link to one in place of his notebook 03; a submission of Mallory's is a link
    to the solutions folder."""
    top = tmp_path_factory.mktemp("exchange-workflow")
    exchange = top / "exchange"
    course = make_course(released_course, top / "instructor" / "course")
    nbgrader(course, "release_assignment", ASSIGNMENT, exchange=exchange)
    homes = {}
    for student, kept in HANDED_IN.items():
        home = homes[student] = top / student
        home.mkdir()
        as_student(student, home, "fetch_assignment", ASSIGNMENT, exchange=exchange)
        fetched = home / ASSIGNMENT / BASICS
        assert fetched.exists()
        for other in set((home / ASSIGNMENT).glob("*.ipynb")) - {home / ASSIGNMENT / name for name in kept}:
            other.unlink()  # the tests read no other notebook: grading them would be wasted
        if STUDENTS.get(student):
            nbformat.write(submission(course), fetched)
        as_student(student, home, "submit", ASSIGNMENT, exchange=exchange)
    handed_in, linked = put_links(course, exchange)
    said = nbgrader(course, "collect", ASSIGNMENT, exchange=exchange).stderr
    return course, exchange, homes, handed_in, linked, said


def put_links(course, exchange):
    """What Bob and Mallory put in the exchange (nbgrader's submit leaves a submission writable to its student):
    (Bob's submission, the name of Mallory's)."""
    solutions = course / "solutions" / ASSIGNMENT
    inbound = exchange / COURSE_ID / "inbound"
    [handed_in] = inbound.glob(f"{LINKER}+{ASSIGNMENT}+*")
    (handed_in / STEP).unlink()
    (handed_in / STEP).symlink_to(solutions / STEP)
    (handed_in / NUMPY).unlink()
    os.link(solutions / NUMPY, handed_in / NUMPY)
    linked = f"mallory+{ASSIGNMENT}+2024-01-01 00:00:00.000000 UTC"
    (inbound / linked).symlink_to(solutions)
    return handed_in, linked


def test_collect_follows_no_link_in_the_exchange(collected):
    """``nbgrader collect``, through the course's config, leaves out a symbolic link to the course's solutions, a
    hard link to one and a submission folder that is a link, says whose and which, and collects the regular files."""
    course, _, _, handed_in, linked, said = collected
    solutions = course / "solutions" / ASSIGNMENT
    submitted = course / "submitted"
    answers = {path.read_bytes() for path in solutions.iterdir()}
    assert [path for path in submitted.rglob("*") if path.is_file() and path.read_bytes() in answers] == []
    linker = submitted / LINKER / ASSIGNMENT
    assert not (linker / STEP).exists() and not (linker / NUMPY).exists()
    assert (linker / BASICS).read_bytes() == (course / "exercises" / ASSIGNMENT / BASICS).read_bytes()
    for kept in ("timestamp.txt", "submission_secret.txt"):  # nbgrader's own files, for --update and feedback
        assert (linker / kept).read_text() == (handed_in / kept).read_text()
    assert not (submitted / "mallory" / ASSIGNMENT).exists()
    for words in (
        f"{LINKER}'s {STEP} was not collected: a symbolic link",
        f"{LINKER}'s {NUMPY} was not collected: a hard link",
        f"mallory's submission {linked} was not collected: a symbolic link",
    ):
        assert words in said, said


@pytest.fixture(scope="module")
def graded(collected):
    course, exchange, homes, *_ = collected
    graded = autograde(course)
    assert graded.returncode == 0, graded.stderr[-3000:]
    return course, exchange, homes


def basics_scores(course):
    """{student: (score, max score) of notebook 01} from the gradebook."""
    with Course.at(course).gradebook() as gradebook:
        return {
            s.student.id: (s.score, s.max_score)
            for s in gradebook.notebook_submissions(BASICS.removesuffix(".ipynb"), ASSIGNMENT)
        }


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
