"""``make demo``: the whole round on the generated class, graded as the generator expects.

What the demo must print is computed from the generator's plan (``expected_grades.json``, beside the course) and
the release, never pinned: adding an exercise or a notebook changes no line here."""
import json

import pytest

from grader.course import Course
from grader.demo.run import demo

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def test_demo_grades_the_class_as_the_generator_expects(tmp_path):
    printed = demo(out=tmp_path / "demo")
    plan = json.loads((tmp_path / "demo" / "expected_grades.json").read_text())
    expected = [(student, notebook) for student, notebooks in plan["expected"].items() for notebook in notebooks]
    handed_in = [(student, notebook) for student, entry in plan["composition"].items()
                 for notebook in entry["notebooks"]]
    assert f"grades equal the generator's expectations: yes for {len(expected)} of the {len(expected)} notebooks" \
        in printed
    paged = {student for student, _ in handed_in}  # every notebook handed in has its page, the unreadable one too
    assert f"feedback: {len(handed_in)} pages for {len(paged)} students" in printed
    course = Course.at(tmp_path / "demo" / "course")
    first = min(course.released_exercises())
    full = sum(points for _, points in course.released_exercises()[first])
    perfect = [s for s, nbs in plan["expected"].items()
               if nbs[first]["status"] == "graded" and all(e["score"] == e["max_score"]
                                                          for e in nbs[first]["exercises"].values())]
    assert perfect and any(line.split()[:1] == [perfect[0]] and f"{full:g}/{full:g}" in line
                           for line in printed.splitlines())
    assert (course.reports / "self_attention" / "index.html").exists()
    pages = list((tmp_path / "demo" / "course" / "feedback").rglob("*.html"))
    assert len(pages) == len(handed_in)
    # Each graded cell of each page (nbgrader's "Grade cell:" box, then the kit's report under it) gives its
    # likely mistake once at most, and some do give one.
    cells = [cell for page in pages for cell in page.read_text().split("Grade cell:")[1:]]
    assert len(cells) > len(pages) and max(cell.count("Likely mistake") for cell in cells) == 1
