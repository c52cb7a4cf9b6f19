"""The latest version of each student's notebook; two versions that cannot be told apart are ambiguous.

Versions are ordered by submission time, then by name (a file with the released notebook's exact name
before a renamed copy of the same submission), then by the LMS's own order of files.
"""

import datetime
import itertools

EARLIEST = datetime.datetime.min


def latest(matched):
    """([(student, Found) kept], [(Found, why superseded)], [(Found, why ambiguous)]) from (student, Found) pairs."""
    kept, superseded, ambiguous = [], [], []
    key = lambda pair: (pair[0], pair[1].notebook)  # noqa: E731
    for (student, notebook), group in itertools.groupby(sorted(matched, key=key), key=key):
        versions = sorted((f for _, f in group), key=_order, reverse=True)
        newest = versions[0]
        ties = [f for f in versions[1:] if _order(f) == _order(newest)]
        if ties:
            for found in [newest, *ties]:
                ambiguous.append(
                    (
                        found,
                        f"ambiguous: {len(ties) + 1} files are {student}'s {notebook} and nothing tells which is newer",
                    )
                )
            continue
        kept.append((student, newest))
        superseded += [(f, f"superseded by {newest.source}") for f in versions[1:]]
    return kept, superseded, ambiguous


def _order(found):
    return (found.submitted_at or EARLIEST, found.renamed_from is None, found.version)
