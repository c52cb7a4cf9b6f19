"""The histogram of a notebook's pair scores, drawn as inline SVG: :data:`BINS` bars from 0 to the highest score
(or the flag, if higher), on a logarithmic scale (a class's pairs are nearly all unremarkable; the few that
stand out would not show on a linear one), and a line where the flag starts."""

import dataclasses
import math

import numpy as np

BINS = 20
WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 640, 220, 48, 40, 24
BAR = (WIDTH - LEFT - 8) / BINS


@dataclasses.dataclass
class Bar:
    low: float
    high: float
    count: int
    x: float
    y: float
    height: float


@dataclasses.dataclass
class Histogram:
    bars: list
    flag_x: float  # where the flag starts, in the SVG's coordinates


def histogram(scores, flag_above):
    """The :class:`Histogram` of ``scores``, flagged above ``flag_above``, placed in the SVG's coordinates."""
    top = max(float(np.max(scores, initial=0)), flag_above) or 1.0
    counts, edges = np.histogram(np.clip(scores, 0, top), bins=BINS, range=(0, top))
    tallest = math.log10(max(int(counts.max(initial=0)), 1) + 1)
    drawn = []
    for n, count in enumerate(counts):
        height = (HEIGHT - BOTTOM - TOP) * math.log10(int(count) + 1) / tallest if tallest else 0
        drawn.append(
            Bar(float(edges[n]), float(edges[n + 1]), int(count), LEFT + n * BAR, HEIGHT - BOTTOM - height, height)
        )
    return Histogram(drawn, LEFT + BINS * BAR * flag_above / top)
