"""The report's figures, as PNG files; each drawing returns its text alternative (the page's alt text): what the
figure shows, and where the page gives its numbers."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from .words import exercise_label, notebook_title, title  # noqa: E402


def score_histogram(stats, path):
    """The totals of the students who handed in something (one who handed in nothing is not a real zero)."""
    percents = [100 * score / most if most else 0 for score, most in stats.handed_in.values()]
    figure, axes = plt.subplots(figsize=(6, 3.5))
    counts, edges, _ = axes.hist(percents, bins=range(0, 101, 10), edgecolor="black")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set(
        xlabel="total score (% of the maximum)",
        ylabel="students",
        title=f"Scores of the {len(percents)} students who handed in work",
    )
    _save(figure, path)
    bins = "; ".join(f"{low:.0f} to {low + 10:.0f}%: {n:.0f}" for low, n in zip(edges, counts) if n)
    return (
        "Histogram of the total scores of the students who handed in work, by tenth of the maximum "
        f"({bins or 'no score'}). The table Students below gives each score."
    )


def pass_rates(stats, path):
    """A bar per exercise, named and coloured by its notebook."""
    names = [exercise_label(e) for e in stats.exercises]
    notebooks = list(dict.fromkeys(e.notebook for e in stats.exercises))
    colours = {nb: f"C{n % 10}" for n, nb in enumerate(notebooks)}
    figure, axes = plt.subplots(figsize=(10, 0.3 * len(names) + 1.6))
    for notebook in notebooks:
        shown = [(name, e) for name, e in zip(names, stats.exercises) if e.notebook == notebook]
        axes.barh(
            [name for name, _ in shown],
            [100 * e.pass_rate for _, e in shown],
            color=colours[notebook],
            label=notebook_title(notebook, stats.titles) if notebook else None,
        )
    axes.invert_yaxis()
    if len(notebooks) > 1:
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", title="notebook")
    axes.set(xlabel="students with full marks (% of those graded)", xlim=(0, 100), title="Pass rate per exercise")
    _save(figure, path)
    return (
        "Bar chart of the pass rate of each exercise: the share of the students graded on it who got full marks. "
        "The tables under Exercises below give each one."
    )


def misconceptions(stats, path):
    """A bar per misconception: how many students made it, most first."""
    names = [title(name) for name in stats.misconceptions]
    figure, axes = plt.subplots(figsize=(9, 0.3 * len(names) + 1.2))
    axes.barh(names, list(stats.misconceptions.values()))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.invert_yaxis()
    axes.set(xlabel="students", title="Misconceptions")
    _save(figure, path)
    return (
        "Bar chart of how many students made each misconception, most first. The table Misconceptions below "
        "gives each count."
    )


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
