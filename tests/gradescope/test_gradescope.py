"""The Gradescope autograder, run here as Gradescope would run it (under a temporary /autograder), on
notebooks of the demo class: every score must equal the one ``python -m grader autograde`` puts in the
gradebook for the same notebooks, and nothing in results.json may show a hidden check's source.

The zip is built from a released course; its run_autograder runs with the kit's installed environment
(setup.sh cannot run here). The attacks go through it in test_gradescope_attacks.py.
"""

import json
import shutil
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest

from grader.checks.registry import exercise_of_grade_id
from grader.course import Course
from grader.course.gradebook import read_scores
from grader.demo.generate import make_class

from ..course_builder import ASSIGNMENT, BASICS, autograde
from .container import no_hidden_source, run_all, scored

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

STEPS, CAUSAL, HEADS = (
    "02_self_attention_step_by_step.ipynb",
    "04_causal_self_attention.ipynb",
    "05_multi_head_attention.ipynb",
)
RENAMED = "work/02_self_attention_step_by_step (1).ipynb"
# What each student uploads: {path in the upload: (demo student, their notebook)}. The grader grades each notebook
# on its own, so "mixed" hands in, at once, the demo's cases that one student never has together: a deleted test
# cell (jonas), a tutor's likely mistake in a renamed notebook in a folder (diego), an invalid notebook (rosa), a
# timeout (carmen), a missing notebook (03). nadia hands in nothing at all.
UPLOADS = {
    "mixed": {BASICS: ("jonas", BASICS), RENAMED: ("diego", STEPS), CAUSAL: ("rosa", CAUSAL), HEADS: ("carmen", HEADS)},
    "nadia": {},
}
SPEC_TOP = {
    "score",
    "execution_time",
    "output",
    "output_format",
    "test_output_format",
    "test_name_format",
    "visibility",
    "stdout_visibility",
    "extra_data",
    "tests",
    "leaderboard",
}
SPEC_TEST = {
    "score",
    "max_score",
    "status",
    "name",
    "name_format",
    "number",
    "output",
    "output_format",
    "tags",
    "visibility",
    "extra_data",
}
VISIBILITY = {"visible", "hidden", "after_due_date", "after_published"}


@pytest.fixture(scope="module")
def demo(course, autograder, roots, tmp_path_factory):
    """The ``UPLOADS``, graded by run_autograder and, each notebook under its own name, by ``python -m grader
    autograde`` meanwhile (nadia's run is over in seconds: the two gradings share the cores)."""
    demo_class = tmp_path_factory.mktemp("class") / "class"
    make_class(demo_class)
    uploads = {}
    for student, files in UPLOADS.items():
        uploads[student] = {
            path: (demo_class / owner / notebook).read_text() for path, (owner, notebook) in files.items()
        }
        target = course / "submitted" / student / ASSIGNMENT
        target.mkdir(parents=True)
        for owner, notebook in files.values():
            shutil.copy(demo_class / owner / notebook, target)
    with ThreadPoolExecutor(1) as pool:
        graded = pool.submit(autograde, course, "--force")
        runs = run_all(autograder, roots / "demo", uploads)
    assert graded.result().returncode == 0, graded.result().stderr[-3000:]
    return runs


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
    for results, _ in demo.values():
        assert set(results) <= SPEC_TOP and results["visibility"] in VISIBILITY
        assert isinstance(results["score"], float) and isinstance(results["execution_time"], int)
        assert results["stdout_visibility"] == "hidden"
        for test in results["tests"]:
            assert set(test) <= SPEC_TEST, test
            assert isinstance(test["name"], str) and isinstance(test["number"], str)
            assert isinstance(test["output"], str) and test["visibility"] in VISIBILITY
            assert ("score" in test and 0 <= test["score"] <= test["max_score"]) or test["status"] in (
                "passed",
                "failed",
            )
        assert results["score"] == sum(scored(results).values())


def test_every_score_equals_the_gradebooks(course, demo):
    book = {}
    for row in read_scores(Course.at(course)).cell_scores:
        name = f"{exercise_of_grade_id(row.grade_id) or row.grade_id} ({row.notebook}.ipynb)"
        book.setdefault(row.student, {})[name] = row.score
    for student, (results, _) in demo.items():
        got = scored(results)
        assert len(got) == 23  # every graded cell of the five notebooks, handed in or not
        expected = {name: book.get(student, {}).get(name, 0.0) for name in got}
        assert got == expected, student


def test_hidden_checks_wait_for_publication_and_never_show_their_source(demo):
    no_hidden_source(demo)


def test_students_read_what_went_wrong(demo):
    mixed, nadia = demo["mixed"][0], demo["nadia"][0]
    assert "ran out of time" in said_about(mixed, HEADS)
    assert "Likely mistake:" in said_about(mixed, STEPS)
    assert "attention_scores_test" in mixed["output"] and "was deleted" in mixed["output"]
    assert "04_causal_self_attention.ipynb" in mixed["output"] and "could not be read" in mixed["output"]
    assert f"Graded {RENAMED} as {STEPS}" in mixed["output"]
    assert "No notebook 03_attention_in_numpy.ipynb was found" in mixed["output"]
    assert nadia["score"] == 0 and nadia["output"].count("No notebook") == 5


def said_about(results, notebook):
    """The words of every scored test of ``notebook``."""
    return json.dumps([t["output"] for t in results["tests"] if "score" in t and t["name"].endswith(f"({notebook})")])


def test_instructors_see_each_notebooks_status_and_isolation(demo):
    results, stdout = demo["mixed"]
    notebooks = results["extra_data"]["notebooks"]
    assert notebooks["04_causal_self_attention.ipynb"]["status"] == "invalid"
    assert "04_causal_self_attention.ipynb: invalid" in stdout
    assert all(n["isolation"].startswith("root") for name, n in notebooks.items() if n["status"] == "graded")
