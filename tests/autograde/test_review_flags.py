"""What needs a person reaches nbgrader's gradebook (formgrader's "Needs manual grade?" and "Flagged?") and
the grade table's notes: timed out, crashed, a changed test cell, a file that is not a notebook, a notebook
not handed in. A correct student is left alone. A file that is not a notebook gets a feedback page."""

import bs4
import pytest

from grader.api import feedback
from grader.autograde.table import grade_table
from grader.course import Course
from grader.feedback.invalid import invalid_notice
from grader.records import NotebookRecord

from ..browser import dump_dom, screenshot
from ..course_builder import ASSIGNMENT, BASICS, make_course
from ..jupyter_server import jupyter_server
from ..review_class import STEP, review_class

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]

NB01, NB02 = BASICS.removesuffix(".ipynb"), STEP.removesuffix(".ipynb")


# This course's own limit for one cell (its nbgrader_config.py; the kit's tests use 4 s): the slow student is waited
# for 1 s and the sandbox's 2 s of grace, not 6 s. The other students' cells take far less (a whole notebook 01 of
# the good student graded in 1.0 s at a load average of 10 on two cores).
UNIT_SECONDS = "c.SandboxExecute.unit_seconds = 1\n"


@pytest.fixture(scope="module")
def graded(released_course, tmp_path_factory):
    folder = tmp_path_factory.mktemp("review")
    released = make_course(released_course, folder / "released")
    with open(released / "nbgrader_config.py", "a") as config:
        config.write(UNIT_SECONDS)
    return review_class(released, folder / "course")


@pytest.fixture(scope="module")
def pages(graded):
    """The class's feedback pages, written once (``feedback``) for the tests that read them."""
    return feedback(graded[0], ASSIGNMENT)


def submitted(course):
    """{(student, notebook): (flagged, {grade_id: (score, needs manual grade)})}, from nbgrader's API."""
    with Course.at(course).gradebook() as book:
        return {
            (nb.student.id, nb.name): (nb.flagged, {g.name: (g.score, g.needs_manual_grade) for g in nb.grades})
            for submission in book.assignment_submissions(ASSIGNMENT)
            for nb in submission.notebooks
        }


def test_timed_out_and_crashed_cells_need_a_manual_grade_and_score_zero_meanwhile(graded):
    course, name, _ = graded
    book = submitted(course)
    for student in ("slow", "crash"):
        flagged, grades = book[student, NB01]
        assert flagged, student
        assert grades[f"{name}_test"] == (0, True), student
        assert not any(manual for grade_id, (_, manual) in grades.items() if grade_id != f"{name}_test"), student


def test_a_changed_test_cell_is_flagged_but_keeps_its_real_score(graded):
    course, name, _ = graded
    flagged, grades = submitted(course)["tamper", NB01]
    assert flagged and grades[f"{name}_test"][0] > 0
    assert not any(manual for _, manual in grades.values())


def test_a_file_that_is_not_a_notebook_needs_a_manual_grade_and_missing_ones_are_flagged(graded):
    course, _, _ = graded
    book = submitted(course)
    flagged, grades = book["garbled", NB01]
    assert flagged and grades and all(grade == (0, True) for grade in grades.values())
    assert not book["garbled", NB02][0]  # handed in and readable (unanswered: real zeros)
    for (student, notebook), (flagged, grades) in book.items():
        if notebook not in (NB01, NB02):  # nobody handed these in: nbgrader's zero stands, flagged
            assert flagged and not any(manual for _, manual in grades.values()), (student, notebook)


def test_a_student_whose_only_file_is_not_a_notebook_is_in_the_gradebook_like_the_others(graded):
    course, _, _ = graded
    book = {notebook: found for (student, notebook), found in submitted(course).items() if student == "torn"}
    assert book[NB02][0] and all(grade == (0, True) for grade in book[NB02][1].values())
    for notebook, (flagged, grades) in book.items():
        if notebook != NB02:  # not handed in, as nbgrader scores it: zero, nothing to grade by hand
            assert flagged and all(grade == (0, False) for grade in grades.values()), notebook


def test_a_correct_submission_is_not_flagged(graded):
    course, _, _ = graded
    flagged, grades = submitted(course)["good", NB01]
    assert not flagged and not any(manual for _, manual in grades.values())
    assert all(score > 0 for score, _ in grades.values())


def test_the_grade_table_says_who_needs_what(graded):
    course, _, _ = graded
    table = grade_table(Course.at(course))
    notes = table.split("Needs attention:")[1]
    assert "slow 01: timed out, regrade or grade by hand" in notes
    assert "crash 01: crashed, regrade or grade by hand" in notes
    assert "tamper 01: a test cell was changed (graded on the instructor's copy), check it" in notes
    assert "garbled 01: the file is not a readable notebook, ask for a new copy or grade by hand" in notes
    assert "garbled 03: not handed in" in notes
    assert "torn 02: the file is not a readable notebook, ask for a new copy or grade by hand" in notes
    assert "good 01" not in notes and "see the export's status column" not in table


