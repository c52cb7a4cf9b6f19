"""The sandbox at the isolation levels an unprivileged grader gets, graded end to end:

- userns: as an unprivileged user made here with ``useradd``, in a course folder it owns;
- landlock: as that user, under a seccomp filter that forbids ``unshare`` as a container's
  profile does, with the level left on ``auto``: the worker must find Landlock by itself.

At each level a correct and a stub submission keep their grades, every attack that meets the level's own walls
(``WALLED``) scores nothing on its exercise and nothing else, the wall spies (which answer right only where the wall
holds) get full marks, and nothing of that user's is left on the machine. The other attacks meet the same defence at
every level and are tried at the root level, with the whole attack suite, in test_sandbox_attacks.py; a level that
cannot start, and no isolation at all, here.
"""

import csv
import os
import pathlib
import pwd
import shutil
import subprocess
import sys

import nbformat
import pytest

from grader.boundary.student_safe import KIT_ROOT as KIT
from grader.export import export

from ..course_builder import ASSIGNMENT, BASICS, exercise, make_course, records, submission, submit, worth
from .attacks import ATTACKS, RIGHT, SECRET, SHARED_MEMORY, WALL_SPIES, WRONG
from .leftovers import leftovers, processes_of

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]  # as its own user: beside other sandboxes

USER = "attention-kit-grader"


RLIMIT_STATUSES = {  # where memory is an rlimit, the allocation fails inside the student's code instead
    "memorybomb": {"undefined", "crashed", "memory"},
    "deepheap": {"crashed", "memory", "timeout"},
    "recursor": {"crashed", "memory"},
}
LEVELS = {"userns": "userns", "landlock": "auto"}  # level: the isolation setting that must reach it
# The attacks whose defence differs by level (README, "Isolation": the rows that are not "same" at every level),
# each with the walls it meets at root and userns, or at landlock: tried at each level here.
WALLED = {
    "memorybomb": "memory: a cgroup, or RLIMIT_AS (RLIMIT_STATUSES)",
    "deepheap": "memory: a cgroup, or RLIMIT_AS (RLIMIT_STATUSES)",
    "recursor": "a C-level crash, or memory: a cgroup, or RLIMIT_AS (RLIMIT_STATUSES)",
    "forker": "a background process: the PID namespace, or the fork server's subreaper and RLIMIT_NPROC",
    "loopcall": "a sandbox killed at its deadline takes its processes along: the PID namespace, or PR_SET_PDEATHSIG",
    "reader": "the course's solutions, the kit's references: covering mounts, or Landlock",
    "importer": "the kit's references: covering mounts, or Landlock",
    "writer": "the gradebook, another student's record: read-only mounts, or Landlock",
    "spy": "root, the grader's environment, the network: a user and network namespace, or seccomp",
    "shm": "System V shared memory: the IPC namespace, or seccomp",
    "stackwalk": "the job's spec, which each level builds its walls from (levels.enter, levels.seal), gone from memory",
}
# The attacks whose defence is the same at every level: the worker's clock and SIGKILL whatever the loop does
# (loopdef, stubborn: loopcall above ends as they do), its death and form checks of the channel (exiter, pipe, judge,
# flood), the output cap, the judge outside the student's process. test_sandbox_attacks.py's
# test_attack_scores_nothing_with_a_clear_status grades each at the root level.
SAME_AT_EVERY_LEVEL = (
    "loopdef",
    "stubborn",
    "exiter",
    "pipe",
    "judge",
    "flood",
    "flooder",
    "patcher",
    "ipython",
    "forger",
    "interrupt",
)


