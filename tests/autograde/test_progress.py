"""The progress bar tells the truth with several grading processes: it moves as each student is done, whichever
process graded them (their outputs are read as they come, not one process after another), and says how long is
left."""

import os
import subprocess
import sys

from grader.autograde import progress
from grader.autograde.progress import Progress, lines_as_they_come

SAYS = "import sys, time\nfor word, pause in {plan}:\n    time.sleep(pause)\n    print(word, flush=True)\n"


def test_lines_come_in_the_order_the_processes_say_them():
    """The first process says its second line last: read in turn, its two lines would come before the other's."""
    plans = [[("first-a", 0), ("first-b", 1.5)], [("second-a", 0.5)]]
    children = [
        subprocess.Popen([sys.executable, "-c", SAYS.format(plan=plan)], stdout=subprocess.PIPE, text=True)
        for plan in plans
    ]
    said = [(index, line.strip()) for index, line in lines_as_they_come([c.stdout for c in children])]
    assert said == [(0, "first-a"), (1, "second-a"), (0, "first-b")]
    assert all(child.wait() == 0 for child in children)


def test_the_bar_shows_at_once_and_estimates_the_time_left(monkeypatch, capsys):
    clock = iter([100.0, 100.0, 110.0, 110.0])  # started; drawn at once; one student done 10 s later
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    bar = Progress(4, "grading")
    assert "0/4" in capsys.readouterr().err  # before the first student is done
    bar.step("alice")
    line = capsys.readouterr().err
    assert "1/4" in line and "about 30 s left" in line and "alice" in line


def test_a_long_wait_is_said_in_minutes(monkeypatch):
    clock = iter([0.0, 120.0])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    bar = Progress(3, "grading")
    bar.done = 1
    assert "about 4 min left" in bar._line("")


def test_the_bar_fits_the_terminal_it_is_drawn_in(monkeypatch, capsys):
    """On an 80-column terminal a longer line wraps, and each ``\\r`` redraw then leaves a line behind (the bar was
    drawn 120 characters wide). The bar shrinks or goes first; the count and the time left stay."""
    clock = iter([0.0, 0.0, 10.0])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(progress.os, "get_terminal_size", lambda fd: os.terminal_size((80, 24)))
    bar = Progress(40, "recording grades with nbgrader (2 workers)")
    bar.step("a-student-with-a-long-name")
    drawn = capsys.readouterr().err.split("\r")[1:]
    assert len(drawn) == 2 and all(len(line) <= 79 for line in drawn), [len(line) for line in drawn]
    assert "1/40" in drawn[-1] and "about 6 min left" in drawn[-1]
