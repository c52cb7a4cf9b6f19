"""``python -m grader adopt``: an existing nbgrader course, its own nbgrader_config.py, made to grade in the kit's
sandbox, its own settings kept; until then every command that grades or hands grades on refuses it in one line."""

import subprocess
import sys

import pytest

from grader.cli import VERBS, main
from grader.course import Course

from .conftest import ROOT
from .test_cli import one_line_refusal

STOCK_CONFIG = """c = get_config()
c.CourseDirectory.course_id = "stock_course"
c.CourseDirectory.source_directory = "masters"
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "data_cache"]
c.Autograde.exclude_overwriting = {"ps1": ["helpers.py"]}
c.Execute.timeout = 45
"""
WITHOUT_SANDBOX = {"demo", "adopt"}  # demo makes its own course; adopt is what the others ask for
REFUSING = sorted(set(VERBS) - WITHOUT_SANDBOX)


@pytest.fixture
def stock_course(tmp_path):
    """A course folder as stock nbgrader leaves it: its own nbgrader_config.py, not the kit's."""
    course = tmp_path / "stock course"
    course.mkdir()
    (course / "nbgrader_config.py").write_text(STOCK_CONFIG)
    return course


def adopt_message(course):
    return f"run `python -m grader adopt --course '{course}'` first"


def test_autograde_refuses_a_stock_course_in_one_line_that_says_to_adopt_it(stock_course):
    done = subprocess.run(
        [sys.executable, "-m", "grader", "autograde", "--course", str(stock_course)], capture_output=True, text=True
    )
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr == (
        f"python -m grader autograde: {stock_course / 'nbgrader_config.py'} grades with nbgrader's "
        f"own executor, not the kit's sandbox: {adopt_message(stock_course)}\n"
    )


@pytest.mark.parametrize("verb", REFUSING)
def test_every_command_that_grades_or_hands_grades_on_refuses_a_stock_course(stock_course, verb):
    before = sorted(stock_course.rglob("*"))
    argv = [verb] + (["download.zip"] if verb == "collect" else []) + ["--course", str(stock_course)]
    assert one_line_refusal(argv).endswith(adopt_message(stock_course))
    assert sorted(stock_course.rglob("*")) == before  # nothing written


def test_adopt_makes_a_stock_course_grade_in_the_sandbox_its_own_settings_kept(stock_course, capsys):
    main(["adopt", "--course", str(stock_course)])
    said = capsys.readouterr().out
    assert said.startswith(f"adopt: {stock_course / 'nbgrader_config.py'} now grades in the kit's sandbox")
    assert "a cell may run 45 s, a notebook 60 s" in said and said.count("\n") == 1
    config = Course(stock_course).config
    steps = [step.__name__ for step in config.Autograde.autograde_preprocessors]
    assert steps[0] == "SandboxExecute" and "Execute" not in steps and "AssignLatePenalties" in steps
    assert config.CourseDirectory.course_id == "stock_course"
    assert Course(stock_course).source == stock_course / "masters" / "self_attention"
    assert config.CourseDirectory.ignore == [
        ".ipynb_checkpoints",
        "*.pyc",
        "__pycache__",
        "feedback",
        "data_cache",
        "*.ipynb.invalid",
    ]
    assert config.Autograde.exclude_overwriting == {"ps1": ["helpers.py"]}
    assert config.SandboxExecute.unit_seconds == 45  # nbgrader's time for a cell, as the course set it
    assert (stock_course / "nbgrader_config.py.before-kit").read_text() == STOCK_CONFIG
    assert (stock_course / "nbgrader_config.py").read_text().startswith(STOCK_CONFIG)  # the course's file, as it was
    assert "run python -m grader release first" in one_line_refusal(["autograde", "--course", str(stock_course)])


def test_adopt_twice_changes_nothing_and_says_so(stock_course, capsys):
    main(["adopt", "--course", str(stock_course)])
    files = {path: path.read_bytes() for path in stock_course.iterdir()}
    capsys.readouterr()
    main(["adopt", "--course", str(stock_course)])
    assert capsys.readouterr().out == (
        f"adopt: {stock_course / 'nbgrader_config.py'} grades in the kit's sandbox already: nothing changed\n"
    )
    assert {path: path.read_bytes() for path in stock_course.iterdir()} == files


def test_adopt_keeps_a_backup_it_did_not_make(stock_course):
    (stock_course / "nbgrader_config.py.before-kit").write_text("# the instructor's\n")
    assert "nbgrader_config.py.before-kit is there already" in one_line_refusal(
        ["adopt", "--course", str(stock_course)]
    )
    assert (stock_course / "nbgrader_config.py").read_text() == STOCK_CONFIG
    assert (stock_course / "nbgrader_config.py.before-kit").read_text() == "# the instructor's\n"


