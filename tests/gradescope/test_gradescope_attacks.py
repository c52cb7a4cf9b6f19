"""The attacks through run_autograder, as Gradescope runs it: each scores nothing, and no hidden source shows.

run_autograder grades with the kit's own autograde, so every attack on the sandbox itself is tried in
tests/sandbox/test_sandbox_attacks.py (and at the unprivileged levels in test_isolation_levels.py). Here go,
in one submission, the attacks on what only Gradescope's container holds (its results file, the submission's
metadata, the kit's copy with its hidden checks, references and gradebook, the user it runs as, its
environment) in notebook 01 and, one in each other notebook, an attack for each outcome the sandbox reports
(memory, crash, timeout, tampering), to see each reach its exercise's words in results.json; then an upload that
is links, a hard link and a zip bomb beside one real notebook (test_upload_files.py tries each on its own,
without grading).
"""

import json
import os
import zipfile

import nbformat
import pytest

from grader.course import Course
from grader.demo.fill import reference_answers

from ..course_builder import ASSIGNMENT, BASICS, submission
from ..sandbox.attacks import ATTACKS, RIGHT, WRONG
from .container import no_hidden_source, run_all

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

# Everything only Gradescope's container holds, tried at once: the answer is right only if one of them leaks
# (a file read or written, the kit's references imported, root, the grader's environment, the network). The sandbox
# covers a hidden file with /dev/null: a write there goes nowhere, and counts only if it can be read back.
CONTAINER_SPY = (
    "import os, pathlib, socket\nleaks = []\n"
    "for path in ['{root}/results/results.json', '{root}/submission_metadata.json', "
    "'{kit}/grader/exercises/basics.py',\n"
    "             '{kit}/grader/reference/basics.py', '{kit}/solutions/self_attention/01_attention_basics.ipynb',\n"
    "             '{kit}/gradebook.db']:\n"
    "    try:\n        leaks += ['read ' + path] if pathlib.Path(path).read_bytes() else []\n"
    "    except OSError:\n        pass\n"
    "for path in ['{root}/results/results.json', '{kit}/gradebook.db',\n"
    "             '{kit}/grading/self_attention/submission/01_attention_basics.json']:\n"
    "    try:\n        pathlib.Path(path).write_bytes(b'garbage')\n    except OSError:\n        continue\n"
    "    try:\n        kept = pathlib.Path(path).read_bytes() != b''\n    except OSError:\n        kept = True\n"
    "    leaks += ['wrote ' + path] if kept else []\n"
    "try:\n    from grader.reference import of\n    leaks.append('imported grader.reference')\n"
    "except Exception:\n    pass\n"
    "leaks += ['root'] if os.getuid() == 0 else []\n"
    "leaks += [k for k in os.environ if 'NBGRADER' in k or 'JPY' in k]\n"
    "try:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n    leaks.append('network')\n"
    "except OSError:\n    pass\n"
    "print('leaks:', leaks)\n"
    "if leaks:\n"
    + "".join("    " + line + "\n" for line in RIGHT.splitlines())
    + "else:\n"
    + "".join("    " + line + "\n" for line in WRONG.splitlines())
)
STEPS, NUMPY, CAUSAL, HEADS = (
    "02_self_attention_step_by_step.ipynb",
    "03_attention_in_numpy.ipynb",
    "04_causal_self_attention.ipynb",
    "05_multi_head_attention.ipynb",
)
SOLUTIONS = "source/kit/solutions/self_attention"  # in the container, under its root
ONE_OF_EACH_OUTCOME = {"memory": "memorybomb", "crashed": "exiter", "timeout": "loopcall", "malformed": "pipe"}
# Where each attack goes in the one submission: {attack: (notebook, the exercise it answers)}. The grader grades each
# notebook on its own, and no other exercise uses these, so the rest of each notebook must score in full.
AIMED = {
    "container_spy": (BASICS, "attention_scores"),
    "exiter": (STEPS, "weighted_values"),
    "memorybomb": (NUMPY, "qkv"),
    "loopcall": (CAUSAL, "causal_average_matmul"),
    "pipe": (HEADS, "MultiHeadAttention"),
}
TOLD = {
    "memory": "ran out of memory",
    "crashed": "crashed",
    "timeout": "ran out of time",
    "malformed": "tampered with the grader",
}


