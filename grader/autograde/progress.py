"""A one-line progress bar on stderr, with an estimate of the time left; and the lines of several grading
processes as each one says them, so that the bar moves with every student whoever graded them."""

import os
import queue
import sys
import threading
import time


class Progress:
    def __init__(self, total, title, width=30):
        self.total, self.title, self.width, self.done = total, title, width, 0
        self.started = time.monotonic()
        self.live = sys.stderr.isatty()
        if self.live and total:
            self._draw("starting")  # at once: the first student may take a while

    def step(self, label=""):
        self.done += 1
        if self.live:
            self._draw(label)
        elif self.done == self.total:
            sys.stderr.write(self._line(label) + "\n")
            sys.stderr.flush()

    def _draw(self, label):
        """The line, within the terminal's width: a longer one wraps, and the next ``\\r`` would leave it behind.
        The student's name at the end is cut first; the bar is as wide as the longest line without it allows (the
        same all along: it does not come and go as the estimate's words change), or not drawn where that leaves it
        fewer than 5 columns."""
        columns, elapsed = min(120, _columns(sys.stderr) - 1), time.monotonic() - self.started
        longest = f"{self.title} {self.total}/{self.total} {elapsed:5.1f} s, about 88 min left "
        bar = min(self.width, columns - len(longest) - 3)  # 3: " [" and "]"
        bar = bar if bar >= 5 else 0
        sys.stderr.write("\r" + self._line(label, bar, elapsed)[:columns].ljust(columns))
        sys.stderr.flush()

    def _line(self, label, width=None, elapsed=None):
        width = self.width if width is None else width
        filled = width * self.done // max(self.total, 1)
        elapsed = time.monotonic() - self.started if elapsed is None else elapsed
        drawn = f" [{'#' * filled}{'.' * (width - filled)}]" if width else ""
        return f"{self.title}{drawn} {self.done}/{self.total} {elapsed:5.1f} s{self._left(elapsed)} {label}"

    def _left(self, elapsed):
        """', about 2 min left': the mean time per student so far, times the students left."""
        if not self.done or self.done >= self.total:
            return ""
        seconds = elapsed / self.done * (self.total - self.done)
        return (
            f", about {round(seconds / 60)} min left" if seconds >= 90 else f", about {max(1, round(seconds))} s left"
        )

    def close(self):
        if self.live and self.total:
            sys.stderr.write("\n")


def _columns(stream):
    """The width of the terminal ``stream`` writes to (80 where it cannot be read or is not set)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80  # a terminal not sized yet says 0
    except (OSError, ValueError):
        return 80


def lines_as_they_come(streams):
    """(index, line) from each of ``streams`` (text files: grading processes' outputs) in the order they are said,
    whichever stream says them; ends when every stream has ended."""
    said = queue.Queue()

    def read(index, stream):
        for line in stream:
            said.put((index, line))
        said.put((index, None))

    for index, stream in enumerate(streams):
        threading.Thread(target=read, args=(index, stream), daemon=True).start()
    open_streams = len(streams)
    while open_streams:
        index, line = said.get()
        if line is None:
            open_streams -= 1
        else:
            yield index, line
