"""``similarity``: the planted copies come first, the starter code and the short forced answers are not flagged,
the page shows student code as text, and ``python -m grader similarity`` works (fast: nothing is run)."""

import bs4
import pytest

from grader.cli import main
from grader.similarity import similarity
from grader.similarity.answers import ClassAnswers
from grader.similarity.comparison import THRESHOLD, compare
from tests.html_payloads import active_content, js
from tests.similarity.planted import LOOP, NOTEBOOK, PLANTED, hand_in, kit_course

NB = "given.ipynb"
GIVEN = '''def normalise(rows):
    """Divide each row by its sum."""
    totals = [sum(row) for row in rows]
    return [[value / total for value in row] for row, total in zip(rows, totals)]


def pairwise(items):
    """Every pair of items, once."""
    return [(a, b) for i, a in enumerate(items) for b in items[i + 1:]]


def solve(grid):
    # YOUR CODE HERE
    raise NotImplementedError()'''
OWN = {  # independent bodies of solve(), each after the same given code
    "ana": "    best = None\n    for a, b in pairwise(grid):\n        if best is None or a[0] + b[0] > best:\n"
    "            best = a[0] + b[0]\n    return best",
    "ben": "    flat = sorted(x for row in normalise(grid) for x in row)\n    middle = len(flat) // 2\n"
    "    return flat[middle] if len(flat) % 2 else (flat[middle - 1] + flat[middle]) / 2",
    "cam": "    seen = {}\n    while grid:\n        row = grid.pop()\n"
    "        seen[len(row)] = seen.get(len(row), 0) + 1\n"
    "    return max(seen.items(), key=lambda item: item[1])[0]",
}


def one_exercise(answers, stub=GIVEN, reference=None):
    """A hand-made class of one notebook with one exercise ``solve``: ``answers`` {student: whole cell}."""
    return ClassAnswers(
        {NB: {"solve": stub}},
        {NB: {"solve": reference}} if reference else {NB: {}},
        {student: {NB: {"solve": code}} for student, code in answers.items()},
        [],
    )


def with_given(body):
    return GIVEN.replace("    # YOUR CODE HERE\n    raise NotImplementedError()", body)


@pytest.fixture(scope="module")
def planted_course(tmp_path_factory):
    return hand_in(kit_course(tmp_path_factory.mktemp("similarity") / "course"))


@pytest.fixture(scope="module")
def planted_answers(planted_course):
    from grader.course import Course
    from grader.similarity.answers import class_answers

    return class_answers(Course.at(planted_course))


def test_the_planted_copies_rank_above_every_independent_pair(planted_answers):
    everything = compare(planted_answers, threshold=1e-9)  # every pair that shares a fingerprint, ranked
    pairs = [{e.first, e.second} for e in everything.entries]
    assert len(pairs) > 10
    assert sorted(map(sorted, pairs[:2])) == sorted(map(sorted, PLANTED))
    flagged = compare(planted_answers).entries
    assert [{e.first, e.second} for e in flagged] == pairs[:2]
    exact = next(e for e in flagged if "copy_exact" in (e.first, e.second))
    assert [(f.exercise, f.score) for f in exact.findings] == [("causal_average_loop", 1.0), ("causal_mask", 1.0)]


def test_a_renamed_and_reordered_copy_is_similar_but_not_the_same(planted_answers):
    renamed = next(e for e in compare(planted_answers).entries if "copy_renamed" in (e.first, e.second))
    assert {f.exercise for f in renamed.findings} == {"causal_average_loop", "causal_mask"}
    assert all(THRESHOLD <= f.score < 1 for f in renamed.findings)


def test_code_shared_only_through_the_starter_code_is_not_flagged():
    answers = {student: with_given(body) for student, body in OWN.items()}
    assert compare(one_exercise(answers)).entries == []
    without_starter = compare(one_exercise(answers, stub=""))  # the same class, the starter code counted
    assert len(without_starter.entries) == 3


def test_a_copy_after_the_starter_code_is_flagged_with_the_starter_code_unmarked(tmp_path):
    answers = {**{student: with_given(body) for student, body in OWN.items()}, "dee": with_given(OWN["ben"])}
    found = compare(one_exercise(answers))
    assert [(e.first, e.second) for e in found.entries] == [("ben", "dee")]
    from grader.similarity.evidence import evidence

    sides = evidence(("ben", answers["ben"]), ("dee", answers["dee"]), GIVEN)
    marked = "".join(text for text, kind in sides[0].parts if kind == "match")
    starter = "".join(text for text, kind in sides[0].parts if kind == "starter")
    assert "sorted(x for row in normalise(grid)" in marked and "def normalise" not in marked
    assert "def normalise(rows):" in starter
    assert "".join(text for text, _ in sides[1].parts) == answers["dee"]


