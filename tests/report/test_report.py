"""``report``: class analytics from the course's grades, as PNG figures and an HTML page."""

import html
import re
import shlex

import bs4
import pytest

from grader.checks.misconceptions import MISCONCEPTIONS
from grader.cli import parser
from grader.cli.errors import UsageError
from grader.course import Course
from grader.course.grades import CellGrade, NotebookGrade
from grader.course.review import notes
from grader.records import ExerciseRecord, PartRecord
from grader.records.statuses import STATUSES
from grader.report import write_report
from grader.report.stats import class_stats
from grader.report.words import title

BASICS = "01_attention_basics.ipynb"


def part(misconception=None, score=0):
    return PartRecord("a part", 1, score, hidden=False, misconception=misconception)


def cell(name, score, most, status="graded", parts=()):
    return CellGrade(
        f"{name}_test",
        "test",
        score,
        most,
        status,
        None,
        ExerciseRecord(name, score or 0, most, parts=list(parts)) if parts else None,
    )


def notebook(student, cells, status="graded", late_penalty=0.0):
    return NotebookGrade(
        student,
        BASICS,
        status,
        None,
        sum(c.score or 0 for c in cells),
        sum(c.max_score for c in cells),
        late_penalty,
        cells=cells,
    )


GRADES = [
    notebook(
        "alice",
        [
            cell("attention_scores", 3, 3),
            cell("softmax_scores", 0, 2, parts=[part("softmax_dim0"), part("softmax_dim0")]),
        ],
    ),
    notebook(
        "bob",
        [
            cell("attention_scores", 1, 3, parts=[part("scores_no_transpose")]),
            cell("softmax_scores", 1, 2, parts=[part("softmax_dim0"), part(score=1)]),
        ],
    ),
    notebook(
        "carol",
        [cell("attention_scores", None, 3, "crashed"), cell("softmax_scores", None, 2, "crashed")],
        status="crashed",
    ),
    notebook("dan", [cell("attention_scores", 3, 3), cell("softmax_scores", 2, 2)], late_penalty=5.0),
]


def test_stats_count_real_scores_only_and_each_student_once():
    stats = class_stats(GRADES)
    by_name = {e.name: e for e in stats.exercises}
    assert (by_name["attention_scores"].graded, by_name["attention_scores"].passed) == (3, 2)
    assert by_name["softmax_scores"].pass_rate == pytest.approx(1 / 3)
    assert by_name["softmax_scores"].mean_fraction == pytest.approx(0.5)
    assert stats.hardest.name == "softmax_scores"
    assert stats.misconceptions == {"softmax_dim0": 2, "scores_no_transpose": 1}
    assert stats.totals["bob"] == (2, 5) and [a.student for a in stats.need_a_person] == ["carol"]
    assert stats.totals["dan"] == (0, 5)  # late: nbgrader's penalty is taken off


def soup_of(page):
    return bs4.BeautifulSoup(page.read_text(), "html.parser")


def words(node):
    return " ".join(node.get_text(" ").split())


def rows_of(soup, name):
    return [
        [words(td) for td in tr.find_all("td")]
        for table in soup.find_all("table", class_=name)
        for tr in table.find_all("tr")[1:]
    ]


