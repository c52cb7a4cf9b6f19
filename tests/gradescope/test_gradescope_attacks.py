"""The attacks through run_autograder, as Gradescope runs it: each scores nothing, and no hidden source shows.

run_autograder grades with the kit's own autograde, so every attack on the sandbox itself is tried in
tests/sandbox/test_sandbox_attacks.py (and at the unprivileged levels in test_isolation_levels.py). Here go,
in one submission, the attacks on what only Gradescope's container holds (its results file, the submission's
metadata, the kit's copy with its hidden checks, references and gradebook, the user it runs as, its
environment), and one attack for each outcome the sandbox reports (memory, crash, timeout, tampering), to
see each reach results.json in words.
"""
import json

import nbformat
import pytest

from ..course_builder import submission
from ..sandbox.attacks import ATTACKS, RIGHT, WRONG
from .container import no_hidden_source, run_all, scored

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

# Everything only Gradescope's container holds, tried at once: the answer is right only if one of them leaks
# (a file read or written, the kit's references imported, root, the grader's environment, the network).
CONTAINER_SPY = (
    "import os, pathlib, socket\nleaks = []\n"
    "for path in ['{root}/results/results.json', '{root}/submission_metadata.json', '{kit}/grader/hidden/basics.py',\n"
    "             '{kit}/grader/reference/basics.py', '{kit}/solutions/self_attention/01_attention_basics.ipynb',\n"
    "             '{kit}/gradebook.db']:\n"
    "    try:\n        leaks += ['read ' + path] if pathlib.Path(path).read_bytes() else []\n"
    "    except OSError:\n        pass\n"
    "for path in ['{root}/results/results.json', '{kit}/gradebook.db',\n"
    "             '{kit}/grading/self_attention/submission/01_attention_basics.json']:\n"
    "    try:\n        pathlib.Path(path).write_bytes(b'garbage')\n        leaks.append('wrote ' + path)\n"
    "    except OSError:\n        pass\n"
    "try:\n    from grader.reference import of\n    leaks.append('imported grader.reference')\n"
    "except Exception:\n    pass\n"
    "leaks += ['root'] if os.getuid() == 0 else []\n"
    "leaks += [k for k in os.environ if 'NBGRADER' in k or 'JPY' in k]\n"
    "try:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n    leaks.append('network')\n"
    "except OSError:\n    pass\n"
    "print('leaks:', leaks)\n"
    "if leaks:\n" + "".join("    " + line + "\n" for line in RIGHT.splitlines()) +
    "else:\n" + "".join("    " + line + "\n" for line in WRONG.splitlines()))
ONE_OF_EACH_OUTCOME = {"memory": "memorybomb", "crashed": "exiter", "timeout": "loopcall", "malformed": "pipe"}
ATTACK_RUNS = {"container_spy": CONTAINER_SPY, **{name: ATTACKS[name][0] for name in ONE_OF_EACH_OUTCOME.values()}}


@pytest.fixture(scope="module")
def attacks(course, autograder, roots):
    base = roots / "attacks"
    uploads = {}
    for name, answer in ATTACK_RUNS.items():
        root, kit = base / name, base / name / "source" / "kit"
        answer = answer.format(root=root, kit=kit) if name == "container_spy" else answer
        uploads[name] = {"01_attention_basics.ipynb": nbformat.writes(submission(course, {"attention_scores": answer}))}
    return run_all(autograder, base, uploads)


def test_every_outcome_the_sandbox_reports_is_tried():
    assert {ATTACKS[name][1] for name in ONE_OF_EACH_OUTCOME.values()} == set(ONE_OF_EACH_OUTCOME)
    assert {status for _, status in ATTACKS.values()} == {"graded", *ONE_OF_EACH_OUTCOME}


@pytest.mark.parametrize("attack", ATTACK_RUNS)
def test_attacks_score_nothing_through_run_autograder(attacks, attack):
    results, _ = attacks[attack]
    score = scored(results)["attention_scores (01_attention_basics.ipynb)"]
    assert score == 0
    others = {name: s for name, s in scored(results).items()
              if name.endswith("(01_attention_basics.ipynb)") and not name.startswith("attention_scores ")}
    assert sum(others.values()) == 21, others
    assert "secret" not in json.dumps(results)
    status = ATTACKS.get(attack, ("", "graded"))[1]
    if status != "graded":
        assert {"memory": "memory", "crashed": "crash", "timeout": "time", "malformed": "tampered"}[status] in \
            json.dumps(results["tests"])


def test_attacks_leave_no_hidden_source_in_results(attacks):
    no_hidden_source(attacks)
