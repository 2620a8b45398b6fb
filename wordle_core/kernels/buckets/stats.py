"""Bucket statistics: the full numbers every partition score is made of.

* :func:`bucket_stats` - per guess row: number of buckets, largest bucket (and its
  pattern, ties to the lowest code: the evil host's rule), sum of squared sizes and
  sum of ``s log2 s``; the derived entropy / expected size / average eliminated are
  properties of :class:`BucketStats`;
* :func:`weighted_stats` - the same over bucket *masses* (answer-prior weights):
  entropy, sum of squared masses, largest mass;
* :func:`first_perfect_split` - the first guess that gives every candidate its own
  pattern (a perfect split), stopping each guess at its first repeated pattern;
* :func:`bucket_counts` (one guess's counts by pattern) and :func:`split_by_pattern`
  (one guess's candidates grouped by pattern).

How it is computed: the **blocked kernel** reads the answers x guesses
(transposed) matrix, :func:`transposed`, so each candidate's row of patterns is
contiguous. Guesses are taken in blocks of :data:`BLOCK` (a counts table of
``BLOCK x patterns`` 16-bit counters fits the 32 KiB L1 cache); for each block it makes
one sequential pass over the candidates' row segments to count and a second to read
and clear the touched counters, so the table is reused, never re-zeroed and nothing is
allocated per guess. Big blocks of work are shared between the cores with numba
``prange`` (each thread owns a table); results do not depend on the number of threads.
Few guess rows (a review's two rows, one suggestion, or a sparse subset: at most a
sixteenth of all rows, whose scattered columns the blocked kernel would gather) use the
row kernel instead, which reads the guesses x answers matrix directly. Both kernels add up each guess's
``s log2 s`` terms in the same order (candidate order, at each bucket's first visit),
so every number is bit-identical whichever kernel ran.

Compiled primitives for other kernels (``wordle_core.kernels.exact``, ``.hard`` and
``.greedy``): :func:`count_block` / :func:`stats_block` (the two passes of the blocked
kernel over one block of guesses and a reusable counts table from :func:`counts_table`),
:func:`row_is_perfect` (perfect-split test of one guess with a stamp array, no
clearing), :func:`split_codes` (counting-sort split of items by their pattern codes).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, prange

from wordle_core.errors import TooManyPatternsError
from wordle_core.kernels.buckets.counts import (
    PRUNED_PAIRS_MAX,
    distinct_pairs_kernel,  # from Python: the cached one
)

BLOCK = 64  # guesses per block: 64 x 243 counters (8 or 16 bit) + first-visit lists, about L1 size
PERFECT_ROW_SCAN = 128  # at most this many rows: the perfect-split scan reads rows directly
ROW_KERNEL_ROWS = 16  # at most this many guess rows: the row kernel (no transposed copy)
SPARSE_ROWS = 16  # ... or at most 1/16 of all rows: a gather of scattered columns costs more
_PARALLEL_CELLS = 400_000  # rows x candidates from which the blocked kernel uses threads
_TRANSPOSE_MAX_BYTES = 256 << 20  # larger matrices are read row by row (no second copy in memory)
COUNT_PATTERNS_MAX = 3**8  # greedy counts buckets by count_buckets up to this many patterns (8-letter words)
MAX_PATTERNS = 3**14  # feedback patterns the per-pattern tables support: words of up to 14 letters
# Guess rows and candidate ids reach the kernels as int32, the exact search's and the
# greedy walk's dtype: a kernel they share is then compiled once, not once per dtype.
INDEX = np.int32


def check_patterns(n_patterns: int) -> None:
    """Refuse a pattern space the kernels' dense per-pattern tables cannot hold.

    Every bucket kernel (and the exact and hard-mode searches built on them) keeps
    counters indexed by feedback code, ``3**length`` of them. Scoring and filtering work
    for longer words; choosing a guess does not, so it is refused in one line instead of
    an allocation of many GiB.

    >>> check_patterns(243)
    >>> check_patterns(3**15)
    Traceback (most recent call last):
    ...
    wordle_core.errors.TooManyPatternsError: guess choice supports words of up to 14 characters; these have 15
    """
    if n_patterns > MAX_PATTERNS:
        length = 0
        while 3**length < n_patterns:
            length += 1
        raise TooManyPatternsError(
            f"guess choice supports words of up to 14 characters; these have {length}"
        )


@cache
def xlogx_table(n: int) -> np.ndarray:
    """``k log2 k`` for ``k = 0..n`` (0 for ``k = 0``): the entropy term of a bucket of k."""
    k = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    out[1:] = k[1:] * np.log2(k[1:])
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class BucketStats:
    """Per-guess bucket statistics over one candidate set of size ``n``."""

    n: int
    buckets: np.ndarray  # number of non-empty buckets
    largest: np.ndarray  # size of the largest bucket
    sum_sq: np.ndarray  # sum of squared bucket sizes
    sum_xlogx: np.ndarray  # sum of s*log2(s) over buckets
    worst: np.ndarray  # pattern of the largest bucket (ties: lowest code)

    @property
    def entropy(self) -> np.ndarray:
        """Expected information of the feedback, in bits."""
        return np.log2(self.n) - self.sum_xlogx / self.n

    @property
    def expected_size(self) -> np.ndarray:
        """Expected number of candidates left after the guess."""
        return self.sum_sq / self.n

    @property
    def avg_eliminated(self) -> np.ndarray:
        """"Wordle Solver KT"'s measure: candidates ruled out, averaged over the answers."""
        return self.n - self.sum_sq / self.n

    @property
    def perfect(self) -> np.ndarray:
        """Which guesses split the candidates into singletons."""
        return self.largest == 1


