"""The Course: nbgrader's folders as the course's nbgrader_config.py sets them, the kit's own folders, one
CourseDirectory, and a gradebook that reading never creates."""

import pathlib

from traitlets.config import Config

from grader.course import Course
from grader.course.gradebook import Scores, graded_cells, read_scores, students

CONFIG = 'c = get_config()\nc.CourseDirectory.release_directory = "handouts"\n'


def course_in(folder, assignment="hw1"):
    (folder / "nbgrader_config.py").write_text(CONFIG)
    return Course.at(folder, assignment)


def test_nbgraders_folders_are_the_configurations(tmp_path):
    course = course_in(tmp_path)
    assert course.source == tmp_path / "source" / "hw1"
    assert course.release == tmp_path / "handouts" / "hw1"
    assert course.submitted("ann") == tmp_path / "submitted" / "ann" / "hw1"
    assert course.autograded("ann") == tmp_path / "autograded" / "ann" / "hw1"
    assert course.feedback("ann") == tmp_path / "feedback" / "ann" / "hw1"
    assert course.every_student("submitted") == tmp_path / "submitted"


def test_the_kits_folders_are_under_the_root_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    course = course_in(tmp_path)
    here = Course.at(".", "hw1")
    assert (here.grading, here.collected) == (pathlib.Path("grading/hw1"), pathlib.Path("collected/hw1"))
    assert (here.reports, here.downloads) == (pathlib.Path("reports"), pathlib.Path("downloads"))
    assert here.release == course.release  # nbgrader's folders are absolute
    assert here.resolved().grading == tmp_path / "grading" / "hw1"


def test_a_course_is_taken_as_it_is_and_makes_one_course_directory(tmp_path):
    course = course_in(tmp_path)
    assert Course.at(course, "other") is course
    assert course.directory is course.directory
    assert course.directory.release_directory == "handouts"


def test_a_running_nbgrader_commands_course_is_its_configurations(tmp_path):
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    config.CourseDirectory.release_directory = "elsewhere"
    course = Course.running(config, "hw1")
    assert course.root == tmp_path and course.release == tmp_path / "elsewhere" / "hw1"


def test_reading_a_course_without_a_gradebook_creates_none(tmp_path):
    course = course_in(tmp_path)
    assert not course.gradebook_exists()
    assert graded_cells(course) == students(course) == [] and read_scores(course) == Scores([], [], [], [])
    assert not (tmp_path / "gradebook.db").exists()


def test_a_resolved_course_keeps_its_course_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    course = course_in(pathlib.Path("."))
    directory = course.directory
    assert course.resolved().root == tmp_path and course.resolved().directory is directory


def test_the_kits_preprocessors_share_one_course_per_notebook(tmp_path, monkeypatch):
    """The first of the kit's preprocessors builds the course from nbgrader's configuration; the next ones get it
    through nbgrader's ``resources``, as nbgrader hands down its own."""
    from types import SimpleNamespace

    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    built = []
    running = Course.running
    monkeypatch.setattr(Course, "running", classmethod(lambda cls, *args: built.append(args) or running(*args)))
    resources = {"nbgrader": {"assignment": "hw1", "notebook": "01", "student": "ada"}}
    first, second = (Course.of_notebook(SimpleNamespace(config=config), resources) for _ in range(2))
    assert first is second and first.root == tmp_path and len(built) == 1
    assert Course.of_notebook(SimpleNamespace(config=config), {"nbgrader": {"assignment": "hw1"}}) is not first
