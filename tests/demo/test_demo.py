"""``make demo``: the whole round on the generated class, graded as the generator expects."""
import pytest

from grader.demo.run import demo

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def test_demo_grades_the_class_as_the_generator_expects(tmp_path):
    printed = demo(out=tmp_path / "demo")
    assert "grades equal the generator's expectations: yes for 160 of the 160 notebooks" in printed
    assert "feedback: 153 pages for 31 students" in printed  # the unreadable notebook has its page
    assert "bilal" in printed and "24/24" in printed
    assert (tmp_path / "demo" / "course" / "reports" / "self_attention" / "index.html").exists()
    autograded = list((tmp_path / "demo" / "course" / "autograded").rglob("*.ipynb"))
    pages = list((tmp_path / "demo" / "course" / "feedback").rglob("*.html"))
    assert len(pages) == len(autograded) >= 150
    # Each graded cell of each page (nbgrader's "Grade cell:" box, then the kit's report under it) gives its
    # likely mistake once at most, and some do give one.
    cells = [cell for page in pages for cell in page.read_text().split("Grade cell:")[1:]]
    assert len(cells) > 600 and max(cell.count("Likely mistake") for cell in cells) == 1
