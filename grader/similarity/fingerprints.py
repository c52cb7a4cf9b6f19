"""An answer's fingerprints: what two answers can have in common, each with the tokens it covers.

Two kinds, hashed with BLAKE2b (the same number in every process and on every run, unlike Python's ``hash``):

- every k-gram of :data:`K` normalised tokens (grader/similarity/tokens.py), as in winnowing (Schleimer,
  Wilkerson and Aiken 2003, "Winnowing: local algorithms for document fingerprinting"), with a window of 1:
  every k-gram is kept, the answers being short;
- every statement in canonical form (grader/similarity/canonical.py), which a copy's renaming, reordering and
  loops rewritten as comprehensions leave as it is.

As in MOSS and copydetect, the starter code is boilerplate: a fingerprint that the released cell has too is
dropped from the answer's.
"""

import bisect
import dataclasses
import hashlib
import multiprocessing
import os

from .canonical import statements
from .tokens import starter_tokens, tokens

K = 5  # tokens in a k-gram: `out = torch.zeros_like(x)` is 8
WORKERS = 4  # processes that read answers at once, at most
PARALLEL_FROM = 500  # distinct answers: fewer are read in this process, sooner than starting others


@dataclasses.dataclass(frozen=True)
class Answer:
    """One answer read, as the comparison needs it (small: it comes back from another process)."""

    words: tuple  # its tokens as written: the same words, the same code whatever its layout and comments
    kgrams: frozenset  # its fingerprints of each kind, the starter code's aside
    statements: frozenset
    own: int  # characters of normalised code that its k-grams cover
    form: int  # a hash of its canonical statements (of its normalised tokens if it does not parse)


@dataclasses.dataclass(frozen=True)
class Located:
    """One answer's tokens and fingerprints, each with the tokens it covers: {hash: ((first, after the last),)}."""

    tokens: tuple
    prints: dict
    kgrams: frozenset  # those of the prints that are k-grams


def stable_hash(kind, parts):
    digest = hashlib.blake2b("\x1f".join((kind, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclasses.dataclass(frozen=True)
class Starter:
    """The released cell of an exercise, whose code is never counted."""

    stub: str
    prints: frozenset  # its fingerprints


def starter(stub):
    return Starter(stub, frozenset(_prints(stub)[0].prints))


def located(code, given=Starter("", frozenset())):
    """The :class:`Located` fingerprints of ``code``, without the starter code ``given``'s: those the released cell
    has too, and the k-grams with a token of the starter code in them (grader/similarity/tokens.py)."""
    return _located(code, given)[0]


def answer(code, given=Starter("", frozenset())):
    """The :class:`Answer` of ``code``, the starter code ``given`` aside."""
    found, form = _located(code, given)
    covered = {n for h in found.kgrams for first, end in found.prints[h] for n in range(first, end)}
    return Answer(
        tuple(t.text for t in found.tokens),
        found.kgrams,
        frozenset(found.prints) - found.kgrams,
        sum(len(found.tokens[n].normal) for n in covered),
        form,
    )


def _located(code, given):
    found, form = _prints(code)
    starts = starter_tokens(code, given.stub)
    toks = found.tokens
    ours = {
        h: spans
        for h, spans in found.prints.items()
        if h not in given.prints
        and not (h in found.kgrams and any(toks[n].start in starts for first, end in spans for n in range(first, end)))
    }
    return Located(toks, ours, found.kgrams & frozenset(ours)), form


def _prints(code):
    """(the :class:`Located` fingerprints of ``code``, starter code and all; the hash of its canonical form)."""
    toks = tokens(code)
    normal = [t.normal for t in toks]
    found = {}
    for n in range(len(toks) - K + 1):
        found.setdefault(stable_hash("k", normal[n : n + K]), []).append((n, n + K))
    kgrams = frozenset(found)
    canonical = statements(code)
    starts = [t.start for t in toks]
    for statement in canonical or ():
        runs = [_inside(toks, starts, start, end) for start, end in statement.spans]
        runs = [run for run in runs if run[0] < run[1]]
        if runs:
            found.setdefault(stable_hash("s", [statement.form]), []).extend(runs)
    form = stable_hash("f", sorted(s.form for s in canonical) if canonical is not None else normal)
    return Located(toks, {h: tuple(spans) for h, spans in found.items()}, kgrams), form


def _inside(toks, starts, start, end):
    """(first token, after the last) of the tokens within ``start`` and ``end`` in the text."""
    first = bisect.bisect_left(starts, start)
    last = first
    while last < len(toks) and toks[last].end <= end:
        last += 1
    return first, last


def read_all(answers, starters):
    """{(exercise, code): Answer} of each distinct ``(exercise, code)`` of ``answers``, without the starter code
    ``starters[exercise]``; on every core, in processes forked from this one, past :data:`PARALLEL_FROM`."""
    answers = sorted(set(answers))
    jobs = [(code, starters[exercise]) for exercise, code in answers]
    workers = min(len(os.sched_getaffinity(0)), WORKERS)
    if workers > 1 and len(jobs) >= PARALLEL_FROM:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            made = pool.starmap(answer, jobs, chunksize=max(1, len(jobs) // (8 * workers)))
    else:
        made = [answer(*job) for job in jobs]
    return dict(zip(answers, made))
