"""``similarity``: the planted copies come first, the starter code and the short forced answers count for nothing,
the page shows student code as text, and ``python -m grader similarity`` works (fast: nothing is run)."""

import bs4
import pytest

from grader.cli import main
from grader.similarity import similarity
from grader.similarity.answers import ClassAnswers
from grader.similarity.comparison import compare
from tests.html_payloads import active_content, js
from tests.similarity.planted import LOOP, MASK, NOTEBOOK, PLANTED, hand_in, kit_course

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


def scores(found, notebook=NB):
    """{(first, second): score} of every pair of a notebook."""
    return {(first, second): score for score, first, second in found.notebooks[notebook].ranked()}


@pytest.fixture(scope="module")
def planted_course(tmp_path_factory):
    return hand_in(kit_course(tmp_path_factory.mktemp("similarity") / "course"))


@pytest.fixture(scope="module")
def planted_answers(planted_course):
    from grader.course import Course
    from grader.similarity.answers import class_answers

    return class_answers(Course.at(planted_course))


def test_the_planted_copies_rank_above_every_independent_pair(planted_answers):
    found = compare(planted_answers)
    ranked = [{first, second} for _, first, second in found.notebooks[NOTEBOOK].ranked()]
    assert sorted(map(sorted, ranked[:2])) == sorted(map(sorted, PLANTED))
    exact = found.notebooks[NOTEBOOK].pair("copy_exact", "emil")
    assert [(s.exercise, s.similarity, s.close) for s in exact.shared] == [
        ("causal_average_loop", 1.0, 2),
        ("causal_mask", 1.0, 2),
    ]
    assert [{p.first, p.second} for p in found.flagged()] == [{"copy_exact", "emil"}]
    more = compare(planted_answers, level=0.2).flagged()  # a class of 9: the renamed copy is less sure
    assert sorted(sorted((p.first, p.second)) for p in more) == sorted(map(sorted, PLANTED))


def test_a_renamed_and_reordered_copy_is_the_same_code_and_an_inlined_one_close(planted_answers):
    renamed = compare(planted_answers).notebooks[NOTEBOOK].pair("copy_renamed", "dara")
    alike = {s.exercise: s.similarity for s in renamed.shared}
    assert alike["causal_average_loop"] == 1.0  # renamed, two independent lines swapped
    assert 0.5 < alike["causal_mask"] < 1  # renamed, one variable inlined
    assert LOOP["copy_renamed"] != LOOP["dara"] and MASK["copy_renamed"] != MASK["dara"]


def test_code_shared_only_through_the_starter_code_counts_for_nothing():
    """ana and ben kept the given helpers, cam and dee deleted them: only the starter code is common to ana and ben."""
    kept = {student: with_given(body) for student, body in OWN.items() if student in ("ana", "ben")}
    deleted = {"cam": "def solve(grid):\n" + OWN["cam"], "dee": "def solve(grid):\n    return sorted(grid)[0]"}
    found = scores(compare(one_exercise({**kept, **deleted})))
    counted = scores(compare(one_exercise({**kept, **deleted}, stub="")))  # the same class, the starter code counted
    assert found["ana", "ben"] == 0 and counted["ana", "ben"] > 0.5


def test_a_copy_after_the_starter_code_ranks_first_with_the_starter_code_unmarked():
    answers = {**{student: with_given(body) for student, body in OWN.items()}, "dee": with_given(OWN["ben"])}
    found = compare(one_exercise(answers))
    ranked = found.notebooks[NB].ranked()
    assert ranked[0][1:] == ("ben", "dee") and ranked[0][0] > 2 * ranked[1][0]
    from grader.similarity.evidence import evidence

    weights = found.notebooks[NB].exercises["solve"][1].weights
    sides = evidence(("ben", answers["ben"]), ("dee", answers["dee"]), GIVEN, weights)
    marked = "".join(text for text, kind in sides[0].parts if kind == "match")
    starter = "".join(text for text, kind in sides[0].parts if kind == "starter")
    assert "sorted(x for row in normalise(grid)" in marked and "def normalise" not in marked
    assert "def normalise(rows):" in starter
    assert "".join(text for text, _ in sides[1].parts) == answers["dee"]


def test_a_notebook_of_one_exercise_flags_nothing_for_shuffling_cannot_tell():
    """Shuffling one exercise's answers between the students makes the same pairs' scores again: no pair of it is
    beyond chance, and the page lists its highest pairs unflagged."""
    answers = {**{student: with_given(body) for student, body in OWN.items()}, "dee": with_given(OWN["ben"])}
    found = compare(one_exercise(answers))
    assert found.flagged() == [] and found.notebooks[NB].chance.reached(max(scores(found).values())) == 100


