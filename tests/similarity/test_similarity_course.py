"""``python -m grader similarity`` end to end, in its own process, on a course that nbgrader released, with the
planted class handed in; the page passes axe-core's WCAG 2.1 AA rules in Chromium, and the class report links it."""

import subprocess
import sys

import bs4
import pytest

from tests.accessibility import readable, violations
from tests.similarity.planted import PLANTED, hand_in

pytestmark = pytest.mark.slow


def test_the_verb_ranks_the_planted_copies_first_on_an_accessible_page(course_copy):
    hand_in(course_copy)
    done = subprocess.run(
        [sys.executable, "-m", "grader", "similarity", "--course", str(course_copy), "--chance", "0.2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    page = course_copy / "reports" / "self_attention" / "similarity.html"
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"similarity: {page}"
    soup = bs4.BeautifulSoup(page.read_text(), "html.parser")
    ranked = [set(row.select("td")[1].get_text().split(" and ")) for row in soup.select("table.pairs tr")[1:]]
    assert sorted(map(sorted, ranked)) == sorted(map(sorted, PLANTED))
    found = violations(page)
    assert found == {page: []}, readable(found)


def test_the_class_report_links_the_similarity_page_once_it_is_there(tmp_path):
    from grader.report import write_report
    from grader.report.stats import class_stats

    def links_and_words():
        soup = bs4.BeautifulSoup(write_report(class_stats([]), "self_attention", tmp_path).read_text(), "html.parser")
        return [a["href"] for a in soup.find_all("a")], " ".join(soup.get_text().split())

    links, words = links_and_words()
    assert "similarity.html" not in links  # no link to a page that is not there
    assert "No page of similar answers between students yet: python -m grader similarity writes it" in words
    (tmp_path / "similarity.html").write_text("<!doctype html>")
    links, words = links_and_words()
    assert "similarity.html" in links and "No page of similar answers" not in words
