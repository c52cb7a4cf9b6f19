"""``make demo``: the whole round on the generated class, graded as the generator expects.

What the demo must print is computed from the generator's plan (``expected_grades.json``, beside the course) and
the release, never pinned: adding an exercise or a notebook changes no line here.

The class is the generator's with each of its profiles once, and as many partly correct students as it takes to
give each mistake to two of them (15 students of the 32 today: the roster gives each mistake to two students, one
mistake per exercise each, and loops for ever with fewer), each broken student handing in only the notebook that is
broken: every case the full class holds (each mistake, each broken answer and notebook, late, renamed and missing
notebooks) is graded, in 40 notebooks of its 153. tests/demo/test_demo_class.py checks the full class that
``make demo`` grades."""

import collections
import json

import pytest

from grader.course import Course
from grader.demo import generate, roster
from grader.demo.broken import ANSWER_BREAKERS
from grader.demo.mistakes import MISTAKES
from grader.demo.run import demo

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def smaller_class():
    """The demo's profiles, each once, and the partly correct students that the roster needs to give each mistake
    to two students with one mistake per exercise each (grader/demo/roster.py's ``_cover_mistakes``)."""
    most = max(collections.Counter(m.exercise for m in MISTAKES).values())
    return tuple(dict.fromkeys(roster.PROFILES)) + ("partial",) * (2 * most - 1)


def broken_notebook_only(make_roster):
    """``make_roster``, but each broken student hands in only the notebook that is broken: the others hold the
    reference answers, stubs and mistakes that the full, stubs and partly correct students hand in too."""

    def roster_of_broken_notebooks(*args):
        students = make_roster(*args)
        for student in (s for s in students if s.profile.startswith("broken:")):
            student.notebooks = {
                nb: sub
                for nb, sub in student.notebooks.items()
                if sub.breakage or set(sub.answers.values()) & set(ANSWER_BREAKERS)
            }
        return students

    return roster_of_broken_notebooks


def test_demo_grades_the_class_as_the_generator_expects(tmp_path, monkeypatch):
    monkeypatch.setattr(roster, "PROFILES", smaller_class())
    monkeypatch.setattr(generate, "make_roster", broken_notebook_only(generate.make_roster))
    printed = demo(out=tmp_path / "demo")
    plan = json.loads((tmp_path / "demo" / "expected_grades.json").read_text())
    composition = plan["composition"].values()
    assert {entry["profile"] for entry in composition} == set(dict.fromkeys(roster.PROFILES))
    for entry in composition:  # each broken student's one notebook is broken as the profile says
        kind = entry["profile"].removeprefix("broken:")
        if kind != entry["profile"]:
            [notebook] = entry["notebooks"].values()
            assert kind in (notebook["breakage"], *notebook["answers"].values()), entry
    statuses = {
        e["status"] for nbs in plan["expected"].values() for nb in nbs.values() for e in (nb, *nb["exercises"].values())
    }
    assert {"timeout", "crashed", "undefined", "invalid", "missing"} <= statuses, statuses
    assert sorted(t["change"] for nbs in plan["expected"].values() for nb in nbs.values() for t in nb["tampered"]) == [
        "deleted",
        "edited",
    ]
    given = collections.Counter(
        label for entry in composition for nb in entry["notebooks"].values() for label in set(nb["answers"].values())
    )
    assert all(given[m.label] >= 2 for m in MISTAKES), given
    assert plan["late"] and plan["missing"]
    expected = [(student, notebook) for student, notebooks in plan["expected"].items() for notebook in notebooks]
    handed_in = [
        (student, notebook) for student, entry in plan["composition"].items() for notebook in entry["notebooks"]
    ]
    assert (
        f"grades equal the generator's expectations: yes for {len(expected)} of the {len(expected)} notebooks"
        in printed
    )
    paged = {student for student, _ in handed_in}  # every notebook handed in has its page, the unreadable one too
    assert f"feedback: {len(handed_in)} pages for {len(paged)} students" in printed
    course = Course.at(tmp_path / "demo" / "course")
    first = min(course.released_exercises())
    full = sum(points for _, points in course.released_exercises()[first])
    perfect = [
        s
        for s, nbs in plan["expected"].items()
        if nbs[first]["status"] == "graded"
        and all(e["score"] == e["max_score"] for e in nbs[first]["exercises"].values())
    ]
    assert perfect and any(
        line.split()[:1] == [perfect[0]] and f"{full:g}/{full:g}" in line for line in printed.splitlines()
    )
    assert (course.reports / "self_attention" / "index.html").exists()
    pages = list((tmp_path / "demo" / "course" / "feedback").rglob("*.html"))
    assert len(pages) == len(handed_in)
    # Each graded cell of each page (nbgrader's "Grade cell:" box, then the kit's report under it) gives its
    # likely mistake once at most, and some do give one.
    cells = [cell for page in pages for cell in page.read_text().split("Grade cell:")[1:]]
    assert len(cells) > len(pages) and max(cell.count("Likely mistake") for cell in cells) == 1
