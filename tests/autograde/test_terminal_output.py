"""What the commands print: counts that add up, what was left out and why, the grade table's header and legend."""
import pytest

from grader.autograde import table
from grader.autograde.run import summary as autograde_summary
from grader.course import Course
from grader.demo.run import enrol, new_course
from grader.grades import NotebookGrade
from grader.summaries import feedback_summary

from ..conftest import ROOT

BASICS, STEPS = "01_attention_basics.ipynb", "02_self_attention_step_by_step.ipynb"


def grade(student, notebook, score, status="graded", late_penalty=0.0):
    return NotebookGrade(student, notebook, status, None, score, 10.0, late_penalty)


def test_the_table_is_headed_by_short_titles_and_explains_only_the_marks_it_uses(monkeypatch):
    grades = [grade("ann", BASICS, 7), grade("ann", STEPS, 10), grade("bob", BASICS, 10), grade("bob", STEPS, 3)]
    monkeypatch.setattr(table, "course_grades", lambda course, released: grades)
    shown = table.grade_table(Course.at(ROOT))
    header = shown.splitlines()[:3]
    assert header[0].split() == ["01", "02"]
    assert header[1].split() == ["Attention", "Self-"] and header[2].split() == ["student", "basics", "attention", "total"]
    assert "L = late" not in shown and "! = needs attention" not in shown

    grades[1] = grade("ann", STEPS, 10, late_penalty=2)
    grades[2] = grade("bob", BASICS, 0, status="missing")
    shown = table.grade_table(Course.at(ROOT))
    assert "8/10 L" in shown and "0/10 !" in shown
    assert "L = late" in shown and "! = needs attention" in shown


def test_autograde_says_what_it_graded_and_how_to_grade_again():
    assert autograde_summary({}, [], ["ann", "bob"], 0.4) == (
        "nothing new to grade: 2 students already graded; --force grades them again")
    assert autograde_summary({"ann": [BASICS, STEPS], "bob": [BASICS]}, ["bob/02_x.ipynb"], ["cy"], 12.0) == (
        "graded 3 notebooks of 2 students in 12.0 s; 1 notebook could not be read (bob/02_x.ipynb); "
        "1 student already graded, left as they were (--force grades them again)")
    assert "collect" in autograde_summary({}, [], [], 0.1)


def test_feedback_counts_pages_and_says_which_notebooks_have_none(tmp_path):
    course = new_course(tmp_path / "course")
    handed_in = {"ann": [BASICS, STEPS], "bob": [BASICS, STEPS + ".invalid"], "cy": [BASICS]}
    pages = []
    for student, names in handed_in.items():
        for name in names:
            (course / "submitted" / student / "self_attention").mkdir(parents=True, exist_ok=True)
            (course / "submitted" / student / "self_attention" / name).write_text("{}")
            if student != "cy" and not name.endswith(".invalid"):
                pages.append(course / "feedback" / student / "self_attention" / name.replace(".ipynb", ".html"))
    assert feedback_summary(pages, Course.at(course)) == (
        f"feedback: 3 pages for 2 students in {course / 'feedback'}; none for 2 notebooks handed in: "
        f"bob/{STEPS} (could not be read), cy/{BASICS} (not graded yet)")


def test_the_demo_class_has_names_and_emails_in_the_gradebook(tmp_path):
    course = Course.at(new_course(tmp_path / "course"))
    enrol(course, ["aisha", "elif", "zofia"])
    with course.gradebook() as gradebook:
        shown = {s["id"]: (s["first_name"], s["last_name"], s["email"]) for s in gradebook.student_dicts()}
    assert shown == {"aisha": ("Aisha", "Karimi", "aisha.karimi@students.example.edu"),
                     "elif": ("Elif", "Yılmaz", "elif.yilmaz@students.example.edu"),
                     "zofia": ("Zofia", "Wiśniewska", "zofia.wisniewska@students.example.edu")}


@pytest.mark.slow
def test_one_grade_table_reads_the_gradebook_once_and_the_release_once(course_copy, monkeypatch):
    """A course with a gradebook, a student and the release: one session of the gradebook, one read of each
    released notebook, however many notebooks, cells and verbs' helpers the table needs."""
    import contextlib

    from grader.checks import notebook
    course = Course.at(course_copy)
    enrol(course, ["aisha"])
    opened, read = [], []
    real_gradebook, real_read = Course.gradebook, notebook.read

    @contextlib.contextmanager
    def counted(self):
        opened.append(1)
        with real_gradebook(self) as book:
            yield book
    monkeypatch.setattr(Course, "gradebook", counted)
    monkeypatch.setattr("grader.course.read", lambda path: read.append(path) or real_read(path))
    shown = table.grade_table(course)
    assert "aisha" in shown
    assert len(opened) == 1
    assert sorted(read) == sorted(course.release.glob("*.ipynb"))
