"""Vectorised numpy bucket statistics: the reference the compiled kernels are tested against.

This was the engine's production path before the compiled kernels of
:mod:`wordle_core.kernels.buckets`; it stays here, independent of them (one ``bincount``
over ``row * n_patterns + pattern`` for large sets, per-row sort and run lengths for
small ones), so that every kernel change is checked against a second implementation.
"""

from __future__ import annotations

import numpy as np

from wordle_core.kernels.buckets import BucketStats, xlogx_table

_SMALL = 48  # candidate-set size below which the sort path beats bincount


def patterns_for(matrix: np.ndarray, guess_rows: np.ndarray | None, cands: np.ndarray) -> np.ndarray:
    """The (guesses x candidates) block of the pattern matrix."""
    if guess_rows is None:
        return np.asarray(matrix[:, cands])
    return np.asarray(matrix[np.asarray(guess_rows)][:, cands])


def stats_from_block(block: np.ndarray, n_patterns: int) -> BucketStats:
    """Statistics of each row of a (guesses x candidates) pattern block."""
    n_g, n = block.shape
    xlogx = xlogx_table(n)
    if n == 0:
        z = np.zeros(n_g)
        return BucketStats(0, z.astype(np.int64), z.astype(np.int64), z, z, z.astype(np.int64))
    keys = block.astype(np.int64) + (np.arange(n_g, dtype=np.int64) * n_patterns)[:, None]
    counts = np.bincount(keys.ravel(), minlength=n_g * n_patterns).reshape(n_g, n_patterns)
    worst = counts.argmax(axis=1)  # lowest pattern code among the largest buckets
    if n >= _SMALL:
        return BucketStats(
            n,
            np.count_nonzero(counts, axis=1),
            counts.max(axis=1),
            (counts.astype(np.float64) ** 2).sum(axis=1),
            xlogx[counts].sum(axis=1),
            worst,
        )
    s = np.sort(block, axis=1)
    starts = np.ones(s.shape, dtype=bool)
    starts[:, 1:] = s[:, 1:] != s[:, :-1]
    pos = np.flatnonzero(starts.ravel())
    lengths = np.diff(np.append(pos, n_g * n))
    row = pos // n
    buckets = np.bincount(row, minlength=n_g)
    first = np.concatenate(([0], np.cumsum(buckets)[:-1]))
    return BucketStats(
        n,
        buckets,
        np.maximum.reduceat(lengths, first),
        np.bincount(row, weights=lengths.astype(np.float64) ** 2, minlength=n_g),
        np.bincount(row, weights=xlogx[lengths], minlength=n_g),
        worst,
    )


def bucket_stats_numpy(
    matrix: np.ndarray, guess_rows: np.ndarray | None, cands: np.ndarray, n_patterns: int
) -> BucketStats:
    """The statistics in vectorised numpy (reference for tests and benchmarks)."""
    return stats_from_block(patterns_for(matrix, guess_rows, cands), n_patterns)


def distinct_counts_numpy(mt: np.ndarray, cands: np.ndarray, rows: np.ndarray, green: int
                          ) -> tuple[np.ndarray, np.ndarray]:
    """Per guess column ``rows`` of ``mt`` (answers x guesses): the number of distinct
    patterns over ``cands`` and whether one is ``green`` (a sort, column by column)."""
    block = np.sort(mt[np.ix_(cands, rows)].astype(np.int64), axis=0)
    distinct = 1 + (np.diff(block, axis=0) != 0).sum(axis=0)
    return distinct, (block == green).any(axis=0)
