"""Hostile submissions: each attack scores zero with a clear status, and nobody else's grade moves.

One course is graded once with ``python -m grader autograde``; every student but 'good' and
'stubs' carries one attack in the answer to ``attention_scores`` (3 points of notebook 01's 24).
"""
import copy
import sqlite3

import psutil
import pytest

from grader.boundary import KIT_ROOT as KIT
from grader.records import read_all
from grader.course import Course

from ..course_builder import (ASSIGNMENT, autograde, exercise, make_course, records, submission, submit,
                             graded_cell)

pytestmark = pytest.mark.slow  # and sandbox_alone (tests/conftest.py)

WRONG = "def attention_scores(queries, keys):\n    return queries @ keys\n"
RIGHT = "def attention_scores(queries, keys):\n    return queries @ keys.transpose(-2, -1)\n"

ATTACKS = {  # student: (answer to attention_scores, expected status of attention_scores)
    "memorybomb": ("import torch\nhog = torch.ones(2 * 2**30 // 4)\nhog += 1\n" + RIGHT, "memory"),
    "forker": ("import os, time\nif os.fork() == 0:\n    while True:\n        time.sleep(0.2)\n" + WRONG, "graded"),
    "loopdef": ("while True:\n    pass\n" + RIGHT, "timeout"),
    "loopcall": ("def attention_scores(queries, keys):\n    while True:\n        pass\n", "timeout"),
    "stubborn": ("import signal\ndef attention_scores(queries, keys):\n"
                 "    for s in (signal.SIGINT, signal.SIGALRM, signal.SIGTERM):\n"
                 "        signal.signal(s, signal.SIG_IGN)\n"
                 "    while True:\n        try:\n            pass\n        except BaseException:\n            pass\n",
                 "timeout"),
    "exiter": ("import os\ndef attention_scores(queries, keys):\n    os._exit(3)\n", "crashed"),
    "recursor": ("import sys\nsys.setrecursionlimit(10**7)\ndef attention_scores(queries, keys):\n"
                 "    nested = []\n    for _ in range(300_000):\n        nested = [nested]\n    return repr(nested)\n",
                 "crashed"),
    "deepheap": ("import sys\nsys.setrecursionlimit(10**8)\ndef attention_scores(queries, keys):\n"
                 "    def down(n):\n        return down(n + 1) + 1\n    return down(0)\n", "memory"),
    "flooder": ("def attention_scores(queries, keys):\n    for _ in range(100):\n        print('x' * 1_000_000)\n"
                "    return queries @ keys\n", "graded"),
    "reader": ("import json, pathlib\nfor path in [pathlib.Path('{course}/solutions/self_attention/01_attention_basics.ipynb'),\n"
               "             pathlib.Path('{course}/../../main/grader/reference/basics.py')] + "
               "list(pathlib.Path('{kit}').glob('grader/reference/*.py')):\n"
               "    try:\n        exec(path.read_text() if path.suffix == '.py' else '')\n    except OSError:\n        pass\n"
               "if 'attention_scores' not in globals():\n" + "".join("    " + l + "\n" for l in WRONG.splitlines()),
               "graded"),
    "importer": ("try:\n    from grader.reference import of\n"
                 "    attention_scores = of('01_attention_basics.ipynb').attention_scores\nexcept Exception:\n"
                 + "".join("    " + l + "\n" for l in WRONG.splitlines()), "graded"),
    "writer": ("for path in ['{course}/gradebook.db', '{course}/grading/self_attention/good/01_attention_basics.json']:\n"
               "    try:\n        open(path, 'wb').write(b'garbage')\n    except OSError:\n        pass\n" + WRONG, "graded"),
    "patcher": ("import numpy, torch, builtins\ntorch.allclose = lambda *a, **k: True\n"
                "torch.equal = lambda *a, **k: True\nnumpy.allclose = lambda *a, **k: True\n"
                "numpy.array_equal = lambda *a, **k: True\nbuiltins.all = lambda *a, **k: True\n" + WRONG, "graded"),
    "ipython": ("try:\n    from IPython.core.interactiveshell import InteractiveShell\n"
                "    InteractiveShell.run_cell = lambda *a, **k: None\n    InteractiveShell.showtraceback = lambda *a, **k: None\n"
                "except Exception:\n    pass\n" + WRONG, "graded"),
    "forger": ("import numpy as np\nimport grader.checks.probes as probes\n"
               "probes.run_probe = lambda obj, probe, params: {'type': 'Tensor', 'dtype': 'float32', 'shape': [3, 3],"
               " 'values': np.array([[2, 4, 4], [4, 16, 12], [4, 12, 10]], dtype=np.float32), 'mutated': False,"
               " 'warnings': []}\n" + WRONG, "graded"),
    "spy": ("import os\nassert os.getuid() != 0\nassert not [k for k in os.environ if 'NBGRADER' in k or 'JPY' in k]\n"
            "import socket\ntry:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n    raise SystemExit\n"
            "except OSError:\n    pass\n" + RIGHT, "graded"),
}
# Attacks on the channel back to the grader and on the runner's secrets (the only open file is the channel).
CHANNEL = ("import os, json, struct\ndef _send(message):\n    data = json.dumps(message).encode()\n"
           "    for fd in range(3, 64):\n        try:\n            os.fstat(fd)\n        except OSError:\n"
           "            continue\n        os.write(fd, struct.pack('!Q', len(data)) + data)\n")
