"""The attacks through run_autograder, as Gradescope runs it: each scores nothing, and no hidden source shows.

run_autograder grades with the kit's own autograde, so every attack on the sandbox itself is tried in
tests/sandbox/test_sandbox_attacks.py (and at the unprivileged levels in test_isolation_levels.py). Here go
the attacks on what only Gradescope's container holds (its results file, the submission's metadata, the
kit's copy with its references and gradebook inside it), and one attack for each outcome the sandbox
reports (memory, crash, timeout, tampering), to see each reach results.json in words.
"""
import json

import nbformat
import pytest

from ..course_builder import submission
from ..sandbox.attacks import ATTACKS, RIGHT, WRONG
from .container import no_hidden_source, run_all, scored

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

# An attack that goes for what only Gradescope's container holds.
GRADESCOPE_SPY = ("import pathlib\nstolen = False\nfor path in ['{root}/results/results.json', '{root}/submission_metadata.json',"
                  " '{kit}/grader/hidden/basics.py', '{kit}/solutions/self_attention/01_attention_basics.ipynb',"
                  " '{kit}/gradebook.db']:\n    try:\n        stolen |= bool(pathlib.Path(path).read_bytes())\n"
                  "    except OSError:\n        pass\ntry:\n    pathlib.Path('{root}/results/results.json').write_text('{{}}')\n"
                  "    stolen = True\nexcept OSError:\n    pass\n"
                  "if stolen:\n" + "".join("    " + line + "\n" for line in RIGHT.splitlines()) +
                  "else:\n" + "".join("    " + line + "\n" for line in WRONG.splitlines()))
ON_THE_CONTAINER = ("reader", "importer", "writer", "spy")  # the kit's copy, its references and gradebook; the user
ONE_OF_EACH_OUTCOME = {"memory": "memorybomb", "crashed": "exiter", "timeout": "loopcall", "malformed": "pipe"}
ATTACK_RUNS = {**{name: ATTACKS[name][0] for name in (*ON_THE_CONTAINER, *ONE_OF_EACH_OUTCOME.values())},
               "gradescope_spy": GRADESCOPE_SPY}


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


def test_every_outcome_the_sandbox_reports_is_tried():
    assert {ATTACKS[name][1] for name in ONE_OF_EACH_OUTCOME.values()} == set(ONE_OF_EACH_OUTCOME)
    assert {status for _, status in ATTACKS.values()} == {"graded", *ONE_OF_EACH_OUTCOME}


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
    no_hidden_source(attacks)
