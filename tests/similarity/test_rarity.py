"""``similarity`` on held-out-style classes (tests/similarity/pooled.py): students who draw their answers from a
shared pool of common ones, right and buggy, or write their own, and five planted copiers. The evidence is weighed
by how rare it is in the class; the flag is what the class's own answers, shuffled, seldom reach; the page is the
same whatever Python's hash seed, and shows the rarest code in common first, marked on token boundaries."""

import io
import os
import random
import re
import subprocess
import sys
import tokenize

import bs4
import pytest

from grader.checks.notebook import read
from grader.similarity.answers import ClassAnswers, exercise_names, solution_sources, without_markers
from grader.similarity.canonical import statements
from grader.similarity.comparison import compare
from grader.similarity.page import render
from tests.conftest import EXERCISES, SOLUTIONS
from tests.similarity.planted import kit_course
from tests.similarity.pooled import (
    NOTEBOOK,
    cell,
    disguised,
    handed_in,
    own_answer,
    pool_answer,
    pooled_class,
    released,
)

SEEDS = (0, 1, 2)
TITLES = {NOTEBOOK: "Causal self-attention"}


@pytest.fixture(scope="module", params=SEEDS, ids=lambda seed: f"seed{seed}")
def pooled(request):
    made = pooled_class(request.param)
    return made, compare(made.answers)


def test_every_planted_copy_ranks_above_every_independent_pair(pooled):
    made, found = pooled
    ranked = found.notebooks[NOTEBOOK].ranked()
    best = next(score for score, first, second in ranked if not made.is_planted(first, second))
    planted = {
        kind: next((n, round(score, 1)) for n, (score, *pair) in enumerate(ranked, 1) if set(pair) == set(copy))
        for kind, copy in made.planted.items()
    }
    assert {kind: at for kind, at in planted.items() if at[1] <= best} == {}, (
        f"(rank, bits) of the planted copies: {planted}; the best independent pair scores {best:.1f} bits"
    )


def test_the_default_flag_holds_every_planted_pair_and_at_most_a_handful_of_others(pooled):
    made, found = pooled
    flagged = {frozenset((pair.first, pair.second)) for pair in found.flagged()}
    planted = {frozenset(copy) for copy in made.planted.values()}
    assert planted - flagged == set(), f"{len(flagged)} flagged; not the planted {planted - flagged}"
    assert len(flagged - planted) <= 3, f"{len(flagged - planted)} of {len(flagged)} flagged are independent pairs"


@pytest.fixture(scope="module")
def rare_and_common():
    """20 students, three exercises. pat and quin both handed in the pool's long Head, as 7 others did; rue and sol
    too, and they share two answers that no one else wrote, each disguised. Everything else is each student's own."""
    rng = random.Random(7)
    stubs, references = released()
    exercises = ["Head", "causal_average_weights", "causal_mask"]
    students = [f"s{n:02d}" for n in range(16)] + ["pat", "quin", "rue", "sol"]
    handed = {s: {e: cell(stubs[e], own_answer(e, rng)) for e in exercises} for s in students}
    for student in [*students[:5], "pat", "quin", "rue", "sol"]:
        handed[student]["Head"] = cell(stubs["Head"], pool_answer("Head", 2))
    for exercise in exercises[1:]:
        handed["sol"][exercise] = disguised(handed["rue"][exercise], rng)
    answers = ClassAnswers(
        {NOTEBOOK: {e: stubs[e] for e in exercises}},
        {NOTEBOOK: {e: references[e] for e in exercises}},
        {s: {NOTEBOOK: handed[s]} for s in students},
        [],
    )
    return answers, compare(answers)


def test_several_rare_answers_in_common_outweigh_one_long_common_one(rare_and_common):
    _, found = rare_and_common
    notebook = found.notebooks[NOTEBOOK]
    common, rare = notebook.pair("pat", "quin"), notebook.pair("rue", "sol")
    assert [(s.exercise, s.close) for s in common.shared if s.similarity == 1] == [("Head", 9)]
    assert rare.score > 3 * common.score, (rare, common)
    assert rare.flagged and not common.flagged


def test_the_page_shows_the_rarest_code_in_common_first(rare_and_common):
    answers, found = rare_and_common
    soup = bs4.BeautifulSoup(render("self_attention", found, answers, TITLES, None), "html.parser")
    shown = sections(soup)[("rue", "sol")]
    names = [heading.split(":")[0] for heading, _ in shown]
    assert names[:2] in (["causal_average_weights", "causal_mask"], ["causal_mask", "causal_average_weights"])
    assert all("only these two" in heading for heading, _ in shown[:2])
    bits = [float(re.search(r"\(([\d.]+) bits\)", heading)[1]) for heading, _ in shown]
    assert bits == sorted(bits, reverse=True)
    for heading, boxes in shown:
        for box in boxes:
            assert box.select("mark"), f"{heading}: nothing marked"