ATTACKS.update({
    "pipe": (CHANNEL + "_send([1, 2, 3])\n" + RIGHT, "malformed"),  # a message that is not an object
    "judge": (CHANNEL + "def attention_scores(queries, keys):\n    _send({'outcome': {'__tuple__': [1]}})\n"
                        "    os._exit(0)\n", "malformed"),  # an outcome that is not a mapping
    "flood": (CHANNEL + "for _ in range(200_000):\n    _send({'outputs': [], 'count': 1})\n" + RIGHT, "malformed"),
    "interrupt": ("def attention_scores(queries, keys):\n    raise KeyboardInterrupt\n", "graded"),
    "stackwalk": ("import sys, gc\ndef attention_scores(queries, keys):\n    seen = False\n"
                  "    frame = sys._getframe()\n    while frame is not None:\n"
                  "        seen |= bool({'job', 'spec', 'units', 'hide'} & set(frame.f_locals))\n"
                  "        frame = frame.f_back\n    for obj in gc.get_objects():\n"
                  "        if isinstance(obj, dict) and ({'units', 'limits'} <= obj.keys() or {'hide', 'limits'} <= obj.keys()\n"
                  "                                      or {'requests', 'exercise'} <= obj.keys()):\n"
                  "            seen = True\n"
                  "    return queries @ keys.transpose(-2, -1) if seen else queries @ keys\n", "graded"),
})
TAMPERING = {"deleted": "deleted", "edited": "edited", "duplicated": "duplicated", "relabelled": "relabelled"}


def tampered(course, change):
    nb = submission(course, {"attention_scores": WRONG})
    cell = graded_cell(nb, "attention_scores")
    if change == "deleted":
        nb.cells.remove(cell)
    elif change == "edited":
        cell.source = "grade = 3.0\nprint('all good')\n3.0"
    elif change == "duplicated":
        nb.cells.insert(nb.cells.index(cell), copy.deepcopy(cell))
    else:
        cell.metadata["nbgrader"]["grade"] = False
    return nb


@pytest.fixture(scope="module")
def graded(released_course, tmp_path_factory):
    course = make_course(released_course, tmp_path_factory.mktemp("attacks") / "course")
    submit(course, "good", submission(course))
    submit(course, "stubs", _release(course))
    for student, (answer, _) in ATTACKS.items():
        answer = answer.replace("{course}", str(course)).replace("{kit}", str(KIT))
        submit(course, student, submission(course, {"attention_scores": answer}))
    for student in TAMPERING:
        submit(course, student, tampered(course, student))
    submit(course, "broken", "{\"cells\": [")
    done = autograde(course)
    assert done.returncode == 0, done.stderr[-3000:]
    return course, done


def _release(course):
    import nbformat
    return nbformat.read(course / "exercises" / ASSIGNMENT / "01_attention_basics.ipynb", as_version=4)


def test_sound_submissions_keep_their_grades(graded):
    course, _ = graded
    found = records(course)
    assert found["good"].score == 24 and found["good"].status == "graded" and not found["good"].tampered
    assert found["stubs"].score == 0 and not found["stubs"].tampered
    assert all("not implemented yet" in p.message for e in found["stubs"].exercises for p in e.parts)


@pytest.mark.parametrize("student", ATTACKS)
def test_attack_scores_nothing_with_a_clear_status(graded, student):
    course, _ = graded
    entry = records(course)[student]
    target = exercise(entry, "attention_scores")
    status = ATTACKS[student][1]
    assert target.status == status, (target.status, target.reason)
    if student == "spy":  # the probe of the sandbox's walls passes only if they hold
        assert target.score == 3
    else:
        assert target.score == 0
        if status != "graded":
            assert status in target.reason or {"memory": "memory", "crashed": "crash", "timeout": "time",
                                               "malformed": "tampered"}[status] in target.reason
    others = [e for e in entry.exercises if e.name != "attention_scores"]
    assert all(e.score == e.max_score for e in others), [(e.name, e.status, e.reason) for e in others]


