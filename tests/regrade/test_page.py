"""The regrade's diff as the instructor reads it (page, CSV, terminal) and the note on the student's feedback page:
what comes from students (ids, names) is escaped, and the note's Markdown shows the kit's words as they are."""

import csv
import dataclasses

import nbformat
from nbconvert.filters.markdown_mistune import markdown2html_mistune

from grader.regrade.diff import Change
from grader.regrade.note import note_cell, with_note
from grader.regrade.page import table, write_html
from grader.regrade.run import write_csv

SCRIPT = "<script>alert(1)</script>"
CHANGE = Change(
    "eve\x1b[2J",
    f'=HYPERLINK("x") {SCRIPT}',
    "01_attention_basics.ipynb",
    "softmax_scores",
    "softmax_scores_test",
    0.0,
    4.0,
    4.0,
    ("the check changed (part “a*b_c” 0/1 → 1/1)",),
    ("your instructor corrected its check (part “a*b_c” 0/1 → 1/1)",),
)
LOWER = Change(
    "bob",
    "Bob",
    "01_attention_basics.ipynb",
    "late penalty",
    None,
    0.0,
    -2.0,
    0.0,
    ("the late penalty: 0 → 2",),
    ("the late penalty: 0 → 2",),
)


def test_the_page_escapes_names_and_marks_a_lower_grade(tmp_path):
    page = write_html(tmp_path / "diff.html", "self_attention", [CHANGE, LOWER], "Graded again", "Applied.").read_text()
    assert SCRIPT not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("(lower)") == 1 and '<html lang="en">' in page


def test_the_csv_neutralises_formulas(tmp_path):
    with open(write_csv(tmp_path / "diff.csv", [CHANGE]), newline="") as sheet:
        row = next(csv.DictReader(sheet))
    assert row["name"].startswith("'=HYPERLINK") and row["before"] == "0" and row["after"] == "4"


def test_the_terminal_shows_no_control_character():
    said = table([CHANGE, LOWER])
    assert "\x1b" not in said and "eve?[2J 01 softmax_scores: 0 → 4/4: the check changed" in said
    assert "bob 01 late penalty: 0 → -2 (lower)" in said


def test_the_note_says_what_changed_in_the_kits_words_and_replaces_an_earlier_one():
    cell = note_cell([CHANGE, LOWER], "2026-11-26")
    shown = markdown2html_mistune(cell.source)
    said = "softmax_scores: 0 → 4 of 4 points, because your instructor corrected its check (part “a*b_c” 0/1 → 1/1)"
    assert said in shown
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 01")])
    twice = with_note(with_note(nb, cell), note_cell([LOWER], "2026-11-27"))
    assert [c.source.count("changed on") for c in twice.cells] == [1, 0] and "2026-11-27" in twice.cells[0].source
    assert note_cell([dataclasses.replace(CHANGE, told=())], "2026-11-26") is None  # a manual grade kept