class WeightedStats(NamedTuple):
    """Per-guess statistics of bucket masses (see :func:`weighted_stats`)."""

    entropy: np.ndarray  # bits, with p_b = mass_b / total
    sum_sq: np.ndarray  # sum of squared bucket masses
    largest: np.ndarray  # largest bucket mass


# --- transposed matrix ---------------------------------------------------------------
_MT: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()  # buffer -> (matrix, MT)
_MT_LOCK = threading.Lock()
_MT_KEEP = 4


def _buffer_key(matrix: np.ndarray) -> tuple:
    """Where a matrix's elements lie: two arrays with the same key read the same bytes
    (e.g. a memory map and an ``np.ascontiguousarray`` view of it)."""
    iface = matrix.__array_interface__
    return (iface["data"][0], matrix.shape, matrix.strides, matrix.dtype.str)


def transposed(matrix: np.ndarray) -> np.ndarray:
    """``MT[answer, guess]``, C-contiguous, for ``matrix[guess, answer]``; cached per matrix.

    Built once per matrix and process (the last few matrices are kept), so every kernel
    and every position share one copy (30 MB for the wordle lexicon). Matrices are told
    apart by their memory, not by the Python object: a view of a cached matrix (a memory
    map seen through ``np.ascontiguousarray``) shares its copy. The cache holds each
    matrix it keys, so the memory cannot be reused by another while its entry lives.

    >>> m = np.arange(6, dtype=np.uint8).reshape(3, 2)
    >>> transposed(m) is transposed(np.ascontiguousarray(m)) is transposed(m[:])
    True
    >>> transposed(m).tolist()
    [[0, 2, 4], [1, 3, 5]]
    """
    matrix = np.asarray(matrix)
    key = _buffer_key(matrix)
    with _MT_LOCK:
        hit = _MT.get(key)
        if hit is not None:
            _MT.move_to_end(key)
            return hit[1]
    mt = np.ascontiguousarray(matrix.T)
    mt.setflags(write=False)
    with _MT_LOCK:
        _MT[key] = (matrix, mt)
        while len(_MT) > _MT_KEEP:
            _MT.popitem(last=False)
    return mt


# --- compiled primitives -------------------------------------------------------------
def _counts_dtype(n_max: int) -> type[np.integer]:
    return np.uint8 if n_max < 256 else np.int16 if n_max < 32768 else np.int32


