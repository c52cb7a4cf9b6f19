"""The report's figures, as PNG files."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from .words import title  # noqa: E402


def score_histogram(stats, path):
    percents = [100 * score / most if most else 0 for score, most in stats.totals.values()]
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.hist(percents, bins=range(0, 101, 10), edgecolor="black")
    axes.set(xlabel="total score (% of the maximum)", ylabel="students", title="Scores")
    _save(figure, path)


def pass_rates(stats, path):
    names = [e.name for e in stats.exercises]
    figure, axes = plt.subplots(figsize=(6, 0.3 * len(names) + 1.2))
    axes.barh(names, [100 * e.pass_rate for e in stats.exercises])
    axes.invert_yaxis()
    axes.set(xlabel="students with full marks (% of those graded)", xlim=(0, 100), title="Pass rate per exercise")
    _save(figure, path)


def misconceptions(stats, path):
    names = [title(name) for name in stats.misconceptions]
    figure, axes = plt.subplots(figsize=(9, 0.3 * len(names) + 1.2))
    axes.barh(names, list(stats.misconceptions.values()))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.invert_yaxis()
    axes.set(xlabel="students", title="Misconceptions")
    _save(figure, path)


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
