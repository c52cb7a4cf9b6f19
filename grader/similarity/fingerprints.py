"""copydetect's fingerprints of an answer, with the starter code taken out, and its tokens for equality.

copydetect (winnowing, Schleimer, Wilkerson and Aiken 2003) tokenizes the code with Pygments and writes every
variable name as ``V``, every function name as ``F``, every string as ``S``, drops comments and spaces; it hashes
the k-grams of that text and keeps the smallest hash of every window. As copydetect's own detector does, the
starter code's k-grams (every one, a window of 1) are boilerplate: removed from each answer's fingerprints.
"""

import functools
import io
import multiprocessing
import os
import re

import numpy as np
from copydetect import CodeFingerprint
from pygments import token
from pygments.lexers import PythonLexer

# Noise threshold and window: a match shorter than K characters of filtered code is never seen, one of
# K + WINDOW - 1 characters always is. The answers are short (a line of filtered code is 10 to 30 characters).
K = 12
WINDOW = 4
WORKERS = 4  # processes that fingerprint at once, at most (Pygments' tokenizing is most of the time)
PARALLEL_FROM = 500  # distinct answers: fewer are fingerprinted in this process, sooner than starting others
LEXER = PythonLexer()
SPACE = re.compile(r"\s+")


def boilerplate(stub):
    """Every k-gram hash of the released stub's code."""
    return np.array(sorted(fingerprint(stub, window=1).hashes), dtype=np.int64)


def fingerprint(code, starter=(), window=WINDOW):
    """copydetect's :class:`CodeFingerprint` of ``code``, without the hashes in ``starter``."""
    return CodeFingerprint("answer.py", K, window, boilerplate=starter, language="python", fp=io.StringIO(code))


def fingerprint_all(answers, starters):
    """{(exercise, code): fingerprint} of each distinct ``(exercise, code)`` of ``answers``, without the hashes of
    ``starters[exercise]``; on every core, in processes forked from this one (a forked process hashes text as
    this one does: copydetect's hashes are Python's ``hash``, seeded per interpreter)."""
    answers = sorted(set(answers))
    jobs = [(code, starters[exercise]) for exercise, code in answers]
    workers = min(len(os.sched_getaffinity(0)), WORKERS)
    if workers > 1 and len(jobs) >= PARALLEL_FROM:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            made = pool.starmap(fingerprint, jobs, chunksize=max(1, len(jobs) // (8 * workers)))
    else:
        made = [fingerprint(*job) for job in jobs]
    return dict(zip(answers, made))


@functools.lru_cache(maxsize=4096)
def tokens(code):
    """The code's tokens, comments, docstrings and spacing aside: two answers with the same tokens are the same
    code, whatever their layout."""
    kept = []
    for kind, text in LEXER.get_tokens(code):
        if kind in token.Comment or kind in token.Literal.String.Doc or not text.strip():
            continue
        kept.append(SPACE.sub(" ", text.strip()))
    return tuple(kept)