def counts_table(n_rows: int, n_patterns: int, n_max: int) -> np.ndarray:
    """A zeroed ``n_rows x n_patterns`` counts table able to count ``n_max`` candidates.

    The narrowest counters that fit (8-bit below 256 candidates, then 16, then 32 bit), so
    that a block's table stays in the L1 cache. The blocked primitives leave it all-zero
    again after each block, so it is allocated once.
    """
    return np.zeros((n_rows, n_patterns), _counts_dtype(n_max))


@njit(cache=True, nogil=True)
def gather_bucket(mat, cands, g, p, out):
    """Write the candidates of ``cands`` that guess row ``g`` answers with pattern ``p``
    into ``out`` (in ``cands``' order) and return how many: one bucket of a split."""
    nb = 0
    for t in range(cands.shape[0]):
        if mat[g, cands[t]] == p:
            out[nb] = cands[t]
            nb += 1
    return nb


@njit(cache=True, nogil=True)
def count_block(mt, cands, rows, dense, lo, hi, counts, firsts, n_first):
    """First pass over guesses ``lo..hi-1``: count each candidate's pattern, note first visits.

    ``mt`` is answers x guesses; guess ``t`` of the block is column ``lo + t`` when
    ``dense`` (every guess, in order) else ``rows[lo + t]``. Each candidate's row segment
    is read sequentially. ``counts[t, p]`` counts pattern ``p``; the patterns of guess
    ``t`` in order of first appearance (candidate order) are ``firsts[t, :n_first[t]]``
    (``firsts`` has one spare column: the write is unconditional, so no branch).
    """
    m = hi - lo
    for t in range(m):
        n_first[t] = 0
    for j in range(cands.shape[0]):
        row = mt[cands[j]]
        for t in range(m):
            p = row[lo + t] if dense else row[rows[lo + t]]
            c = counts[t, p]
            firsts[t, n_first[t]] = p
            n_first[t] += 1 if c == 0 else 0
            counts[t, p] = c + 1  # cannot wrap: the counters hold n_max candidates


@njit(cache=True, nogil=True)
def stats_block(lo, hi, counts, firsts, n_first, xlogx, buckets, largest, sum_sq, sum_xl, worst):
    """Second pass: each bucket of each guess once, in first-visit order, then its counter cleared.

    Writes entries ``lo..hi-1`` of the outputs; ``counts`` is all-zero again on exit.
    """
    for t in range(hi - lo):
        g = lo + t
        nb = n_first[t]
        big = 0
        big_pat = counts.shape[1]
        sq = 0.0
        xl = 0.0
        for k in range(nb):
            p = firsts[t, k]
            c = np.int64(counts[t, p])
            sq += c * c
            xl += xlogx[c]
            if c > big or (c == big and p < big_pat):
                big = c
                big_pat = p
            counts[t, p] = 0
        buckets[g] = nb
        largest[g] = big
        sum_sq[g] = sq
        sum_xl[g] = xl
        worst[g] = big_pat


# --- small sets: pairwise comparisons, vectorised over guesses ---------------------------


@njit(cache=True, nogil=True)
def _blocks(mt, cands, rows, dense, n_g, b_lo, b_hi, blk, counts, firsts, n_first, xlogx, buckets, largest,
            sum_sq, sum_xl, worst):
    for b in range(b_lo, b_hi):
        lo = b * blk
        hi = min(lo + blk, n_g)
        count_block(mt, cands, rows, dense, lo, hi, counts, firsts, n_first)
        stats_block(lo, hi, counts, firsts, n_first, xlogx, buckets, largest, sum_sq, sum_xl, worst)


@njit(cache=True, nogil=True)
def blocked_serial(mt, cands, rows, dense, n_g, blk, tables, firsts, n_first, xlogx, buckets, largest,
                   sum_sq, sum_xl, worst):
    """Blocked kernel, one thread: statistics of guesses ``rows`` (columns of ``mt``, answers x
    guesses; every column when ``dense``) in blocks of ``blk``, with one counts table
    ``tables[0]`` (see :func:`count_block` and :func:`stats_block`)."""
    n_blocks = (n_g + blk - 1) // blk
    _blocks(mt, cands, rows, dense, n_g, 0, n_blocks, blk, tables[0], firsts[0], n_first[0], xlogx, buckets,
            largest, sum_sq, sum_xl, worst)


