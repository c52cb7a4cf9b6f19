"""What two similar answers have in common, marked: copydetect's ``compare_files`` on their fingerprints gives
the matching slices of each answer's own text."""

import dataclasses
import difflib

from copydetect import compare_files

from .fingerprints import boilerplate, fingerprint


@dataclasses.dataclass
class Side:
    student: str
    parts: list  # (text, kind) in order, the whole answer; kind: "match", "starter" (not counted) or ""
    share: float  # copydetect's similarity: the share of this answer's fingerprinted code that matches


def evidence(first, second, stub):
    """The two :class:`Side`\\ s of a pair of answers (``first``: (student, code)), the starter code ``stub``
    left out of the match."""
    starter = boilerplate(stub)
    prints = [fingerprint(code, starter) for _, code in (first, second)]
    _, shares, slices = compare_files(*prints)
    return [
        Side(student, split(code, cut, starter_spans(code, stub)), float(share))
        for (student, code), cut, share in zip((first, second), slices, shares)
    ]


def starter_spans(code, stub, shortest=8):
    """Where ``code`` holds the starter code as released: (start, end) of each run of ``shortest`` characters
    or more that the stub has too, in order."""
    blocks = difflib.SequenceMatcher(None, stub, code, autojunk=False).get_matching_blocks()
    return [(b.b, b.b + b.size) for b in blocks if b.size >= shortest]


def split(code, slices, starter):
    """``code`` cut into (text, kind) parts: the starter code's spans, then copydetect's matching slices (a 2×N
    array of starts and ends, which may reach into the starter code: its k-grams span it), the rest."""
    kinds = [""] * len(code)
    for start, end in zip(*slices) if len(slices) else ():
        kinds[max(int(start), 0) : int(end)] = ["match"] * len(kinds[max(int(start), 0) : int(end)])
    for start, end in starter:
        kinds[start:end] = ["starter"] * (end - start)
    parts = []
    for n, kind in enumerate(kinds):
        if parts and parts[-1][1] == kind:
            parts[-1][0] += code[n]
        else:
            parts.append([code[n], kind])
    return [tuple(part) for part in parts]