def _run(command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


def _user_python(home):
    """An interpreter the user can run with the kit's packages: the kit's own if the user can reach
    it, else a virtual environment of the user's, on the system's Python of the same version, whose
    packages are hard links to the kit's (a root-owned ``/root`` interpreter is out of its reach)."""
    if _run(["runuser", "-u", USER, "--", sys.executable, "-c", "import grader, torch"]).returncode == 0:
        return sys.executable
    system = shutil.which(f"python{sys.version_info.major}.{sys.version_info.minor}", path="/usr/bin:/usr/local/bin")
    if system is None:
        pytest.skip("no Python the unprivileged user can run")
    venv, made_for = home / "venv", home / "venv" / "kit-prefix.txt"
    if venv.exists() and not (made_for.exists() and made_for.read_text() == sys.prefix):
        shutil.rmtree(venv)  # made for another checkout: its links lead to that checkout's code
    if not (venv / "bin" / "python").exists():
        (venv / "bin").mkdir(parents=True)
        if _run(["cp", "-al", f"{sys.prefix}/lib", str(venv / "lib")]).returncode:
            shutil.copytree(f"{sys.prefix}/lib", venv / "lib", symlinks=True)
        (venv / "bin" / "python").symlink_to(system)
        (venv / "pyvenv.cfg").write_text(
            f"home = {pathlib.Path(system).parent}\ninclude-system-site-packages = false\n"
        )
        for script in pathlib.Path(sys.prefix, "bin").iterdir():  # nbgrader runs alembic and jupyter by name
            if script.is_file() and not script.is_symlink() and script.read_bytes()[:2] == b"#!":
                lines = script.read_text().splitlines(keepends=True)
                (venv / "bin" / script.name).write_text(f"#!{venv}/bin/python\n" + "".join(lines[1:]))
                (venv / "bin" / script.name).chmod(0o755)
        made_for.write_text(sys.prefix)
    return str(venv / "bin" / "python")


def make_grader_user():
    """(home, python) of an unprivileged user who can run the grader; made if missing (needs root)."""
    if _run(["id", USER]).returncode:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", USER], check=True)
    home = pathlib.Path(pwd.getpwnam(USER).pw_dir)
    return home, _user_python(home)


@pytest.fixture(scope="module")
def grader_user():
    if os.geteuid() != 0:
        pytest.skip("making a user needs root")
    made = _run(["id", USER]).returncode != 0
    yield make_grader_user()
    if made:
        _run(["userdel", "--remove", USER])


def _as_user(home, python, *arguments):
    """The command line that runs ``python arguments`` as the unprivileged user, in a clean environment."""
    return [
        "setpriv",
        f"--reuid={USER}",
        f"--regid={USER}",
        "--init-groups",
        "env",
        "-i",
        f"HOME={home}",
        f"PATH={pathlib.Path(python).parent}:/usr/bin:/bin",
        f"{SECRET}=1",
        python,
        *arguments,
    ]


def _without_namespaces(command, python):
    """``command`` under a seccomp filter that denies unshare(2), as Docker's default profile does."""
    wrapper = (
        "import os, sys\nfrom grader.sandbox import seccomp\nseccomp.install(['unshare'])\n"
        "os.execvp(sys.argv[1], sys.argv[1:])"
    )
    return [python, "-c", wrapper, *command]


def _course(released, folder, students, isolation, owner=None):
    """A course at ``isolation`` with a submission per student (None: the release, all stubs)."""
    course = make_course(released, folder)
    with open(course / "nbgrader_config.py", "a") as config:
        config.write(f'c.SandboxExecute.isolation = "{isolation}"\n')
    home = pwd.getpwnam(USER).pw_dir if owner else "/root"
    release = nbformat.read(course / "exercises" / ASSIGNMENT / BASICS, as_version=4)
    for student, answer in students.items():
        if answer is None:
            submit(course, student, release)
            continue
        answer = answer if isinstance(answer, str) else answer[0]
        answer = answer.replace("{course}", str(course)).replace("{kit}", str(KIT)).replace("{home}", home)
        submit(course, student, submission(course, {"attention_scores": answer}))
    if owner:
        shutil.chown(course, owner, owner)
        for path in course.rglob("*"):
            shutil.chown(path, owner, owner)
    return course


@pytest.fixture(scope="module", params=list(LEVELS))
def graded(request, grader_user):
    level = request.param
    attacks = {student: attack for student, attack in {**ATTACKS, **SHARED_MEMORY}.items() if student in WALLED}
    students = {"good": RIGHT, "stubs": None, **WALL_SPIES, **attacks}
    home, python = grader_user
    folder = home / f"course-{level}"
    shutil.rmtree(folder, ignore_errors=True)
    course = _course(request.getfixturevalue("released_course"), folder, students, LEVELS[level], owner=USER)
    command = _as_user(home, python, "-m", "grader", "autograde", "--course", str(course))
    if level == "landlock":
        command = _without_namespaces(command, python)
    done = _run(command, cwd=course, timeout=900, env={**os.environ, SECRET: "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    yield level, course, attacks
    shutil.rmtree(course, ignore_errors=True)


def test_sound_submissions_keep_their_grades(graded):
    level, course, _ = graded
    found = records(course)
    assert found["good"].score == worth(BASICS) and found["good"].status == "graded"
    assert found["stubs"].score == 0
    assert all(r.isolation.startswith(f"{level};") for r in found.values()), {r.isolation for r in found.values()}
    with open(export(course, ASSIGNMENT), newline="") as table:
        levels = {row["isolation"] for row in csv.DictReader(table) if row["notebook"] == BASICS}
    assert levels and all(named.startswith(f"{level};") for named in levels), levels


def test_each_attack_is_tried_at_each_level_or_meets_the_same_defence_at_all():
    """A new attack in attacks.py is tried here, or named as one whose defence does not depend on the level."""
    assert not set(WALLED) & set(SAME_AT_EVERY_LEVEL)
    assert set(WALLED) | set(SAME_AT_EVERY_LEVEL) == set(ATTACKS) | set(SHARED_MEMORY)


def test_every_attack_scores_nothing_and_costs_nobody_else(graded):
    level, course, attacks = graded
    found = records(course)
    wrong = {}
    for student, (_, status) in attacks.items():
        target = exercise(found[student], "attention_scores")
        allowed = {status} | (RLIMIT_STATUSES.get(student, set()) if "rlimit" in found[student].isolation else set())
        others = [e for e in found[student].exercises if e.name != "attention_scores"]
        if (
            target.status not in allowed
            or target.score != (3 if student == "spy" else 0)
            or any(e.score != e.max_score for e in others)
        ):
            wrong[student] = (target.status, target.score, target.reason, [(e.name, e.status) for e in others])
    assert not wrong, "\n".join(f"{student} ({WALLED[student]}): {what}" for student, what in wrong.items())


@pytest.mark.parametrize("spy", WALL_SPIES)
def test_wall_holds(graded, spy):
    """/proc shows the sandbox's processes only, /proc/self/environ holds nothing of the grader's,
    nothing outside the scratch folders can be written."""
    _, course, _ = graded
    target = exercise(records(course)[spy], "attention_scores")
    assert (target.status, target.score) == ("graded", 3), target.reason


def test_nothing_is_left_on_the_machine(graded):
    _, course, _ = graded
    uid = pwd.getpwnam(USER).pw_uid
    assert processes_of(uid) == []
    home = pwd.getpwnam(USER).pw_dir
    assert leftovers(home, course) == (False, [])
    assert [p for p in pathlib.Path("/tmp").glob("attention-kit-*") if p.stat().st_uid == uid] == []


@pytest.fixture
def refused(grader_user, released_course):
    home, python = grader_user
    course = _course(released_course, home / "course-refused", {"good": RIGHT}, "root", owner=USER)
    yield _run(_as_user(home, python, "-m", "grader", "autograde", "--course", str(course)), cwd=course, timeout=600)
    shutil.rmtree(course, ignore_errors=True)


def test_a_sandbox_that_cannot_start_is_reported_plainly(refused):
    assert refused.returncode != 0
    assert "the sandbox cannot start on this machine" in refused.stderr
    assert 'c.SandboxExecute.isolation = "none"' in refused.stderr
    assert "Traceback" not in refused.stderr and "SystemExit" not in refused.stderr


def test_grades_without_isolation_are_marked(grader_user, released_course):
    home, python = grader_user
    course = _course(released_course, home / "course-none", {"good": RIGHT, "wrong": WRONG}, "none", owner=USER)
    try:  # one grading process: two students (``graded`` grades with one a core, as an instructor does)
        done = _run(
            _as_user(home, python, "-m", "grader", "autograde", "--course", str(course), "--workers", "1"),
            cwd=course,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        found = records(course)
        full = worth(BASICS)
        assert (found["good"].score, found["wrong"].score) == (full, full - worth(BASICS, "attention_scores"))
        assert {r.isolation.split(";")[0] for r in found.values()} == {"none"}
    finally:
        shutil.rmtree(course, ignore_errors=True)
