"""``python -m grader --help`` says, in plain words, what each command is for."""

import shutil
import socket
import subprocess
import sys

import pytest

from grader.cli import VERBS, main

from .conftest import ROOT


def test_help_lists_every_command_in_plain_words():
    shown = subprocess.run(
        [sys.executable, "-m", "grader", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "``" not in shown and ":mod:" not in shown and "{" not in shown  # no docstring markup, no brace list
    assert "release, collect, autograde, feedback, export, report" in shown
    flat = " ".join(shown.split())
    for verb, (text, _) in VERBS.items():
        assert f"{verb} {text}" in flat, verb


def test_a_commands_help_says_what_it_is_for():
    shown = subprocess.run(
        [sys.executable, "-m", "grader", "export", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "Write the grades as a CSV file" in " ".join(shown.split())


def one_line_refusal(argv):
    """What ``python -m grader`` says when it refuses: one line, a non-zero exit, no traceback."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    message = stopped.value.code
    assert isinstance(message, str) and "\n" not in message and message.startswith(f"python -m grader {argv[0]}: ")
    return message


@pytest.mark.parametrize("verb", ["release", "collect", "autograde", "feedback", "export", "report"])
def test_every_command_refuses_a_folder_that_is_not_a_course_in_one_line(tmp_path, verb):
    argv = [verb] + (["download.zip"] if verb == "collect" else []) + ["--course", str(tmp_path)]
    assert "is not an nbgrader course" in one_line_refusal(argv)
    assert not any(tmp_path.iterdir())  # nothing written in the wrong folder
    assert "no such folder" in one_line_refusal(argv[:-1] + [str(tmp_path / "nowhere")])


@pytest.mark.parametrize(
    "verb, says",
    [
        ("release", "no notebook of self_attention in"),
        ("collect", "run python -m grader release first"),
        ("autograde", "run python -m grader release first"),
        ("feedback", "run python -m grader autograde first"),
        ("export", "run python -m grader release first"),
        ("report", "run python -m grader release first"),
    ],
)
def test_every_command_says_what_the_course_lacks(tmp_path, verb, says):
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    argv = [verb] + (["download.zip"] if verb == "collect" else []) + ["--course", str(tmp_path)]
    assert says in one_line_refusal(argv)


@pytest.mark.parametrize("verb", ["autograde", "regrade"])
@pytest.mark.parametrize("given", ["0", "-2", "two"])
def test_workers_is_refused_unless_a_whole_number_of_one_or_more(tmp_path, capsys, verb, given):
    """Before, 0 meant one per core and -2 graded nobody, each student "not graded: every grading process
    stopped" although none had started."""
    with pytest.raises(SystemExit) as stopped:
        main([verb, "--workers", given, "--course", str(tmp_path)])
    assert stopped.value.code == 2
    assert f"argument --workers: expected a whole number, 1 or more; got '{given}'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_collect_refuses_a_bad_download_roster_or_time_zone_in_one_line(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(ROOT / "exercises" / "self_attention", course / "exercises" / "self_attention")
    shutil.copy(ROOT / "nbgrader_config.py", course)
    download = tmp_path / "handins"
    download.mkdir()
    (tmp_path / "names.csv").write_text("name,email\nJane,j@example.org\n")
    (tmp_path / "latin1.csv").write_bytes("id,first_name\nzoe,Zo\xeb\n".encode("latin-1"))
    collect = ["collect", str(download), "--course", str(course)]
    assert "no such file or folder" in one_line_refusal(["collect", str(tmp_path / "x.zip"), "--course", str(course)])
    assert "neither a folder nor a zip" in one_line_refusal(
        ["collect", str(tmp_path / "names.csv"), "--course", str(course)]
    )
    assert "no roster file" in one_line_refusal(collect + ["--roster", str(tmp_path / "roster.csv")])
    assert "has no id column" in one_line_refusal(collect + ["--roster", str(tmp_path / "names.csv")])
    assert "not a CSV file in UTF-8" in one_line_refusal(collect + ["--roster", str(tmp_path / "latin1.csv")])
    assert "unknown time zone 'Mars/Base'" in one_line_refusal(collect + ["--timezone", "Mars/Base"])


def test_a_failing_nbgrader_command_is_reported_without_the_kits_traceback(tmp_path):
    shutil.copy(ROOT / "nbgrader_config.py", tmp_path)
    (tmp_path / "solutions" / "self_attention").mkdir(parents=True)
    (tmp_path / "solutions" / "self_attention" / "01_broken.ipynb").write_text("not json")
    with pytest.raises(SystemExit) as stopped:
        main(["release", "--course", str(tmp_path)])
    assert stopped.value.code.startswith("python -m grader release: nbgrader generate_assignment self_attention")
    assert "does not appear to be JSON" in stopped.value.code


def test_every_command_is_a_function_of_the_api():
    from grader import api

    assert sorted(api.__all__) == sorted(VERBS)
    assert all(callable(getattr(api, verb)) and getattr(api, verb).__name__ == verb for verb in VERBS)


def closed_port():
    """A port on 127.0.0.1 that nothing listens on."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return free.getsockname()[1]


@pytest.mark.parametrize("verb", ["collect", "autograde", "feedback", "export", "report", "regrade", "passback"])
def test_every_command_says_in_one_line_that_the_gradebook_server_cannot_be_reached(tmp_path, verb):
    shutil.copytree(ROOT / "exercises" / "self_attention", tmp_path / "exercises" / "self_attention")
    config = (ROOT / "nbgrader_config.py").read_text()
    url = f"postgresql+psycopg://kit:secret@127.0.0.1:{closed_port()}/course"
    (tmp_path / "nbgrader_config.py").write_text(f"{config}\nc.CourseDirectory.db_url = {url!r}\n")
    before = sorted(tmp_path.rglob("*"))
    argv = [verb] + (["download.zip"] if verb == "collect" else []) + ["--course", str(tmp_path)]
    message = one_line_refusal(argv)
    assert "cannot reach the course's gradebook postgresql+psycopg://kit:***@127.0.0.1:" in message
    assert "Connection refused" in message and "secret" not in message
    assert sorted(tmp_path.rglob("*")) == before  # nothing written