def test_short_forced_answers_are_grouped_rarest_first_not_flagged():
    stub = "def softmax(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    common = "def softmax(x):\n    return torch.softmax(x, dim=-1)"
    rare = "def softmax(x):\n    return (x.exp().T / x.exp().sum(-1)).T"
    alone = "def softmax(x):\n    return x"
    answers = {**{f"s{n}": common for n in range(6)}, "odd1": rare, "odd2": rare, "lone": alone}
    found = compare(one_exercise(answers, stub=stub, reference=common))
    assert found.entries == []
    assert [(g.students, g.equals_reference) for g in found.short] == [
        (["odd1", "odd2"], False),
        ([f"s{n}" for n in range(6)], True),
    ]
    assert all(g.answered == 9 for g in found.short)
    assert found.short[0].code == rare.splitlines()[1]  # the line of their own, not the stub's


def test_answers_equal_to_the_reference_up_to_names_are_grouped_not_listed():
    reference = with_given(OWN["ana"])
    renamed = reference.replace("best", "top")
    found = compare(one_exercise({"x": reference, "y": renamed, "z": with_given(OWN["cam"])}, reference=reference))
    assert found.entries == [] and [g.students for g in found.public] == [["x", "y"]]


def test_the_page_shows_student_code_and_ids_as_text(tmp_path):
    payload = f'    note = "</code></pre><script>{js("code")}</script><img src=x onerror={js("img")}>"\n'
    attacker = f'<img src=x onerror="{js("student-id")}">'
    loop = {**LOOP, attacker: payload + LOOP["bo"], "copier": payload + LOOP["bo"]}
    course = hand_in(kit_course(tmp_path / "course"), {"causal_average_loop": loop})
    page = similarity(course=course)
    text = page.read_text()
    assert active_content(text) == []
    soup = bs4.BeautifulSoup(text, "html.parser")
    shown = [pre.get_text() for pre in soup.select(".pair pre")]
    assert any(payload.strip() in code for code in shown)  # the payload is there, as the text the student wrote
    assert attacker in soup.get_text()  # the id, shown as text


def test_a_notebook_that_cannot_be_read_is_named_and_the_rest_compared(tmp_path):
    course = hand_in(kit_course(tmp_path / "course"))
    (course / "submitted" / "ada" / "self_attention" / NOTEBOOK).write_text('{"cells": [')
    soup = bs4.BeautifulSoup(similarity(course=course).read_text(), "html.parser")
    assert f"ada/{NOTEBOOK}" in soup.get_text()
    assert len(soup.select(".pair")) >= 2


def test_the_cli_writes_the_page_beside_the_report(planted_course, capsys):
    main(["similarity", "--course", str(planted_course)])
    page = planted_course / "reports" / "self_attention" / "similarity.html"
    assert capsys.readouterr().out.strip() == f"similarity: {page}"
    rows = bs4.BeautifulSoup(page.read_text(), "html.parser").select("table.pairs tr")[1:]
    assert len(rows) == len(PLANTED)


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--threshold", "0"], "--threshold 0.0: give a share of fingerprints in common, above 0 and at most 1"),
        ([], "no student's notebook of self_attention in"),
    ],
)
def test_the_cli_says_what_is_wrong_in_one_line(tmp_path, arguments, message):
    course = kit_course(tmp_path / "course")
    with pytest.raises(SystemExit) as exit:
        main(["similarity", "--course", str(course), *arguments])
    assert str(exit.value).startswith(f"python -m grader similarity: {message}")
    assert "\n" not in str(exit.value)


def test_fingerprints_made_in_forked_processes_equal_this_processs(monkeypatch):
    from grader.similarity import fingerprints

    starter = fingerprints.boilerplate(GIVEN)
    answers = [("solve", with_given(body)) for body in OWN.values()]
    monkeypatch.setattr(fingerprints, "PARALLEL_FROM", 1)
    monkeypatch.setattr(fingerprints.os, "sched_getaffinity", lambda pid: {0, 1})
    forked = fingerprints.fingerprint_all(answers, {"solve": starter})
    assert {key: made.hashes for key, made in forked.items()} == {
        (exercise, code): fingerprints.fingerprint(code, starter).hashes for exercise, code in answers
    }
