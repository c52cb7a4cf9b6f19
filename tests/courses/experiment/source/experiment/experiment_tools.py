"""The course's own helpers, shipped beside the notebook: loading the experiment and checking answers."""
import pathlib

import numpy as np

DATA = pathlib.Path("data")


def load_experiment(folder=DATA):
    """(times, participants): response times in ms, a row per participant, and the participants' ids as a
    numpy array of strings, read from the notebook's data folder."""
    times = np.loadtxt(pathlib.Path(folder) / "times.csv", delimiter=",", comments="#")
    participants = np.array((pathlib.Path(folder) / "participants.txt").read_text().split())
    return times, participants


def check_slow_counts(count_slow, times, threshold):
    """Call the student's ``count_slow`` and compare it with a count made here; return the student's counts."""
    counts = np.asarray(count_slow())
    expected = (times > threshold).sum(axis=1)
    assert counts.shape == expected.shape, f"expected one count per participant, got shape {counts.shape}"
    assert (counts == expected).all(), f"expected {expected.tolist()}, got {counts.tolist()}"
    return counts