def test_adopt_puts_the_kits_steps_in_a_courses_own_list_of_steps(stock_course):
    (stock_course / "nbgrader_config.py").write_text(
        STOCK_CONFIG + "c.Autograde.autograde_preprocessors = ['nbgrader.preprocessors.Execute', "
        "'nbgrader.preprocessors.SaveAutoGrades', 'nbgrader.preprocessors.ClearOutput']\n"
    )
    main(["adopt", "--course", str(stock_course)])
    steps = [getattr(step, "__name__", step) for step in Course(stock_course).config.Autograde.autograde_preprocessors]
    assert steps == [
        "SandboxExecute",
        "ValidNotebook",
        "SaveAutoGrades",
        "FlagForReview",
        "nbgrader.preprocessors.ClearOutput",
    ]


def test_adopt_keeps_and_names_a_value_the_course_sets_where_the_kit_has_its_own(stock_course, capsys):
    own = "nbgrader.exchange.default.collect.ExchangeCollect"
    (stock_course / "nbgrader_config.py").write_text(STOCK_CONFIG + f"c.ExchangeFactory.collect = {own!r}\n")
    main(["adopt", "--course", str(stock_course)])
    assert capsys.readouterr().out.endswith(
        "; kept the course's own c.ExchangeFactory.collect where the kit has its own\n"
    )
    assert Course(stock_course).config.ExchangeFactory.collect == own


def test_adopt_refuses_a_course_that_runs_notebooks_its_own_way(stock_course):
    (stock_course / "nbgrader_config.py").write_text(
        STOCK_CONFIG + "c.Autograde.autograde_preprocessors = ['nbgrader.preprocessors.SaveAutoGrades']\n"
    )
    assert "no nbgrader Execute step" in one_line_refusal(["adopt", "--course", str(stock_course)])
    assert not (stock_course / "nbgrader_config.py.before-kit").exists()


def test_the_kits_settings_on_nbgraders_defaults_are_the_kits_own_courses():
    from traitlets.config import Config

    from grader.course.config import use_the_kit

    assert use_the_kit(Config()) == []
    kit, own = Config(), Course(ROOT).config
    use_the_kit(kit)
    for section, name in [
        ("Autograde", "sanitize_preprocessors"),
        ("Autograde", "autograde_preprocessors"),
        ("GenerateAssignment", "preprocessors"),
        ("GenerateFeedback", "preprocessors"),
        ("GenerateFeedback", "exporter_class"),
        ("GenerateFeedback", "post_convert_hook"),
        ("ExchangeFactory", "collect"),
        ("CourseDirectory", "ignore"),
        ("HTMLExporter", "sanitize_html"),
        ("HTMLExporter", "filters"),
        ("HTMLExporter", "preprocessors"),
    ]:
        assert kit[section][name] == own[section][name], f"c.{section}.{name}"
    assert kit.Autograde.Exporter.optimistic_validation == own.Autograde.Exporter.optimistic_validation


def nbgrader_cell(**flags):
    return {"nbgrader": {"schema_version": 3, "locked": False, "solution": False, "grade": False, **flags}}


@pytest.mark.slow
def test_an_adopted_course_is_released_collected_and_graded_in_the_sandbox(stock_course, tmp_path, capsys):
    """A plain nbgrader notebook (an answer cell, a test cell), no exercise of the kit's, graded by the kit's judge."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    source = new_notebook(
        cells=[
            new_markdown_cell("# Problem set 1"),
            new_code_cell(
                "def square(x):\n    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION",
                metadata=nbgrader_cell(grade_id="square", solution=True),
            ),
            new_code_cell(
                "assert square(3) == 9",
                metadata=nbgrader_cell(grade_id="test_square", grade=True, points=2, locked=True),
            ),
        ]
    )
    source.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    (stock_course / "masters" / "ps1").mkdir(parents=True)
    nbformat.write(source, stock_course / "masters" / "ps1" / "p1.ipynb")
    course = ["--course", str(stock_course), "--assignment", "ps1"]
    main(["adopt", *course])
    main(["release", *course])
    for student, answer in [("alice", "x * x"), ("bob", "x + x")]:
        handed = nbformat.read(stock_course / "release" / "ps1" / "p1.ipynb", as_version=4)
        handed.cells[1].source = f"def square(x):\n    return {answer}"
        (tmp_path / "handins" / student).mkdir(parents=True)
        nbformat.write(handed, tmp_path / "handins" / student / "p1.ipynb")
    main(["collect", str(tmp_path / "handins"), *course])
    main(["autograde", "--workers", "1", *course])
    main(["export", "--path", str(tmp_path / "grades.csv"), *course])
    rows = (tmp_path / "grades.csv").read_text().splitlines()
    assert [row.split(",")[:7] for row in rows[1:]] == [
        ["alice", "p1.ipynb", "test_square", "test_square", "test", "2", "2"],
        ["bob", "p1.ipynb", "test_square", "test_square", "test", "0", "2"],
    ]
    assert all(",graded," in row for row in rows[1:])  # the kit's status: graded in the sandbox