def test_a_file_that_is_not_a_notebook_gets_a_feedback_page_that_says_what_to_do(graded, pages):
    course, _, _ = graded
    folder = course / "feedback" / "garbled" / ASSIGNMENT
    page = folder / BASICS.replace(".ipynb", ".html")
    assert page in pages and (folder / STEP.replace(".ipynb", ".html")) in pages
    assert not list(folder.glob("*.invalid"))  # the raw file is not handed back as feedback
    text = " ".join(bs4.BeautifulSoup(page.read_text(), "html.parser").get_text(" ").split())
    assert "could not be opened as a Jupyter notebook" in text and "What to do" in text
    assert "it is not complete JSON" in text and "hand in that file again" in text
    assert "(Score: 0.0 / " in text  # nbgrader's page, with the gradebook's score
    assert "released notebook" not in text and "NotImplementedError" not in text  # not the stand-in's cells
    assert '"cells"' not in page.read_text() and "NotJSONError" not in page.read_text()  # nothing quoted from it


def test_the_page_escapes_what_it_shows():
    record = NotebookRecord("<b>x</b>", ASSIGNMENT, "<script>alert(1)</script>.ipynb", "invalid", "a & b")
    page = invalid_notice(record)
    assert "<script>" not in page and "&lt;script&gt;" in page and "A &amp; b" in page


@pytest.fixture(scope="module")
def formgrader(graded):
    with jupyter_server(graded[0], token=False) as server:
        yield server


def page(server, path):
    """The DOM of a formgrader page once its scripts have filled it in."""
    return dump_dom(server.link(path), budget_ms=20000)


def submissions_page(formgrader, notebook):
    """Formgrader's list of a notebook's submissions."""
    return bs4.BeautifulSoup(page(formgrader, f"formgrader/gradebook/{ASSIGNMENT}/{notebook}"), "html.parser")


@pytest.fixture(scope="module")
def nb01_submissions(formgrader):
    """Formgrader's list of notebook 01's submissions, opened once for the tests that read it (before the manual
    grade of the last test)."""
    return submissions_page(formgrader, NB01)


def rows_in_formgrader(soup):
    """{student: (needs manual grade, flagged)} as formgrader's list of a notebook's submissions shows them."""
    return {
        tr.select_one("a.name-shown").text: (
            tr.select_one("td.needs-manual-grade").find("span") is not None,
            tr.select_one("td.flagged").find("span") is not None,
        )
        for tr in soup.select("table tbody tr")
        if tr.select_one("a.name-shown")
    }


def link_to(soup, student):
    """The link to ``student``'s notebook in formgrader's list of a notebook's submissions."""
    return next(
        tr.select_one("a.name-shown")["href"]
        for tr in soup.select("table tbody tr")
        if tr.select_one("a.name-shown") and tr.select_one("a.name-shown").text == student
    )


def test_formgrader_flags_the_timed_out_crashed_changed_and_unreadable_submissions(
    formgrader, nb01_submissions, tmp_path
):
    rows = rows_in_formgrader(nb01_submissions)
    assert rows == {
        "good": (False, False),
        "slow": (True, True),
        "crash": (True, True),
        "tamper": (False, True),
        "garbled": (True, True),
        "torn": (False, True),
    }  # torn handed in no 01: listed, flagged
    assert rows_in_formgrader(submissions_page(formgrader, NB02)) == {
        "garbled": (False, False),
        "torn": (True, True),
        **{student: (False, True) for student in ("good", "slow", "crash", "tamper")},
    }  # 02 not handed in
    shot = screenshot(
        formgrader.link(f"formgrader/gradebook/{ASSIGNMENT}/{NB01}"), tmp_path / "formgrader.png", budget_ms=20000
    )
    assert shot.read_bytes()[:4] == b"\x89PNG"


def test_formgrader_opens_an_unreadable_notebook_with_what_happened(formgrader, nb01_submissions):
    text = " ".join(
        bs4.BeautifulSoup(page(formgrader, link_to(nb01_submissions, "garbled")), "html.parser").get_text(" ").split()
    )
    assert "This notebook's file could not be read" in text and "it is not complete JSON" in text


def test_formgrader_opens_a_changed_notebook_with_which_cell_changed_and_how(formgrader, nb01_submissions, graded):
    """The flag says something needs a look; the view says what: each changed cell, named, and how it changed.
    The student's feedback page has its own words and not the grader's note."""
    _, name, _ = graded
    text = " ".join(
        bs4.BeautifulSoup(page(formgrader, link_to(nb01_submissions, "tamper")), "html.parser").get_text(" ").split()
    )
    assert "For the grader: the student changed nbgrader cells of this notebook." in text
    assert f"the test cell {name}_test was edited" in text


def test_the_feedback_page_leaves_out_the_graders_note(pages):
    texts = {p.parent.parent.name: p.read_text() for p in pages if p.stem == NB01}
    assert "For the grader" not in texts["tamper"] and "was edited" in texts["tamper"]


def test_a_manual_grade_in_formgrader_settles_a_timed_out_cell(graded):
    """As formgrader's grade box does (nbgrader's GradeHandler): the manual score counts, nothing is left to do.
    Last in this module: it changes the gradebook."""
    course, name, _ = graded
    with Course.at(course).gradebook() as book:
        grade = book.find_grade(f"{name}_test", NB01, ASSIGNMENT, "slow")
        grade.manual_score, grade.needs_manual_grade = 1.0, False
        book.db.commit()
    assert "slow 01" not in grade_table(Course.at(course)).split("Needs attention:")[1]
    assert submitted(course)["slow", NB01][1][f"{name}_test"] == (1.0, False)
