"""Every pair of students, per exercise and per notebook, scored by the fingerprints they share.

A pair's similarity is Sørensen–Dice on copydetect's fingerprint sets, 2|A∩B| / (|A| + |B|): 1 when the two
answers have the same fingerprints, 0 when they share none. Every pair of a class is scored at once: a 0/1
matrix of students by the fingerprints two or more of them hold, times its transpose, counts what each pair
shares (300 students: 44,850 pairs in one product), so no pair is compared one by one.
"""

import numpy as np


def shared_counts(prints):
    """(|A∩B| for every pair as an n×n matrix, |A| for each) of n fingerprint sets."""
    sizes = np.array([len(p) for p in prints], dtype=np.int64)
    if not sizes.sum():
        return np.zeros((len(prints), len(prints))), sizes
    hashes = np.fromiter((h for p in prints for h in p), dtype=np.int64, count=int(sizes.sum()))
    owners = np.repeat(np.arange(len(prints)), sizes)
    unique, column = np.unique(hashes, return_inverse=True)
    held_by = np.bincount(column, minlength=len(unique))
    shared = held_by[column] >= 2  # a fingerprint of one student alone adds to no pair
    columns = np.unique(column[shared], return_inverse=True)[1]
    matrix = np.zeros((len(prints), int(columns.max(initial=-1)) + 1), dtype=np.float32)
    matrix[owners[shared], columns] = 1
    return matrix @ matrix.T, sizes


def dice(counts, sizes):
    """Sørensen–Dice of every pair, from :func:`shared_counts` (0 where neither has a fingerprint)."""
    total = sizes[:, None] + sizes[None, :]
    return np.divide(2 * counts, total, out=np.zeros(counts.shape), where=total > 0)


def upper_pairs(n):
    """The indices (i, j), i < j, of every pair of n students."""
    return np.triu_indices(n, k=1)