@njit(parallel=True, cache=True, nogil=True)
def _blocked_parallel(mt, cands, rows, dense, n_g, blk, tables, firsts, n_first, xlogx, buckets, largest,
                      sum_sq, sum_xl, worst):
    n_blocks = (n_g + blk - 1) // blk
    n_chunks = tables.shape[0]
    for ch in prange(n_chunks):
        b_lo = ch * n_blocks // n_chunks
        b_hi = (ch + 1) * n_blocks // n_chunks
        _blocks(mt, cands, rows, dense, n_g, b_lo, b_hi, blk, tables[ch], firsts[ch], n_first[ch], xlogx,
                buckets, largest, sum_sq, sum_xl, worst)


@njit(cache=True, nogil=True)
def rows_kernel(mat, rows, cands, xlogx, counts, buckets, largest, sum_sq, sum_xl, worst):
    """Row kernel: statistics of each guess row of ``mat`` (guesses x answers) in turn."""
    n = cands.shape[0]
    for i in range(rows.shape[0]):
        r = rows[i]
        for j in range(n):
            counts[mat[r, cands[j]]] += 1
        for j in range(n):
            p = mat[r, cands[j]]
            c = np.int64(counts[p])
            if c > 0:
                buckets[i] += 1
                sum_sq[i] += c * c
                sum_xl[i] += xlogx[c]
                if c > largest[i] or (c == largest[i] and p < worst[i]):
                    largest[i] = c
                    worst[i] = p
                counts[p] = 0


@njit(cache=True, nogil=True)
def row_is_perfect(row, cands, seen, stamp):
    """Whether one guess's patterns ``row`` (per answer: ``mat[g]``, or the column
    ``mt[:, g]`` of the transposed matrix) give every candidate its own pattern.

    ``seen`` (one int64 per pattern) and ``stamp`` (one-element int64 array) are
    reusable scratch: a pattern counts as seen when ``seen[p] == stamp[0]``, so nothing
    is cleared between calls. Stops at the first repeated pattern.
    """
    stamp[0] += 1
    st = stamp[0]
    for j in range(cands.shape[0]):
        p = row[cands[j]]
        if seen[p] == st:
            return False
        seen[p] = st
    return True


@njit(cache=True, nogil=True)
def _first_perfect(mat, rows, cands, n_pat):
    """First row index of ``mat`` (guesses x answers) giving every candidate its own pattern, else -1."""
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


@njit(cache=True, nogil=True)
def first_perfect_block(mt, cands, rows, dense, blk, seen, dead, stamp):
    """Index in ``rows`` of the first guess giving every candidate its own pattern, else -1.

    Blocked over the transposed matrix: for each block of ``blk`` guesses the candidates'
    row segments are read in turn and a guess drops out at its first repeated pattern;
    the block ends as soon as every guess in it dropped out. ``seen`` (``blk x patterns``
    int64) and ``stamp`` (one-element int64 array) are reusable scratch: a pattern counts
    as seen by guess ``t`` when ``seen[t, p] == stamp[0]``; ``dead`` is ``blk`` booleans.
    """
    n = cands.shape[0]
    n_g = rows.shape[0]
    for lo in range(0, n_g, blk):
        hi = min(lo + blk, n_g)
        m = hi - lo
        stamp[0] += 1
        st = stamp[0]
        for t in range(m):
            dead[t] = False
        alive = m
        for j in range(n):
            row = mt[cands[j]]
            for t in range(m):
                p = row[lo + t] if dense else row[rows[lo + t]]
                dup = seen[t, p] == st
                if dup and not dead[t]:
                    dead[t] = True
                    alive -= 1
                seen[t, p] = st
            if alive == 0:
                break
        if alive > 0:
            for t in range(m):
                if not dead[t]:
                    return lo + t
    return -1


