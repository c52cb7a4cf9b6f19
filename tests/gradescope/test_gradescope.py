"""The Gradescope autograder, run here as Gradescope would run it (under a temporary /autograder).

The zip is built from a released course; its run_autograder runs with the kit's installed
environment (setup.sh cannot run here) on students of the demo class and on the attack suite's
submissions. Every score must equal the one ``python -m grader autograde`` puts in the gradebook
for the same notebooks; nothing in results.json may show a hidden check's source.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor

import nbformat
import pytest

from grader.checks.registry import exercise_of_grade_id
from grader.demo.generate import make_class
from grader.gradebook import cell_scores
from grader.gradescope.build import gradescope
from grader.course import Course

from ..conftest import ROOT
from ..course_builder import ASSIGNMENT, autograde, make_course, submission
from ..hidden_lines import hidden_test_lines
from ..sandbox.test_sandbox_attacks import ATTACKS, RIGHT, WRONG

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

# Demo students with a timeout, mistakes, a deleted test cell, an invalid notebook, missing notebooks, nothing at all.
STUDENTS = ["carmen", "jonas", "rosa", "freya", "nadia"]
RENAMED = {"freya": ("02_self_attention_step_by_step.ipynb", "work/02_self_attention_step_by_step (1).ipynb")}
# The attack suite's submissions of notebook 01, and one that goes for what only Gradescope's container holds.
GRADESCOPE_SPY = ("import pathlib\nstolen = False\nfor path in ['{root}/results/results.json', '{root}/submission_metadata.json',"
                  " '{kit}/grader/hidden/basics.py', '{kit}/solutions/self_attention/01_attention_basics.ipynb',"
                  " '{kit}/gradebook.db']:\n    try:\n        stolen |= bool(pathlib.Path(path).read_bytes())\n"
                  "    except OSError:\n        pass\ntry:\n    pathlib.Path('{root}/results/results.json').write_text('{{}}')\n"
                  "    stolen = True\nexcept OSError:\n    pass\n"
                  "if stolen:\n" + "".join("    " + line + "\n" for line in RIGHT.splitlines()) +
                  "else:\n" + "".join("    " + line + "\n" for line in WRONG.splitlines()))
ATTACK_RUNS = {**{name: answer for name, (answer, _) in ATTACKS.items()}, "gradescope_spy": GRADESCOPE_SPY}
SPEC_TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
            "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
SPEC_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags",
             "visibility", "extra_data"}
VISIBILITY = {"visible", "hidden", "after_due_date", "after_published"}


@pytest.fixture(scope="module")
def course(released_course, tmp_path_factory):
    """A released course, with the kit's own time limits: a busy machine must not time out a sound answer
    on one side of the comparison only."""
    course = make_course(released_course, tmp_path_factory.mktemp("gradescope") / "course")
    with open(course / "nbgrader_config.py", "a") as config:
        config.write("c.SandboxExecute.unit_seconds = 10\nc.SandboxExecute.notebook_seconds = 60\n")
    return course


@pytest.fixture(scope="module")
def roots():
    """Where the /autograder folders go: not under /tmp, which every sandbox replaces by its own, so
    that the walls around /autograder are really tried."""
    (ROOT / "build").mkdir(exist_ok=True)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="gradescope-tests-", dir=ROOT / "build"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def autograder(course):
    return gradescope(course=course, assignment=ASSIGNMENT, out=course.parent / "autograder.zip")


def run_autograder(autograder, root, files):
    """Lay the zip out as Gradescope does under ``root``, put ``files`` ({path: text}) in the submission
    folder, run run_autograder; return (results.json as a dict, stdout)."""
    shutil.rmtree(root, ignore_errors=True)
    with zipfile.ZipFile(autograder) as archive:
        archive.extractall(root / "source")
    shutil.copy(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    (root / "results").mkdir()
    (root / "results" / "results.json").write_text('{"secret": "a stale result"}')  # must be neither read nor kept
    (root / "submission_metadata.json").write_text('{"users": [{"email": "student@example.com"}]}')
    (root / "submission").mkdir()
    for name, text in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_text(text)
    done = subprocess.run([str(root / "run_autograder")], cwd=root, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads((root / "results" / "results.json").read_text()), done.stdout


def run_all(autograder, base, submissions):
    """run_autograder on each {name: files}, two at a time (one per core)."""
    with ThreadPoolExecutor(2) as pool:
        runs = {name: pool.submit(run_autograder, autograder, base / name, files) for name, files in submissions.items()}
        return {name: run.result() for name, run in runs.items()}


@pytest.fixture(scope="module")
def demo(course, autograder, roots, tmp_path_factory):
    """The chosen demo students, graded by run_autograder and by ``python -m grader autograde``."""
    folder = tmp_path_factory.mktemp("class")
    make_class(folder / "class")
    uploads = {}
    for student in STUDENTS:
        files = {p.name: p.read_text() for p in sorted((folder / "class" / student).glob("*.ipynb"))}
        if student in RENAMED and RENAMED[student][0] in files:
            files[RENAMED[student][1]] = files.pop(RENAMED[student][0])
        uploads[student] = files
        target = course / "submitted" / student / ASSIGNMENT
        target.mkdir(parents=True)
        for path in (folder / "class" / student).glob("*.ipynb"):
            shutil.copy(path, target)
    graded = autograde(course, "--force")
    assert graded.returncode == 0, graded.stderr[-3000:]
    return run_all(autograder, roots / "demo", uploads)


@pytest.fixture(scope="module")
def attacks(course, autograder, roots):
    base = roots / "attacks"
    uploads = {}
    for name, answer in ATTACK_RUNS.items():
        root, kit = base / name, base / name / "source" / "kit"
        answer = answer.format(root=root, kit=kit) if name == "gradescope_spy" else \
            answer.replace("{course}", str(kit)).replace("{kit}", str(kit))
        uploads[name] = {"01_attention_basics.ipynb": nbformat.writes(submission(course, {"attention_scores": answer}))}
    return run_all(autograder, base, uploads)


def scored(results):
    return {t["name"]: t["score"] for t in results["tests"] if "score" in t}


def test_the_zip_follows_gradescopes_layout(autograder):
    with zipfile.ZipFile(autograder) as archive:
        names = archive.namelist()
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        setup = archive.read("setup.sh").decode()
    assert {"setup.sh", "run_autograder"} <= set(names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert "kit/gradebook.db" in names and "kit/nbgrader_config.py" in names
    assert not [n for n in names if "__pycache__" in n or n.startswith(("kit/submitted", "kit/autograded"))]
    assert "python3.11" in setup and "--index-url https://download.pytorch.org/whl/cpu" in setup


def test_results_json_has_gradescopes_fields(demo):
    for student, (results, _) in demo.items():
        assert set(results) <= SPEC_TOP and results["visibility"] in VISIBILITY
        assert isinstance(results["score"], float) and isinstance(results["execution_time"], int)
        assert results["stdout_visibility"] == "hidden"
        for test in results["tests"]:
            assert set(test) <= SPEC_TEST, test
            assert isinstance(test["name"], str) and isinstance(test["number"], str)
            assert isinstance(test["output"], str) and test["visibility"] in VISIBILITY
            assert ("score" in test and 0 <= test["score"] <= test["max_score"]) or test["status"] in ("passed", "failed")
        assert results["score"] == sum(scored(results).values())


def test_every_score_equals_the_gradebooks(course, demo):
    book = {}
    for row in cell_scores(Course.at(course)):
        name = f"{exercise_of_grade_id(row.grade_id) or row.grade_id} ({row.notebook}.ipynb)"
        book.setdefault(row.student, {})[name] = row.score
    for student, (results, _) in demo.items():
        got = scored(results)
        assert len(got) == 23  # every graded cell of the five notebooks, handed in or not
        expected = {name: book.get(student, {}).get(name, 0.0) for name in got}
        assert got == expected, student


def _no_hidden_source(runs):
    secrets = hidden_test_lines()
    for results, _ in runs.values():
        text = json.dumps(results)
        assert not [line for line in secrets if line in text]
        assert {t["visibility"] for t in results["tests"] if "score" in t} == {"after_published"}
        assert {t["visibility"] for t in results["tests"] if "score" not in t} == {"visible"}


def test_hidden_checks_wait_for_publication_and_never_show_their_source(demo):
    _no_hidden_source(demo)


def test_students_read_what_went_wrong(demo):
    carmen, jonas, rosa, freya, nadia = (demo[s][0] for s in STUDENTS)
    assert "ran out of time" in json.dumps(carmen["tests"])
    assert "Likely mistake:" in json.dumps(carmen["tests"])
    assert "attention_scores_test" in jonas["output"] and "was deleted" in jonas["output"]
    assert "04_causal_self_attention.ipynb" in rosa["output"] and "could not be read" in rosa["output"]
    assert "Graded work/02_self_attention_step_by_step (1).ipynb as 02_self_attention_step_by_step.ipynb" \
        in freya["output"]
    assert "No notebook 05_multi_head_attention.ipynb was found" in freya["output"]
    assert nadia["score"] == 0 and nadia["output"].count("No notebook") == 5


def test_instructors_see_each_notebooks_status_and_isolation(demo):
    results, stdout = demo["rosa"]
    notebooks = results["extra_data"]["notebooks"]
    assert notebooks["04_causal_self_attention.ipynb"]["status"] == "invalid"
    assert "04_causal_self_attention.ipynb: invalid" in stdout
    assert all(n["isolation"].startswith("root") for name, n in notebooks.items() if n["status"] == "graded")


@pytest.mark.parametrize("attack", ATTACK_RUNS)
def test_attacks_score_nothing_through_run_autograder(attacks, attack):
    results, _ = attacks[attack]
    score = scored(results)["attention_scores (01_attention_basics.ipynb)"]
    assert score == (3 if attack == "spy" else 0)  # spy passes only if the walls hold
    others = {name: s for name, s in scored(results).items()
              if name.endswith("(01_attention_basics.ipynb)") and not name.startswith("attention_scores ")}
    assert sum(others.values()) == 21, others
    assert "secret" not in json.dumps(results)
    status = ATTACKS.get(attack, ("", "graded"))[1]
    if status != "graded":
        assert {"memory": "memory", "crashed": "crash", "timeout": "time", "malformed": "tampered"}[status] in \
            json.dumps(results["tests"])


def test_attacks_leave_no_hidden_source_in_results(attacks):
    _no_hidden_source(attacks)