def test_short_forced_answers_are_grouped_rarest_first_and_count_for_nothing():
    stub = "def softmax(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    common = "def softmax(x):\n    return torch.softmax(x, dim=-1)"
    rare = "def softmax(x):\n    return (x.exp().T / x.exp().sum(-1)).T"
    alone = "def softmax(x):\n    return x"
    answers = {**{f"s{n}": common for n in range(6)}, "odd1": rare, "odd2": rare, "lone": alone}
    found = compare(one_exercise(answers, stub=stub, reference=common))
    assert set(scores(found).values()) == {0.0}
    assert [(g.students, g.equals_reference) for g in found.short] == [
        (["odd1", "odd2"], False),
        ([f"s{n}" for n in range(6)], True),
    ]
    assert all(g.answered == 9 for g in found.short)
    assert found.short[0].code == rare.splitlines()[1]  # the line of their own, not the stub's


def test_answers_equal_to_the_reference_up_to_names_are_grouped_and_count_for_nothing():
    reference = with_given(OWN["ana"])
    renamed = reference.replace("best", "top")
    found = compare(one_exercise({"x": reference, "y": renamed, "z": with_given(OWN["cam"])}, reference=reference))
    assert scores(found)["x", "y"] == 0 and [g.students for g in found.public] == [["x", "y"]]


def test_the_page_shows_student_code_and_ids_as_text(tmp_path):
    payload = f'    note = "</code></pre><script>{js("code")}</script><img src=x onerror={js("img")}>"\n'
    attacker = f'<img src=x onerror="{js("student-id")}">'
    loop = {**LOOP, attacker: payload + LOOP["bo"], "copier": payload + LOOP["bo"]}
    mask = {**MASK, attacker: MASK["bo"], "copier": MASK["bo"]}
    course = hand_in(kit_course(tmp_path / "course"), {"causal_average_loop": loop, "causal_mask": mask})
    page = similarity(course=course, chance=0.3)
    text = page.read_text()
    assert active_content(text) == []
    soup = bs4.BeautifulSoup(text, "html.parser")
    shown = [pre.get_text() for pre in soup.select(".pair pre")]
    assert any(payload.strip() in code for code in shown)  # the payload is there, as the text the student wrote
    assert attacker in soup.get_text()  # the id, shown as text


def test_a_notebook_that_cannot_be_read_is_named_and_the_rest_compared(tmp_path):
    course = hand_in(kit_course(tmp_path / "course"))
    (course / "submitted" / "ada" / "self_attention" / NOTEBOOK).write_text('{"cells": [')
    soup = bs4.BeautifulSoup(similarity(course=course, chance=0.3).read_text(), "html.parser")
    assert f"ada/{NOTEBOOK}" in soup.get_text()
    assert len(soup.select(".pair")) >= 2  # the exact copy's two exercises, side by side


@pytest.mark.parametrize(
    "chance, flagged", [([], {"copy_exact"}), (["--chance", "0.2"], {"copy_exact", "copy_renamed"})]
)
def test_the_cli_writes_the_page_beside_the_report(planted_course, capsys, chance, flagged):
    main(["similarity", "--course", str(planted_course), *chance])
    page = planted_course / "reports" / "self_attention" / "similarity.html"
    assert capsys.readouterr().out.strip() == f"similarity: {page}"
    rows = bs4.BeautifulSoup(page.read_text(), "html.parser").select("table.pairs tr")[1:]
    assert {row.select("td")[1].get_text().split(" and ")[0] for row in rows} == flagged


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--chance", "0"], "--chance 0.0: give a share of shuffled classes above 0 and below 1, such as 0.1"),
        ([], "no student's notebook of self_attention in"),
    ],
)
def test_the_cli_says_what_is_wrong_in_one_line(tmp_path, arguments, message):
    course = kit_course(tmp_path / "course")
    with pytest.raises(SystemExit) as exit:
        main(["similarity", "--course", str(course), *arguments])
    assert str(exit.value).startswith(f"python -m grader similarity: {message}")
    assert "\n" not in str(exit.value)


def test_the_cli_documents_the_flag_with_the_default_it_uses(capsys):
    from grader.similarity.shuffles import LEVEL

    with pytest.raises(SystemExit):
        main(["similarity", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert "--chance CHANCE flag a pair when at most this share of classes made by shuffling the answers" in words
    assert f"(default {LEVEL})" in words


def test_answers_read_in_forked_processes_equal_this_processs(monkeypatch):
    from grader.similarity import fingerprints

    given = fingerprints.starter(GIVEN)
    answers = [("solve", with_given(body)) for body in OWN.values()]
    monkeypatch.setattr(fingerprints, "PARALLEL_FROM", 1)
    monkeypatch.setattr(fingerprints.os, "sched_getaffinity", lambda pid: {0, 1})
    forked = fingerprints.read_all(answers, {"solve": given})
    assert forked == {(exercise, code): fingerprints.answer(code, given) for exercise, code in answers}