def test_report_writes_figures_and_a_page_that_shows_them(tmp_path):
    page = write_report(class_stats(GRADES), "self_attention", tmp_path / "report")
    assert page == tmp_path / "report" / "index.html"
    soup = soup_of(page)
    for figure in ("scores.png", "pass_rates.png", "misconceptions.png"):
        assert (page.parent / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert soup.find("img", src=figure)
    text = words(soup)
    assert "Hardest exercise: 01 · softmax_scores" in text
    assert "4 students. 0 handed in nothing" in text and "1 notebook handed in needs a person" in text
    assert ["dan", "0", "5"] in rows_of(soup, "students")


def test_misconceptions_are_named_in_the_catalogues_words_for_the_instructor(tmp_path):
    page = write_report(class_stats(GRADES), "self_attention", tmp_path)
    assert "softmax_dim0" not in page.read_text() and "scores_no_transpose" not in page.read_text()
    entry = MISCONCEPTIONS["softmax_dim0"]
    assert [title("softmax_dim0"), "2", entry.for_instructors] in rows_of(soup_of(page), "misconceptions")
    assert title("softmax_dim0") == entry.title


def test_every_misconception_has_words_for_the_instructor_that_do_not_speak_to_the_student():
    for entry in MISCONCEPTIONS.values():
        assert entry.for_instructors and not re.search(r"\b(you|your)\b", entry.for_instructors, re.IGNORECASE), (
            entry.key
        )


def test_exercises_are_grouped_and_named_by_notebook(tmp_path):
    numpy = "03_attention_in_numpy.ipynb"
    grades = GRADES + [
        NotebookGrade("alice", numpy, "graded", None, 1, 2, cells=[cell("attention", 1, 2)]),
        NotebookGrade("bob", numpy, "graded", None, 0, 2, cells=[cell("attention", 0, 2)]),
    ]
    stats = class_stats(grades, {numpy: "Attention in NumPy", BASICS: "Attention basics"})
    soup = soup_of(write_report(stats, "self_attention", tmp_path))
    assert [words(h) for h in soup.find_all("h3")] == ["01 · Attention basics", "03 · Attention in NumPy"]
    assert rows_of(soup, "exercises")[-1][0] == "03 · attention"
    assert "Hardest exercise: 03 · attention (Attention in NumPy)" in words(soup)


def test_same_exercise_names_in_two_notebooks_are_counted_apart():
    other = "02_self_attention_step_by_step.ipynb"
    grades = GRADES[:1] + [NotebookGrade("alice", other, "graded", None, 0, 3, cells=[cell("attention_scores", 0, 3)])]
    by_key = {(e.notebook, e.name): e for e in class_stats(grades).exercises}
    assert by_key[BASICS, "attention_scores"].pass_rate == 1 and by_key[other, "attention_scores"].pass_rate == 0


def test_students_who_handed_in_nothing_are_apart_from_real_zeros(tmp_path):
    nothing = [
        NotebookGrade("erin", BASICS, "missing", None, 0, 5, cells=[cell("attention_scores", None, 3, "missing")])
    ]
    stats = class_stats(GRADES + nothing)
    assert stats.handed_in_nothing == ["erin"] and "erin" not in stats.handed_in and "carol" in stats.handed_in
    assert len(stats.need_a_person) == 1  # carol's crashed notebook; erin's missing one is not counted
    soup = soup_of(write_report(stats, "self_attention", tmp_path))
    assert words(soup.find(class_="nothing")) == "erin"
    assert ["erin", "handed in nothing", "5"] in rows_of(soup, "students")


def test_markup_from_the_course_is_escaped(tmp_path):
    evil = "<script>alert(1)</script>"
    grades = [
        NotebookGrade(
            evil,
            BASICS,
            "graded",
            None,
            1,
            3,
            cells=[cell("attention_scores", 1, 3, parts=[part("<img src=x onerror=alert(2)>")])],
        )
    ]
    text = write_report(class_stats(grades), "<b>assignment</b>", tmp_path).read_text()
    assert "<script>" not in text and "<img src=x" not in text and "<b>assignment" not in text
    assert html.escape(evil) in text and "&lt;b&gt;assignment&lt;/b&gt;" in text


def test_a_student_id_with_markup_shows_as_text(tmp_path):
    from ..html_payloads import TOKEN, active_content

    ids = [f'<img src=x onerror="{TOKEN}()">', f'"><script>{TOKEN}()</script>']
    grades = [notebook(student, [cell("attention_scores", 1, 3)]) for student in ids]
    text = write_report(class_stats(grades), "self_attention", tmp_path).read_text()
    assert active_content(text) == []
    assert all(student in html.unescape(text) for student in ids)  # shown, as text


def test_the_report_names_each_notebook_that_needs_a_person_with_what_to_do(tmp_path):
    """Not a count that sends the instructor back to autograde's output, which is gone by then."""
    soup = soup_of(write_report(class_stats(GRADES), "self_attention", tmp_path))
    assert [row[:3] for row in rows_of(soup, "needs")] == [["carol", BASICS, STATUSES["crashed"].to_do]]


def test_the_advice_is_the_whole_regrade_command_of_that_one_notebook(tmp_path):
    """Not ``autograde --force``, which grades the whole class: every argument spelled out and quoted for the shell,
    an id with a space and a quote, and a course folder with a space, included."""
    odd, course = "o'neil  x", tmp_path / "a course"
    grades = GRADES + [notebook(odd, [cell("attention_scores", None, 3, "timeout")], status="timeout")]
    assert "--force" not in write_report(class_stats(grades), "self_attention", tmp_path / "here").read_text()
    from grader.report.directions import Directions

    page = write_report(
        class_stats(grades), "self_attention", tmp_path / "out", Directions("self_attention", str(course))
    )
    commands = [tr.find("code").get_text() for tr in soup_of(page).find("table", class_="needs").find_all("tr")[1:]]
    given = [vars(parser().parse_args(shlex.split(command.removeprefix("python -m grader ")))) for command in commands]
    assert [(g["verb"], g["course"], g["assignment"], g["students"], g["notebooks"]) for g in given] == [
        ("regrade", str(course), "self_attention", [student], [BASICS]) for student in ("carol", odd)
    ]
    assert all(command.startswith("python -m grader regrade ") for command in commands)


def test_the_report_lists_every_notebook_not_handed_in_as_the_grade_table_notes_them(tmp_path):
    """Erin handed in nothing, Alice not notebook 02: each notebook is listed, not only the students with none."""
    other = "02_self_attention_step_by_step.ipynb"
    missing = [
        NotebookGrade(student, name, "missing", None, 0, 3, cells=[cell("attention_scores", None, 3, "missing")])
        for student, name in (("alice", other), ("erin", BASICS), ("erin", other))
    ]
    grades = GRADES + missing
    listed = {
        (row[0], name)
        for row in rows_of(soup_of(write_report(class_stats(grades), "self_attention", tmp_path)), "missing")
        for name in row[1].split(", ")
    }
    noted = set()
    for line in notes(grades):  # "alice 02: not handed in", "erin: handed in nothing"
        if line.endswith(": handed in nothing"):
            noted |= {(line.split(":")[0], n.notebook) for n in grades if n.student == line.split(":")[0]}
        elif line.endswith(": not handed in"):
            student, number = line.removesuffix(": not handed in").split()
            noted |= {(student, n.notebook) for n in grades if n.notebook.startswith(f"{number}_")}
    assert listed == noted == {(n.student, n.notebook) for n in missing}


def test_links_into_formgrader_start_with_its_address_else_the_report_names_the_page(tmp_path):
    """The page is a file: a link relative to it, or to a server's root, leads nowhere."""
    plain = soup_of(write_report(class_stats(GRADES), "self_attention", tmp_path / "b"))
    assert [a["href"] for a in plain.find_all("a")] == []  # no similarity page yet, no formgrader address
    assert rows_of(plain, "needs")[0][4] == "Manage Students › carol › self_attention"
    assert "c.ClassReport.formgrader_url" in words(plain)
    from grader.report.directions import Directions

    url = "https://hub.example.edu/user/ta/formgrader"
    linked = soup_of(
        write_report(
            class_stats(GRADES), "self_attention", tmp_path / "a", Directions("self_attention", formgrader_url=url)
        )
    )
    assert linked.find("table", class_="needs").find("a")["href"] == f"{url}/manage_students/carol/self_attention"


def test_formgraders_address_is_the_courses_setting_and_only_a_web_address(tmp_path):
    from grader.report.directions import Directions

    config = tmp_path / "nbgrader_config.py"
    config.write_text('c = get_config()\nc.ClassReport.formgrader_url = "http://localhost:8888/formgrader/"\n')
    assert Directions.of(Course.at(tmp_path)).formgrader_url == "http://localhost:8888/formgrader"
    config.write_text('c = get_config()\nc.ClassReport.formgrader_url = "javascript:alert(1)//"\n')
    with pytest.raises(UsageError, match="formgrader_url"):
        Directions.of(Course.at(tmp_path))


def test_the_report_lists_late_notebooks_with_or_without_a_penalty(tmp_path):
    """dan's penalty says he was late; erin was late by the clock, and the course takes no penalty off."""
    erin = NotebookGrade(
        "erin", BASICS, "graded", None, 3, 3, cells=[cell("attention_scores", 3, 3)], seconds_late=2 * 3600 + 5 * 60
    )
    stats = class_stats(GRADES + [erin])
    soup = soup_of(write_report(stats, "self_attention", tmp_path))
    assert rows_of(soup, "late") == [
        ["dan", BASICS, "late (a late penalty was taken off)"],
        ["erin", BASICS, "2 hours 5 minutes"],
    ]
    assert "2 notebooks handed in late" in words(soup)
