"""``autograde --dask``: a class graded on a real Dask cluster (``distributed.LocalCluster``, two worker processes on
127.0.0.1) with a real PostgreSQL gradebook (tests/postgres.py) gets exactly the grades, the autograded notebooks and
the records of a local run, and loses no student when a worker is killed while it grades one.
"""

import json
import os
import pathlib
import signal
import threading
import time

import dask
import nbformat
import pytest
from distributed import Client, LocalCluster, WorkerPlugin

from grader.autograde.dask_worker import graded_alone
from grader.autograde.run import autograde as autograde_here
from grader.cli.errors import UsageError
from grader.course import Course

from ..course_builder import ASSIGNMENT, BASICS, autograde, submission, submit
from ..postgres import create_database, postgres_server
from .test_postgres_gradebook import enrol, released_with

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

WRONG_SOFTMAX = "def softmax_scores(scores):\n    print('my softmax')\n    return torch.softmax(scores, dim=0)"
SECOND = "02_self_attention_step_by_step.ipynb"
KILLED = "cy"  # the student whose first worker is killed while it grades them
# Dask's own monitoring, not the grading: a stack sample of every worker every 10 ms and an event-loop check every
# 20 ms, in each of the cluster's processes, cost about a tenth of a core while it waits (the config reaches the
# workers through their nannies).
QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s"}


@pytest.fixture(scope="module")
def cluster():
    with (
        dask.config.set(QUIET),
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
        ) as local,
    ):
        yield local


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A class on a PostgreSQL gradebook, graded once on this machine: the stubs, a wrong answer that prints, and
    a full answer with a second notebook cut off half-way (set aside as unreadable, and flagged for a manual
    grade)."""
    folder = tmp_path_factory.mktemp("dask")
    with postgres_server() as server:
        course = released_with(folder, create_database(server, "dask"))
        enrol(course, "bo", "cy", "di")
        stubs = nbformat.read(course / "exercises" / ASSIGNMENT / BASICS, as_version=4)
        for student, nb in {
            "bo": stubs,
            "di": submission(course),
            "cy": submission(course, {"softmax_scores": WRONG_SOFTMAX}),
        }.items():
            submit(course, student, nb)
        submit(course, "di", nbformat.writes(submission(course, notebook=SECOND))[:4000], SECOND)
        done = autograde(course)
        assert done.returncode == 0, done.stderr
        yield course, graded(course)


def graded(course):
    """Every score of the gradebook, and every autograded notebook and grading record, as plain data, but for what
    a second local run changes too: the time a record took, the ids of the cells a run adds."""
    kit = Course.at(course)
    with kit.gradebook() as book:
        scores = {
            (s.student.id, nb.name, grade.name): (grade.auto_score, grade.needs_manual_grade, s.flagged)
            for nb in book.find_assignment(ASSIGNMENT).notebooks
            for s in nb.submissions
            for grade in s.grades
        }
    files = {}
    for path in sorted(kit.every_student("autograded").rglob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            del cell["id"]  # random for the notes a run adds (nbformat's new cells), in a local run as well
        files[str(path.relative_to(course))] = nb
    for path in sorted(kit.grading.glob("*/*.json")):
        files[str(path.relative_to(course))] = {**json.loads(path.read_text()), "seconds": None}
    return scores, files


def assert_same(got, expected):
    """The same scores and files, or the first difference of each kind."""
    for kind, ours, theirs in zip(("score", "file"), got, expected):
        assert ours.keys() == theirs.keys(), kind
        differ = [key for key in theirs if ours[key] != theirs[key]]
        assert not differ, f"{kind} {differ[0]}: {ours[differ[0]]} instead of {theirs[differ[0]]}"


def on_dask(course, cluster):
    return autograde(course, "--force", "--dask", cluster.scheduler_address)


class KillWhileGrading(WorkerPlugin):
    """Kill the worker's process a moment after it starts grading ``student``, the first time only; every start
    is written to ``starts`` (the worker's pid, a line each)."""

    def __init__(self, student, starts):
        self.student, self.starts = student, starts

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or f"-grade-{self.student}-" not in str(key):
            return
        first = not self.starts.exists()
        with open(self.starts, "a") as starts:
            starts.write(f"{os.getpid()}\n")
        if first:  # while the worker grades them
            threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGKILL)).start()


def test_a_class_graded_on_dask_gets_the_grades_and_outputs_of_a_local_run(course, cluster):
    course, local = course
    scores, files = local
    assert {score for score, _, _ in scores.values()} > {0.0}, "the class has zeros and real scores"
    assert {r["student"] for name, r in files.items() if name.endswith(".json")} == {"bo", "cy", "di"}
    done = on_dask(course, cluster)
    assert done.returncode == 0, done.stderr
    assert "recording grades with nbgrader on Dask (2 workers)" in done.stderr
    assert "graded 3 notebooks of 3 students" in done.stderr  # di's second notebook was set aside by the first run
    assert_same(graded(course), local)


def test_a_worker_killed_while_grading_loses_no_student(course, cluster, tmp_path):
    """Graded through the Python API with the Client that set the trap (``autograde(course, dask=client)``)."""
    course, local = course
    starts = tmp_path / "starts"
    with Client(cluster) as client:
        client.register_plugin(KillWhileGrading(KILLED, starts), name="kill-while-grading")
        try:
            autograde_here(course, force=True, dask=client)
        finally:
            client.unregister_worker_plugin("kill-while-grading")
    killed, *again = starts.read_text().split()
    assert len(again) == 1 and not pathlib.Path(f"/proc/{killed}").exists(), "graded again after the kill"
    assert_same(graded(course), local)


def test_an_sqlite_gradebook_is_refused_before_anything_is_done(root, tmp_path):
    (tmp_path / "nbgrader_config.py").write_text((root / "nbgrader_config.py").read_text())
    with pytest.raises(UsageError, match=r"every Dask worker reaches: set c\.CourseDirectory\.db_url .* PostgreSQL"):
        autograde_here(tmp_path, dask="tcp://127.0.0.1:8786")
    assert sorted(tmp_path.iterdir()) == [tmp_path / "nbgrader_config.py"]


def test_a_student_is_graded_by_one_worker_at_a_time(course):
    """A task run twice at once (the scheduler took a busy worker for dead) waits for the first: the student's rows
    in the gradebook are never written by two graders together. Another student does not wait."""
    kit_course, order, holding = Course.at(course[0], ASSIGNMENT), [], threading.Event()

    def first():
        with graded_alone(kit_course, "di"):
            order.append("di, first")
            holding.set()
            time.sleep(1)
            order.append("di, first done")

    thread = threading.Thread(target=first)
    thread.start()
    assert holding.wait(60)
    with graded_alone(kit_course, "bo"):
        order.append("bo")
    with graded_alone(kit_course, "di"):
        order.append("di, second")
    thread.join()
    assert order == ["di, first", "bo", "di, first done", "di, second"]
