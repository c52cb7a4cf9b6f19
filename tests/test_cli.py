"""``python -m grader --help`` says, in plain words, what each command is for."""
import subprocess
import sys

from grader.cli import VERBS


def test_help_lists_every_command_in_plain_words():
    shown = subprocess.run([sys.executable, "-m", "grader", "--help"], capture_output=True, text=True,
                           check=True).stdout
    assert "``" not in shown and ":mod:" not in shown and "{" not in shown  # no docstring markup, no brace list
    assert "release, collect, autograde, feedback, export, report" in shown
    flat = " ".join(shown.split())
    for verb, (text, _) in VERBS.items():
        assert f"{verb} {text}" in flat, verb


def test_a_commands_help_says_what_it_is_for():
    shown = subprocess.run([sys.executable, "-m", "grader", "export", "--help"], capture_output=True, text=True,
                           check=True).stdout
    assert "Write the grades as a CSV file" in " ".join(shown.split())