@njit(cache=True, nogil=True)
def split_codes(codes, items, n_pat):
    """``items`` grouped by their pattern ``codes`` (counting sort, stable), patterns ascending.

    ``codes[j]`` is the pattern of ``items[j]`` (e.g. ``mat[g, cands]`` or ``mt[cands, g]``).
    Returns ``(grouped, starts, sizes, patterns)`` of the non-empty buckets: bucket ``k`` is
    ``grouped[starts[k]:starts[k] + sizes[k]]``, with pattern ``patterns[k]``.
    """
    n = items.shape[0]
    cnt = np.zeros(n_pat, np.int64)
    for j in range(n):
        cnt[codes[j]] += 1
    nbk = 0
    for p in range(n_pat):
        if cnt[p] > 0:
            nbk += 1
    pos = np.empty(n_pat, np.int64)
    starts = np.empty(nbk, np.int64)
    sizes = np.empty(nbk, np.int64)
    pats = np.empty(nbk, np.int64)
    acc = 0
    k = 0
    for p in range(n_pat):
        pos[p] = acc
        if cnt[p] > 0:
            starts[k] = acc
            sizes[k] = cnt[p]
            pats[k] = p
            k += 1
        acc += cnt[p]
    out = np.empty(n, items.dtype)
    for j in range(n):
        p = codes[j]
        out[pos[p]] = items[j]
        pos[p] += 1
    return out, starts, sizes, pats


def _weighted_body(matrix, rows, cands, w, n_patterns, out_h, out_sq, out_max):
    """Per guess row: entropy (bits), sum of mass^2, largest mass of its buckets over ``cands``.

    Rows are split into a few chunks per thread; each chunk allocates one bucket array
    and leaves it all-zero after every row (touched buckets are reset as they are
    read), so the cost per row is O(n), not O(n_patterns).
    """
    n = cands.shape[0]
    total = 0.0
    for j in range(n):
        total += w[j]
    log_total = np.log2(total)
    n_rows = rows.shape[0]
    n_chunks = min(n_rows, 64)
    for c in prange(n_chunks):
        lo = c * n_rows // n_chunks
        hi = (c + 1) * n_rows // n_chunks
        mass = np.zeros(n_patterns)
        for i in range(lo, hi):
            g = rows[i]
            for j in range(n):
                mass[matrix[g, cands[j]]] += w[j]
            sxl = 0.0
            sq = 0.0
            mx = 0.0
            for j in range(n):
                p = matrix[g, cands[j]]
                m = mass[p]
                if m > 0.0:
                    sxl += m * np.log2(m)
                    sq += m * m
                    if m > mx:
                        mx = m
                    mass[p] = 0.0
            out_h[i] = log_total - sxl / total
            out_sq[i] = sq
            out_max[i] = mx


# Two compilations of one body (numba's on-disk cache is keyed by function name, so the
# serial and threaded builds get their own names): threads pay off only for big blocks.
def _renamed(fn, name: str):
    import types

    copy = types.FunctionType(fn.__code__.replace(co_name=name, co_qualname=name), fn.__globals__, name)
    copy.__qualname__ = name
    return copy


_weighted_serial = njit(cache=True)(_renamed(_weighted_body, "_weighted_serial"))
_weighted_parallel = njit(parallel=True, cache=True)(_renamed(_weighted_body, "_weighted_parallel"))
_WEIGHTED_PARALLEL_CELLS = 8_000_000


# --- Python entry points -------------------------------------------------------------
_LOCAL = threading.local()
_THREADS: list[int] = []  # empty: numba's thread count; else the limit set by set_threads


def set_threads(n: int | None) -> None:
    """Limit the threads the kernels use in this process (``None``: numba's default).

    A process that already runs one worker per core (a pipeline's worker pool) should
    set 1 so that workers do not compete for the cores; results never depend on it.
    """
    _THREADS.clear()
    if n is not None:
        _THREADS.append(max(1, int(n)))


def threads() -> int:
    """Threads the kernels use for big blocks of work."""
    return _THREADS[0] if _THREADS else numba.get_num_threads()


