"""The demo class: made deterministically, and holding every case the grader must handle."""

import collections
import json

import nbformat
import pytest
import torch

from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import notebooks
from grader.demo import generate
from grader.demo.generate import make_class
from grader.records.statuses import STATUSES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    return (first, make_class(first, seed=0)), (second, make_class(second, seed=0))


def test_the_class_is_computed_on_one_pytorch_thread_and_the_setting_is_restored(tmp_path, monkeypatch):
    """A second thread would cost CPU and stop the demo's autograde from forking its grading processes."""
    seen = []
    monkeypatch.setattr(generate, "_make_class", lambda *arguments: seen.append(torch.get_num_threads()))
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        make_class(tmp_path / "class")
        assert seen == [1] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def folder(runs):
    return runs[0][0]


@pytest.fixture(scope="module")
def plan(runs):
    return runs[0][1]


def files(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def answers(plan, status="graded"):
    """(student, notebook, exercise, answer label) for every answer in a notebook of that status."""
    return [
        (s, nb, name, label)
        for s, c in plan.composition.items()
        for nb, sub in c["notebooks"].items()
        for name, label in sub["answers"].items()
        if plan.expected[s, nb]["status"] == status
    ]


def test_the_generator_is_deterministic(runs):
    (first, plan_1), (second, plan_2) = runs
    assert files(first) == files(second)
    assert plan_1.to_json() == plan_2.to_json()


def test_the_plan_is_json_and_covers_every_student_and_notebook(plan):
    data = json.loads(plan.to_json())
    assert len(plan.students) >= 30
    assert set(plan.expected) == {(s, nb) for s in plan.students for nb in notebooks()}
    for (student, nb), entry in plan.expected.items():
        assert data["expected"][student][nb] == entry
        assert entry["status"] in STATUSES
        assert all(e["status"] in STATUSES for e in entry["exercises"].values())


def test_submissions_are_release_notebooks_in_one_folder_per_student(plan, folder):
    submitted = {(s, nb) for s, c in plan.composition.items() for nb in c["notebooks"]}
    assert {nb for _, nb in submitted} == set(notebooks())
    assert {(p.parent.name, p.name) for p in folder.glob("*/*.ipynb")} == submitted
    assert {p.parent.name for p in folder.glob("*/timestamp.txt")} == set(plan.submitted_at)


def test_full_marks_for_the_correct_and_zero_for_untouched_stubs(plan):
    profiles = {s: c["profile"] for s, c in plan.composition.items()}
    assert collections.Counter(profiles.values())["full"] >= 2
    for (student, _), entry in plan.expected.items():
        exercises = entry["exercises"].values()
        if profiles[student] == "full":
            assert all(e["score"] == e["max_score"] > 0 and e["status"] == "graded" for e in exercises)
        if profiles[student] == "stubs":
            assert all(e["score"] == 0 and e["status"] == "graded" for e in exercises)


def test_most_students_are_partly_correct(plan):
    def partly(student):
        scores = [
            (e["score"], e["max_score"]) for nb in notebooks() for e in plan.expected[student, nb]["exercises"].values()
        ]
        return 0 < sum(s for s, _ in scores) < sum(m for _, m in scores)

    assert sum(map(partly, plan.students)) > len(plan.students) / 2


def test_every_misconception_is_made_and_diagnosed_in_two_students(plan):
    students = collections.defaultdict(set)
    for student, nb, name, label in answers(plan):
        key = label.removeprefix("mistake:")
        if key in plan.expected[student, nb]["exercises"][name]["misconceptions"]:
            students[key].add(student)
    assert all(len(students[key]) >= 2 for key in MISCONCEPTIONS), dict(students)
    assert len({s for s, _, _, label in answers(plan) if label == "hardcoded"}) >= 2


def test_every_broken_kind_is_present_with_its_expected_status(plan):
    statuses = {(s, nb, name): plan.expected[s, nb]["exercises"][name]["status"] for s, nb, name, _ in answers(plan)}
    kinds = {
        label: statuses[s, nb, name]
        for s, nb, name, label in answers(plan)
        if label in ("loop_definition", "loop_call", "crash_call", "undefined")
    }
    assert kinds == {
        "loop_definition": "timeout",
        "loop_call": "timeout",
        "crash_call": "crashed",
        "undefined": "undefined",
    }
    changes = [t["change"] for entry in plan.expected.values() for t in entry["tampered"]]
    assert sorted(changes) == ["deleted", "edited"]
    invalid = [key for key, entry in plan.expected.items() if entry["status"] == "invalid"]
    assert invalid and all(
        e["score"] == 0 and e["status"] == "ungraded"
        for key in invalid
        for e in plan.expected[key]["exercises"].values()
    )


def test_broken_files_are_broken(plan, folder):
    for (student, nb), entry in plan.expected.items():
        path = folder / student / nb
        if entry["status"] == "invalid":
            with pytest.raises((ValueError, nbformat.ValidationError)):
                nbformat.read(str(path), as_version=4)
        for tampered in entry["tampered"]:
            ids = {
                c.metadata.get("nbgrader", {}).get("grade_id"): c.source
                for c in nbformat.read(str(path), as_version=4).cells
            }
            if tampered["change"] == "deleted":
                assert tampered["grade_id"] not in ids
            else:
                assert "grade.result()" not in ids[tampered["grade_id"]]
    text = "".join(p.read_text() for p in folder.glob("*/*.ipynb"))
    assert "while True" in text and "os._exit(1)" in text


def test_late_and_missing_submissions(plan, folder):
    assert plan.late and all(plan.submitted_at[s] > plan.due for s in plan.late)
    assert set(plan.submitted_at) - set(plan.late)
    assert any(len(nbs) == len(notebooks()) for nbs in plan.missing.values())
    assert any(len(nbs) < len(notebooks()) for nbs in plan.missing.values())
    for student, missing in plan.missing.items():
        for nb in missing:
            assert plan.expected[student, nb]["status"] == "missing"
            assert not (folder / student / nb).exists()
