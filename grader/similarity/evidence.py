"""What two answers have in common, marked token by token: the tokens of the fingerprints both hold that count
(some other students lack them), and the starter code as released, never counted."""

import dataclasses

from .fingerprints import located, starter
from .tokens import lexed, starter_tokens


@dataclasses.dataclass
class Side:
    student: str
    parts: list  # (text, kind) in order, the whole answer; kind: "match", "starter" (not counted) or ""


def evidence(first, second, stub, weights):
    """The two :class:`Side`\\ s of a pair of answers (``first``: (student, code)) to an exercise whose released
    cell is ``stub``; ``weights`` are the exercise's fingerprints that count (scoring.ExerciseScores.weights)."""
    given = starter(stub)
    read = [located(code, given) for _, code in (first, second)]
    common = set(read[0].prints) & set(read[1].prints) & set(weights)
    sides = []
    for (student, code), found in zip((first, second), read):
        marked = {found.tokens[n].start for h in common for begin, end in found.prints[h] for n in range(begin, end)}
        sides.append(Side(student, split(code, marked, starter_tokens(code, stub))))
    return sides


def split(code, marked, starter):
    """``code`` cut into (text, kind) parts on token boundaries: a token is "starter" if it starts in ``starter``,
    else "match" if in ``marked``; the spaces between two tokens of a kind on a line are of that kind too."""
    parts, at, previous = [], 0, None
    for start, end, _ in lexed(code):
        kind = "starter" if start in starter else "match" if start in marked else ""
        gap = code[at:start]
        _add(parts, gap, kind if gap.isspace() and "\n" not in gap and kind == previous else "")
        _add(parts, code[start:end], kind)
        at, previous = end, kind
    _add(parts, code[at:], "")
    return [tuple(part) for part in parts]


def _add(parts, text, kind):
    if not text:
        return
    if parts and parts[-1][1] == kind:
        parts[-1][0] += text
    else:
        parts.append([text, kind])