ORIGINAL = """def f(x):
    rows = []
    n = x.shape[0]
    total = 0
    for i in range(n):
        rows.append(x[i] * 2)
    for v in rows:
        total += v
    return total, rows
"""
REWRITTEN = """def f(x):
    acc = 0  # renamed, moved up
    count = x.shape[0]
    doubled = [x[j] * 2 for j in range(count)]
    for w in doubled:
        acc += w
    return acc, doubled
"""


def forms(code):
    return sorted(s.form for s in statements(code))


def test_a_copy_renamed_reordered_and_with_a_comprehension_has_the_same_statements():
    assert forms(ORIGINAL) == forms(REWRITTEN)
    assert forms(ORIGINAL) != forms(ORIGINAL.replace("x[i] * 2", "x[i] * 3"))


def test_statements_that_depend_on_each_other_keep_their_order():
    first = "def f(x):\n    a = x + 1\n    a = a * 2\n    return a\n"
    second = "def f(x):\n    a = a * 2\n    a = x + 1\n    return a\n"
    assert forms(first) != forms(second)


def token_edges(code):
    """The offsets at which Python's own tokenizer starts and ends a token of ``code``."""
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    edges = set()
    for found in tokenize.generate_tokens(io.StringIO(code).readline):
        if found.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            edges |= {starts[found.start[0] - 1] + found.start[1], starts[found.end[0] - 1] + found.end[1]}
    return edges


@pytest.fixture(scope="module")
def page():
    made = pooled_class(SEEDS[0])
    return made, bs4.BeautifulSoup(
        render("self_attention", compare(made.answers), made.answers, TITLES, None), "html.parser"
    )


def sections(soup):
    """{(first, second): [(exercise heading, [pre, pre])]} of the pairs shown side by side."""
    found = {}
    for heading in soup.select("h3[id^=pair-]"):
        pair = tuple(heading.get_text().split(": ")[0].split(". ", 1)[1].split(" and "))
        found[pair] = []
        for sibling in heading.find_next_siblings():
            if sibling.name in ("h3", "h2"):
                break
            if sibling.name == "h4":
                found[pair].append((sibling.get_text(), sibling.find_next_sibling("div").select("pre")))
    return found


def test_the_code_boxes_hold_the_whole_answers_and_the_marks_stop_on_token_edges(page):
    made, soup = page
    style = soup.find("style").get_text()
    assert "max-height" not in style and "overflow: hidden" not in style and "white-space: pre-wrap" in style
    answers = {code for handed in made.answers.students.values() for code in handed[NOTEBOOK].values()}
    boxes = soup.select(".pair pre")
    assert boxes
    for box in boxes:
        code = box.get_text()
        assert code in answers  # the whole answer, as handed in
        edges, at = token_edges(code), 0
        for part in box.code.children:
            text = part.get_text()
            if part.name == "mark":
                assert at in edges and at + len(text) in edges, f"{text!r} cuts a token of {code!r}"
            at += len(text)


def test_exercises_are_named_as_the_notebook_shows_them():
    """The cell ``show_heatmaps_from_02`` is where notebook 04 asks for ``show_heatmaps``: the exact copier and their
    classmate pasted the same one of their own, everyone else the reference solution."""
    made = pooled_class(SEEDS[0])
    every = solution_sources(read(EXERCISES / NOTEBOOK))
    reference = without_markers(solution_sources(read(SOLUTIONS / NOTEBOOK))["show_heatmaps_from_02"])
    made.answers.stubs[NOTEBOOK]["show_heatmaps_from_02"] = every["show_heatmaps_from_02"]
    for handed in made.answers.students.values():
        handed[NOTEBOOK]["show_heatmaps_from_02"] = reference
    for student in made.planted["exact"]:
        made.answers.students[student][NOTEBOOK]["show_heatmaps_from_02"] = reference.replace(
            "low, high = matrices.min().item(), matrices.max().item()", "low, high = float(matrices.min()), 1.0"
        )
    soup = bs4.BeautifulSoup(render("self_attention", compare(made.answers), made.answers, TITLES, None), "html.parser")
    assert exercise_names({NOTEBOOK: every})[NOTEBOOK]["show_heatmaps_from_02"] == "show_heatmaps"
    assert "show_heatmaps" in [heading.get_text().split(":")[0] for heading in soup.select("h4")]
    assert "_from_02" not in soup.get_text()


@pytest.mark.slow  # three processes of the verb
def test_the_page_is_the_same_bytes_whatever_the_hash_seed(tmp_path):
    course = handed_in(kit_course(tmp_path / "course"), pooled_class(SEEDS[0]).answers)
    pages = []
    for seed in ("0", "1", "4242"):
        out = tmp_path / f"out-{seed}"
        done = subprocess.run(
            [sys.executable, "-m", "grader", "similarity", "--course", str(course), "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert done.returncode == 0, done.stderr
        pages.append((out / "similarity.html").read_bytes())
    assert pages[0] == pages[1] == pages[2]
