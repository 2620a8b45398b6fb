"""A compiled bucket-statistics kernel for live play: every guess scored in one pass.

:func:`wordle_core.kernels.partition.partition_stats` builds a ``guesses x candidates`` block
and a ``bincount`` over it; at the start of a game (12,972 guesses x 2,315 answers)
that is ~30 M int64 keys and ~220 ms. The interactive commands need that under
150 ms, and the evil host / evil search need one more fact per guess: *which*
pattern holds the most candidates. This numba kernel reads the matrix row by row,
counts buckets in a small per-thread array (threads only for big
blocks: below ~1 M cells waking them costs more than it saves) and clears only the cells it touched, so
it touches each matrix cell once and allocates nothing per guess.

It returns the same :class:`~wordle_core.kernels.partition.PartitionStats` as the numpy
kernel (tests compare the two), plus ``worst``: per guess, the pattern of the largest
bucket, ties to the lowest pattern code (the evil host's documented rule).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from wordle_core.kernels.partition import PartitionStats, _xlogx


@njit(cache=True, nogil=True)
def _rows(mat, rows, cands, xlogx, lo, hi, counts, buckets, largest, sum_sq, sum_xl, worst):
    """Statistics of ``rows[lo:hi]``; ``counts`` is all zeros on entry and on exit."""
    n = cands.shape[0]
    n_pat = counts.shape[0]
    for i in range(lo, hi):
        r = rows[i]
        for j in range(n):
            counts[mat[r, cands[j]]] += 1
        nb = 0
        big = 0
        big_pat = n_pat
        sq = 0.0
        xl = 0.0
        for j in range(n):
            p = mat[r, cands[j]]
            c = counts[p]
            if c > 0:
                nb += 1
                sq += c * c
                xl += xlogx[c]
                if c > big or (c == big and p < big_pat):
                    big = c
                    big_pat = p
                counts[p] = 0
        buckets[i] = nb
        largest[i] = big
        sum_sq[i] = sq
        sum_xl[i] = xl
        worst[i] = big_pat


@njit(parallel=True, cache=True, nogil=True)
def _parallel(mat, rows, cands, n_pat, xlogx, buckets, largest, sum_sq, sum_xl, worst):
    n_rows = rows.shape[0]
    n_chunks = min(n_rows, 64)
    for chunk in prange(n_chunks):
        counts = np.zeros(n_pat, np.int32)
        lo = chunk * n_rows // n_chunks
        hi = (chunk + 1) * n_rows // n_chunks
        _rows(mat, rows, cands, xlogx, lo, hi, counts, buckets, largest, sum_sq, sum_xl, worst)


_PARALLEL_CELLS = 1_000_000  # below this many matrix cells, waking threads costs more than it saves


@dataclass(frozen=True)
class SplitStats(PartitionStats):
    """:class:`PartitionStats` plus the pattern of each guess's largest bucket."""

    worst: np.ndarray = None  # type: ignore[assignment]


def split_stats(
    matrix: np.ndarray, rows: np.ndarray | None, cands: np.ndarray, n_patterns: int
) -> SplitStats:
    """Bucket statistics of every guess row in ``rows`` (default all) over ``cands``."""
    if rows is None:
        rows = np.arange(matrix.shape[0], dtype=np.int64)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    n_g = rows.shape[0]
    buckets = np.zeros(n_g, np.int64)
    largest = np.zeros(n_g, np.int64)
    sum_sq = np.zeros(n_g, np.float64)
    sum_xl = np.zeros(n_g, np.float64)
    worst = np.zeros(n_g, np.int64)
    if n_g and cands.shape[0]:
        mat = np.asarray(matrix)
        xlogx = _xlogx(int(cands.shape[0]))
        if n_g * cands.shape[0] >= _PARALLEL_CELLS:
            _parallel(mat, rows, cands, n_patterns, xlogx, buckets, largest, sum_sq, sum_xl, worst)
        else:
            _rows(mat, rows, cands, xlogx, 0, n_g, np.zeros(n_patterns, np.int32),
                  buckets, largest, sum_sq, sum_xl, worst)
    return SplitStats(int(cands.shape[0]), buckets, largest, sum_sq, sum_xl, worst)


@njit(cache=True, nogil=True)
def _first_perfect(mat, rows, cands, n_pat):
    """Index of the first row that gives every candidate its own pattern, else -1.

    Stops reading a row at its first repeated pattern, which for most guesses comes
    after a handful of candidates: this is the "can it be won in two?" test of the evil
    search, far cheaper than full statistics.
    """
    n = cands.shape[0]
    seen = np.zeros(n_pat, np.uint8)
    for i in range(rows.shape[0]):
        r = rows[i]
        ok = True
        stop = n
        for j in range(n):
            p = mat[r, cands[j]]
            if seen[p]:
                ok = False
                stop = j
                break
            seen[p] = 1
        for j in range(stop):
            seen[mat[r, cands[j]]] = 0
        if ok:
            return i
    return -1


def first_perfect_split(matrix: np.ndarray, rows: np.ndarray, cands: np.ndarray, n_patterns: int) -> int:
    """Position in ``rows`` of the first guess splitting ``cands`` into singletons, or -1."""
    if cands.shape[0] > n_patterns:
        return -1
    return int(_first_perfect(np.asarray(matrix), np.ascontiguousarray(rows, dtype=np.int64),
                              np.ascontiguousarray(cands, dtype=np.int64), n_patterns))
