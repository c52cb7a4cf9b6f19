"""The histogram of a notebook's pairwise similarities, drawn as inline SVG: a bar per 5 %, on a logarithmic
scale (a class's pairs are nearly all dissimilar; the few similar ones would not show on a linear one)."""

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


def bars(scores):
    """A :class:`Bar` per 5 % of similarity, placed in the SVG's coordinates."""
    counts, edges = np.histogram(np.clip(scores, 0, 1), bins=BINS, range=(0, 1))
    top = math.log10(max(int(counts.max(initial=0)), 1) + 1)
    drawn = []
    for n, count in enumerate(counts):
        height = (HEIGHT - BOTTOM - TOP) * math.log10(int(count) + 1) / top if top else 0
        drawn.append(
            Bar(float(edges[n]), float(edges[n + 1]), int(count), LEFT + n * BAR, HEIGHT - BOTTOM - height, height)
        )
    return drawn
