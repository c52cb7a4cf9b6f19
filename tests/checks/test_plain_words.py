"""A glossary check: the kit's internal words never reach what students and instructors read.

Identifiers in code keep their names (a case's ``probe``, the status ``undefined``); only the words
people read are checked: the checks' titles, case labels, messages and likely mistakes, the notes
under a failed exercise, the statuses' reasons, the feedback page and the self-check's output.
"""

import ast
import re
import textwrap

import nbformat
import pytest

from grader.autograde.jobs import judge_exercise
from grader.checks.cases import CouldNotCheck, Mismatch, Part, PartResult
from grader.checks.misconceptions import MISCONCEPTIONS
from grader.checks.registry import exercise_names, visible_parts
from grader.checks.running import UNREADABLE, plan
from grader.checks.scoring import BATCH_FIX, gate_note
from grader.hidden import hidden_parts
from grader.records import ExerciseRecord, NotebookRecord, PartRecord
from grader.records.statuses import STATUSES
from grader.tutor.page import exercise_text, notebook_notes

from ..conftest import EXERCISES, ROOT, SOLUTIONS
from ..selfcheck.test_selfcheck import self_check

INTERNAL = re.compile(r"\b(fixtures?|undefined|kernels?|probes?|units?|malformed|gates?)\b", re.I)
# Modules whose string constants become the checks' messages, built as the checks run.
MESSAGES = [
    "grader/checks",
    "grader/exercises",
    "grader/hidden",
    "grader/feedback",
    "grader/selfcheck",
    "grader/records",
]


def internal(texts):
    """The texts that use an internal word."""
    return [text for text in texts if INTERNAL.search(str(text))]


def test_the_checks_titles_labels_mistakes_and_notes_are_plain():
    texts = [
        *(m.explanation for m in MISCONCEPTIONS.values()),
        *(m.title for m in MISCONCEPTIONS.values()),
        BATCH_FIX,
        UNREADABLE["reason"],
        CouldNotCheck("AttributeError", "no such thing").what,
    ]
    for name in exercise_names():
        for part, cases in plan(visible_parts(name) + hidden_parts(name)):
            texts += [part.title, *(case.label for case in cases)]
    gate, other = Part("random inputs", 1, list, gate=True), Part("the notebook's example", 1, list)
    for fixed in (False, True):
        texts.append(gate_note([PartResult(gate, Mismatch("wrong values"), "a case", fixed), PartResult(other, None)]))
    assert all(texts[-2:])
    assert internal(texts) == []


def test_the_reasons_given_for_a_score_that_is_not_real_are_plain():
    texts = [
        word
        for status in STATUSES.values()
        for word in (status.csv, status.to_do, status.exercise, status.notebook, status.happened)
        if word
    ]
    units = {"kind": "kit", "exercise": "attention_scores"}
    for status in ["undefined", "crashed", "timeout", "memory", "not_run", "anything else"]:
        texts.append(judge_exercise({"units": [units]}, [{"status": status}], 0)[1])
    assert internal(texts) == []


def _is_code(text):
    """Python source, as a wrong answer's code or the lines it changes are (grader/exercises/), not a message."""
    try:
        ast.parse(textwrap.dedent(text))
    except SyntaxError:
        return False
    return True


def string_constants(path):
    """The string constants of a module that are sentences (not docstrings, not one-word identifiers, not code)."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and " " in node.value.strip()
        and not _is_code(node.value)
    ]


@pytest.mark.parametrize("folder", MESSAGES)
def test_the_messages_written_in_the_kits_code_are_plain(folder):
    found = {str(path): internal(string_constants(path)) for path in sorted((ROOT / folder).glob("*.py"))}
    assert {path: texts for path, texts in found.items() if texts} == {}


def test_the_feedback_page_is_plain():
    part = PartRecord("random inputs", 1, 0, True, "random scores (4, 4)", "wrong values", "softmax_dim0")
    texts = [
        exercise_text(ExerciseRecord("attention_scores", 0, 3, status, words.exercise, [part]))
        for status, words in STATUSES.items()
        if words.exercise or status == "graded"
    ]
    texts += [
        notebook_notes(
            NotebookRecord(
                "s", "a", "n.ipynb", status, words.notebook, tampered=[{"grade_id": "x_test", "change": "edited"}]
            )
        )
        for status, words in STATUSES.items()
        if words.notebook or status == "graded"
    ]
    assert internal(texts) == []
    assert "(undefined)" not in " ".join(texts) and "No points: the exercise did not exist" in " ".join(texts)


@pytest.mark.slow
def test_the_self_checks_output_is_plain(tmp_path):
    from grader.demo.fill import fill, reference_answers

    answers = reference_answers(nbformat.read(SOLUTIONS / "02_self_attention_step_by_step.ipynb", as_version=4))
    answers["attention_weights"] = answers["attention_weights"].replace("dim=-1", "dim=0")
    nbformat.write(
        fill(nbformat.read(EXERCISES / "02_self_attention_step_by_step.ipynb", as_version=4), answers),
        tmp_path / "02.ipynb",
    )
    outputs = [self_check(EXERCISES / "01_attention_basics.ipynb").stdout, self_check(tmp_path / "02.ipynb").stdout]
    said = [line for out in outputs for line in out.splitlines() if not line.startswith(("platform ", "rootdir"))]
    assert internal(said) == []


def test_the_glossary_catches_what_it_should():
    said = ["on the fixture's scores", "crashed the kernel", "Not graded (undefined)", "a probe's outcome"]
    assert internal(said + ["the notebook's example", "undefinedness", "probed"]) == said
    assert all(list((ROOT / folder).glob("*.py")) for folder in MESSAGES)  # the scan above is not of empty folders
    assert "the notebook's example scores" in string_constants(ROOT / "grader" / "exercises" / "step_by_step.py")


@pytest.mark.parametrize(
    "path",
    [*sorted(SOLUTIONS.glob("*.ipynb")), *sorted(EXERCISES.glob("*.ipynb"))],
    ids=lambda p: f"{p.parent.parent.name}/{p.name}",
)
def test_the_notebooks_are_plain(path):
    """The notebooks' own words (Markdown, given code and its comments) reach every feedback page of theirs."""
    found = [
        f"cell {n}: {match.group(0)!r} in {cell.source[max(0, match.start() - 40) : match.end() + 40]!r}"
        for n, cell in enumerate(nbformat.read(path, as_version=4).cells)
        for match in INTERNAL.finditer(cell.source)
    ]
    assert found == []
