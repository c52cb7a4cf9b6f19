"""A one-line progress bar on stderr."""
import sys
import time


class Progress:
    def __init__(self, total, title, width=30):
        self.total, self.title, self.width, self.done = total, title, width, 0
        self.started = time.monotonic()
        self.live = sys.stderr.isatty()

    def step(self, label=""):
        self.done += 1
        filled = self.width * self.done // max(self.total, 1)
        line = (f"{self.title} [{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
                f"{time.monotonic() - self.started:5.1f} s {label}")
        if self.live:
            sys.stderr.write("\r" + line[:120].ljust(120))
        elif self.done == self.total:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def close(self):
        if self.live and self.total:
            sys.stderr.write("\n")