@pytest.mark.parametrize("student", TAMPERING)
def test_tampered_test_cell_is_graded_from_the_instructors_copy_and_reported(graded, student):
    course, _ = graded
    entry = records(course)[student]
    assert {"grade_id": "attention_scores_test", "change": TAMPERING[student]} in entry.tampered
    assert exercise(entry, "attention_scores").score == 0
    assert entry.score == 21


def test_untouched_submissions_raise_no_tamper_warning(graded):
    course, _ = graded
    sound = [r for r in read_all(Course.at(course)) if r.student not in TAMPERING]
    assert all(r.tampered == [] for r in sound)


def test_invalid_notebook_is_recorded_not_lost(graded):
    course, _ = graded
    entry = records(course)["broken"]
    assert entry.status == "invalid" and entry.score == 0
    assert "could not be read" in entry.reason
    assert all(e.status == "ungraded" for e in entry.exercises)
    assert (course / "submitted" / "broken" / ASSIGNMENT / "01_attention_basics.ipynb.invalid").exists()


def test_flood_of_output_is_capped(graded):
    course, _ = graded
    autograded = course / "autograded" / "flooder" / ASSIGNMENT / "01_attention_basics.ipynb"
    assert autograded.stat().st_size < 200_000


def test_gradebook_survives_and_holds_every_student(graded):
    course, _ = graded
    with sqlite3.connect(course / "gradebook.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        graded_students = {row[0] for row in db.execute(
            "SELECT student.id FROM student JOIN submitted_assignment ON student.id = submitted_assignment.student_id")}
    assert graded_students >= {"good", "stubs", *ATTACKS, *TAMPERING}


def test_no_sandbox_process_outlives_grading(graded):
    leftovers = [p.info for p in psutil.process_iter(["pid", "uids", "cmdline"]) if p.info["uids"] and
                 p.info["uids"].real == 65534]
    assert leftovers == []


def test_rerun_changes_nothing(graded):
    course, _ = graded
    before = {r.student: r for r in read_all(Course.at(course))}
    with sqlite3.connect(course / "gradebook.db") as db:
        grades = db.execute("SELECT * FROM grade ORDER BY id").fetchall()
    again = autograde(course)
    assert again.returncode == 0
    assert "nothing new to grade" in again.stderr and "--force grades them again" in again.stderr
    assert {r.student: r for r in read_all(Course.at(course))} == before
    with sqlite3.connect(course / "gradebook.db") as db:
        assert db.execute("SELECT * FROM grade ORDER BY id").fetchall() == grades


def test_export_tells_real_zeros_from_scores_that_need_attention(graded):
    import csv
    from grader.export import export
    course, _ = graded
    with open(export(course, ASSIGNMENT)) as table:
        rows = {(r["student"], r["exercise"]): r for r in csv.DictReader(table)}
    crashed = rows[("exiter", "attention_scores")]
    assert crashed["status"] == "crashed" and crashed["needs_attention"] == "yes" and crashed["reason"]
    assert rows[("loopcall", "attention_scores")]["status"] == "timeout"
    assert rows[("memorybomb", "attention_scores")]["status"] == "memory"
    assert rows[("broken", "attention_scores")]["needs_attention"] == "yes"
    assert "could not be read" in rows[("broken", "attention_scores")]["reason"]
    real_zero = rows[("patcher", "attention_scores")]
    assert (float(real_zero["score"]), real_zero["status"], real_zero["needs_attention"]) == (0, "graded", "no")
    assert rows[("edited", "attention_scores")]["needs_attention"] == "yes"


def test_feedback_explains_the_mistake_and_leaks_no_hidden_test(graded):
    from grader.checks.misconceptions import MISCONCEPTIONS
    from grader.feedback import feedback
    course, _ = graded
    pages = {p.parent.parent.name: p.read_text() for p in feedback(course, ASSIGNMENT) if p.stem.startswith("01")}
    assert "without transposing the keys" in pages["patcher"]
    assert MISCONCEPTIONS["scores_no_transpose"].split(".")[0] in pages["patcher"]
    assert "crash" in pages["exiter"] and "time" in pages["loopcall"]
    for page in pages.values():
        assert "check_hidden" not in page and "BEGIN HIDDEN TESTS" not in page