def _tables(n_chunks: int, n_patterns: int, n_max: int,
            pat_dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's reusable (counts, firsts, n_first) tables; counts are all-zero between calls."""
    dtype = _counts_dtype(n_max)
    key = (n_chunks, n_patterns, dtype, np.dtype(pat_dtype))
    cached = getattr(_LOCAL, "tables", None)
    if cached is None or cached[0] != key:
        blk = block_for(n_patterns)
        counts = np.stack([counts_table(blk, n_patterns, n_max) for _ in range(n_chunks)])
        firsts = np.zeros((n_chunks, blk, n_patterns + 1), pat_dtype)
        n_first = np.zeros((n_chunks, blk), np.int64)
        cached = (key, counts, firsts, n_first)
        _LOCAL.tables = cached
    return cached[1], cached[2], cached[3]


def block_for(n_patterns: int) -> int:
    """Guesses per block of the blocked kernels: a block's counts table stays about L1 size."""
    return max(4, min(256, (BLOCK * 243) // max(1, n_patterns)))


def _is_all_rows(rows: np.ndarray, n_rows: int) -> bool:
    return rows.shape[0] == n_rows and (n_rows == 0 or (rows[0] == 0 and rows[-1] == n_rows - 1
                                                        and bool((np.diff(rows) == 1).all())))


def bucket_stats(
    matrix: np.ndarray, rows: np.ndarray | None, cands: np.ndarray, n_patterns: int
) -> BucketStats:
    """Bucket statistics of every guess row in ``rows`` (default all) over ``cands``.

    ``matrix`` is the lexicon's ``guesses x answers`` pattern matrix, ``cands`` answer
    indices. Same numbers whichever kernel (row or blocked, serial or threaded) runs.
    """
    check_patterns(n_patterns)
    n_all = matrix.shape[0]
    dense = rows is None
    rows = np.arange(n_all, dtype=INDEX) if rows is None else np.ascontiguousarray(rows, dtype=INDEX)
    if not dense:
        dense = _is_all_rows(rows, n_all)
    cands = np.ascontiguousarray(cands, dtype=INDEX)
    n_g, n = rows.shape[0], cands.shape[0]
    buckets = np.zeros(n_g, np.int64)
    largest = np.zeros(n_g, np.int64)
    sum_sq = np.zeros(n_g, np.float64)
    sum_xl = np.zeros(n_g, np.float64)
    worst = np.full(n_g, n_patterns, np.int64)
    if n_g == 0 or n == 0:
        worst[:] = 0
        return BucketStats(n, buckets, largest, sum_sq, sum_xl, worst)
    xlogx = xlogx_table(n)
    big = not can_transpose(matrix)
    if n_g <= ROW_KERNEL_ROWS or big or n_g * SPARSE_ROWS <= n_all:
        counts = np.zeros(n_patterns, np.int32)
        rows_kernel(np.asarray(matrix), rows, cands, xlogx, counts, buckets, largest, sum_sq, sum_xl, worst)
    else:
        mt = transposed(matrix)
        blk = block_for(n_patterns)
        n_threads = threads()
        if n_threads > 1 and n_g * n >= _PARALLEL_CELLS:
            n_blocks = (n_g + blk - 1) // blk
            tables = _tables(min(n_blocks, n_threads), n_patterns, n, mt.dtype)
            _blocked_parallel(mt, cands, rows, dense, n_g, blk, *tables, xlogx, buckets, largest, sum_sq,
                              sum_xl, worst)
        else:
            tables = _tables(1, n_patterns, n, mt.dtype)
            blocked_serial(mt, cands, rows, dense, n_g, blk, *tables, xlogx, buckets, largest, sum_sq,
                            sum_xl, worst)
    return BucketStats(n, buckets, largest, sum_sq, sum_xl, worst)


def _has_transposed(matrix: np.ndarray) -> bool:
    return _buffer_key(np.asarray(matrix)) in _MT


def can_transpose(matrix: np.ndarray) -> bool:
    """Whether the kernels read ``matrix`` through :func:`transposed` (a second copy of
    at most 256 MiB, or one already made); larger ones are read row by row."""
    return matrix.nbytes <= _TRANSPOSE_MAX_BYTES or _has_transposed(matrix)


def weighted_stats(
    matrix: np.ndarray, rows: np.ndarray, cands: np.ndarray, weights: np.ndarray, n_patterns: int
) -> WeightedStats:
    """(entropy bits, sum of bucket mass^2, largest bucket mass) of each guess row over ``cands``.

    ``weights`` are the candidates' weights (aligned with ``cands``, any positive
    scale), e.g. an answer prior. With all weights 1 the entropy, ``sum_sq`` and
    ``largest`` are :func:`bucket_stats`'s (up to float rounding of the entropy).
    """
    check_patterns(n_patterns)
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    w = np.ascontiguousarray(weights, dtype=np.float64)
    h = np.zeros(rows.shape[0])
    sq = np.zeros(rows.shape[0])
    mx = np.zeros(rows.shape[0])
    if cands.shape[0] == 0 or rows.shape[0] == 0:
        return WeightedStats(h, sq, mx)
    big = rows.shape[0] * cands.shape[0] >= _WEIGHTED_PARALLEL_CELLS and threads() > 1
    kernel = _weighted_parallel if big else _weighted_serial
    kernel(np.asarray(matrix), rows, cands, w, n_patterns, h, sq, mx)
    return WeightedStats(h, sq, mx)


def first_perfect_split(matrix: np.ndarray, rows: np.ndarray, cands: np.ndarray, n_patterns: int) -> int:
    """Position in ``rows`` of the first guess splitting ``cands`` into singletons, or -1.

    Stops reading a guess at its first repeated pattern, which for most guesses comes
    after a handful of candidates: far cheaper than full statistics. (Up to
    :data:`PRUNED_PAIRS_MAX` candidates :func:`distinct_pairs` does it a block of guesses
    at a time, dropping each guess at its first repeated pattern, and stops after the
    block holding the first perfect one.)
    """
    check_patterns(n_patterns)
    if cands.shape[0] > n_patterns:
        return -1
    rows = np.ascontiguousarray(rows, dtype=INDEX)
    cands = np.ascontiguousarray(cands, dtype=INDEX)
    if rows.shape[0] <= PERFECT_ROW_SCAN or matrix.nbytes > _TRANSPOSE_MAX_BYTES:
        return int(_first_perfect(np.asarray(matrix), rows, cands, n_patterns))
    dense = _is_all_rows(rows, matrix.shape[0])
    if cands.shape[0] <= PRUNED_PAIRS_MAX:  # pairwise comparisons, SIMD over the guesses
        return int(distinct_pairs_kernel(transposed(matrix), cands, rows, dense, n_patterns - 1, True,
                                         cands.shape[0])[2])
    seen, dead, stamp = _perfect_scratch(n_patterns)
    return int(first_perfect_block(transposed(matrix), cands, rows, dense, seen.shape[0], seen, dead, stamp))


def _perfect_scratch(n_patterns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's scratch for :func:`first_perfect_block` (stamps: never cleared)."""
    cached = getattr(_LOCAL, "perfect", None)
    if cached is None or cached[0].shape[1] != n_patterns:
        blk = block_for(n_patterns)
        cached = (np.zeros((blk, n_patterns), np.int64), np.zeros(blk, np.bool_), np.zeros(1, np.int64))
        _LOCAL.perfect = cached
    return cached


def bucket_counts(matrix: np.ndarray, row: int, cands: np.ndarray, n_patterns: int) -> np.ndarray:
    """Bucket sizes of one guess over ``cands``, indexed by pattern code (length ``n_patterns``)."""
    return np.bincount(np.asarray(matrix[row, cands]), minlength=n_patterns)


def split_by_pattern(matrix: np.ndarray, row: int, cands: np.ndarray) -> dict[int, np.ndarray]:
    """Candidates grouped by the pattern guess ``row`` shows, patterns ascending (stable)."""
    codes = np.asarray(matrix)[row][cands]
    n_pat = int(codes.max()) + 1 if codes.shape[0] else 1
    grouped, starts, sizes, pats = split_codes(codes, cands, n_pat)
    return {int(p): grouped[s : s + k] for p, s, k in zip(pats.tolist(), starts.tolist(), sizes.tolist(),
                                                             strict=True)}