@pytest.fixture(scope="module")
def attacks(course, autograder, roots):
    """The attacks in one submission, and the upload of links in another, through run_autograder."""
    base = roots / "attacks"
    root = base / "attacks"
    spy = CONTAINER_SPY.format(root=root, kit=root / "source" / "kit")
    notebooks = {
        notebook: nbformat.writes(
            submission(course, {exercise: spy if name == "container_spy" else aimed(course, name)}, notebook=notebook)
        )
        for name, (notebook, exercise) in AIMED.items()
    }
    return run_all(autograder, base, {"attacks": notebooks, "upload_links": upload_links(course)})


def aimed(course, attack):
    """The suite's attack (an answer to notebook 01's attention_scores) as an answer to its ``AIMED`` exercise: code
    run before attention_scores' right answer comes before that exercise's right answer; a hostile attention_scores
    becomes that exercise's function, the same body under its name and parameters."""
    answer = ATTACKS[attack][0]
    notebook, exercise = AIMED[attack]
    right = reference_answers(nbformat.read(course / "solutions" / ASSIGNMENT / notebook, as_version=4))[exercise]
    if answer.endswith(RIGHT):
        return answer.removesuffix(RIGHT) + right
    hostile = "def attention_scores(queries, keys):"
    assert hostile in answer, attack
    return answer.replace(hostile, next(line for line in right.splitlines() if line.startswith("def ")))


def upload_links(course):
    """Every notebook but 04 is something other than the student's own file: a link to the solutions or a hard
    link (24 and 21 points before uploads were read as data), /etc/passwd, a linked folder, a zip bomb."""
    bomb = nbformat.writes(submission(course, notebook=HEADS)) + " " * (8 << 20)  # 8 MB of spaces compress to 8 kB
    return {
        BASICS: _link(f"{SOLUTIONS}/{BASICS}"),
        STEPS: _hard_link(f"{SOLUTIONS}/{STEPS}"),
        NUMPY: _link("/etc/passwd"),
        "linked": _link(SOLUTIONS),
        "copy": _link("submission/mine"),
        f"mine/{CAUSAL}": nbformat.writes(submission(course, notebook=CAUSAL)),
        "hw.zip": _zip({HEADS: bomb}),
    }


def _link(target):
    return lambda path, root: path.symlink_to(root / target)


def _hard_link(target):
    return lambda path, root: os.link(root / target, path)


def _zip(files):
    def write(path, root):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, text in files.items():
                archive.writestr(name, text)

    return write


def test_every_outcome_the_sandbox_reports_is_tried():
    assert {ATTACKS[name][1] for name in ONE_OF_EACH_OUTCOME.values()} == set(ONE_OF_EACH_OUTCOME)
    assert {status for _, status in ATTACKS.values()} == {"graded", *ONE_OF_EACH_OUTCOME}


@pytest.mark.parametrize("attack", AIMED)
def test_attacks_score_nothing_through_run_autograder(course, attacks, attack):
    results, _ = attacks["attacks"]
    notebook, exercise = AIMED[attack]
    tests = {
        t["name"].removesuffix(f" ({notebook})"): t
        for t in results["tests"]
        if "score" in t and t["name"].endswith(f" ({notebook})")
    }
    assert tests[exercise]["score"] == 0
    others = {name: t["score"] for name, t in tests.items() if name != exercise}
    assert others == {
        name: points for name, points in Course.at(course).released_exercises()[notebook] if name != exercise
    }  # the rest of the notebook in full
    assert "secret" not in json.dumps(results)
    status = ATTACKS.get(attack, ("", "graded"))[1]
    if status != "graded":
        assert TOLD[status] in tests[exercise]["output"]


def test_attacks_leave_no_hidden_source_in_results(attacks):
    no_hidden_source(attacks)


def test_an_upload_is_data_never_paths(attacks):
    """Links, a hard link and a zip bomb score 0 for what they point at, each with a sentence for the student;
    the one real notebook is graded."""
    results, _ = attacks["upload_links"]
    earned, possible = {}, {}
    for test in results["tests"]:
        if "score" in test:
            notebook = test["name"].rsplit("(", 1)[1].rstrip(")")
            earned[notebook] = earned.get(notebook, 0) + test["score"]
            possible[notebook] = possible.get(notebook, 0) + test["max_score"]
    assert earned == {BASICS: 0, STEPS: 0, NUMPY: 0, CAUSAL: possible[CAUSAL], HEADS: 0}
    said = results["output"]
    for shown in (BASICS, NUMPY, "linked", "copy"):
        assert f"{shown} is a link to another file or folder, not a file you wrote: it was not graded." in said
    assert f"{STEPS} is a second name for another file (a hard link)" in said
    assert f"hw.zip/{HEADS} is compressed far more than a notebook can be" in said
    assert "root:x:0:0" not in json.dumps(results)
