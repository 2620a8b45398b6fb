"""Bucket counts: only the number of buckets of every guess (and whether one is all
green), several times cheaper per cell than the full statistics of :mod:`.stats`.

:func:`count_buckets` / :func:`count_columns` pick by the set and the columns: every
column in order counted in vector lanes (a 256-bit pattern set per guess,
:func:`.vector.count_set_block`), gathered columns by byte
flags per pattern, a pattern bitset per guess below :data:`FLAGS_FROM` candidates, and
pairwise comparisons (:func:`distinct_pairs`) up to :data:`PAIRS_MAX`; with a ``floor``
:func:`distinct_pairs` drops the guesses that cannot reach it, the search for a perfect
split of sets up to :data:`PRUNED_PAIRS_MAX`. The greedy measures rule out guesses with
these counts before the full statistics; the exact search orders and bounds guesses
with them.

One compiled kernel per array type, not per constant: numba types a constant argument
(``False``, ``0``) as a literal and compiles the callee, with everything it calls, once
per literal value it is called with. So a flag or count passed as a constant is written
``bool(False)`` / ``np.int64(0)``, and :func:`distinct_pairs`, which the exact search
calls with constants, passes its own on so (inlined into its caller).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wordle_core.kernels.buckets.vector import CACHE, SET_BLOCK, SET_WORDS, count_set_block, popcount64

PAIRS_MAX = 32  # sets up to this size are counted pairwise: distinct_pairs, or pair rows (normal mode)
PRUNED_PAIRS_MAX = 255  # ... and up to this size when it drops guesses (counts are 8-bit)


@njit(cache=CACHE, nogil=True)
def _pairs_gather(mt, cands, rows, dense, lo, m, buf):
    """``buf[j, t]``: candidate ``j``'s pattern under guess ``lo + t`` of the block."""
    for j in range(cands.shape[0]):
        row = mt[cands[j]]
        if dense:
            for t in range(m):
                buf[j, t] = row[lo + t]
        else:
            for t in range(m):
                buf[j, t] = row[rows[lo + t]]


@njit(inline="always")
def distinct_pairs(mt, cands, rows, dense, green, stop_perfect, floor):
    """:func:`distinct_pairs_kernel` (see there), its flags and ``floor`` passed on as plain
    ``bool`` and ``int64``: callers pass them as constants, and numba compiles a kernel
    once per literal value it is called with, so without this one count would be compiled
    for every combination of constants in the engine (the module docstring)."""
    return distinct_pairs_kernel(mt, cands, rows, bool(dense), green, bool(stop_perfect), np.int64(floor))


@njit(cache=CACHE, nogil=True)
def distinct_pairs_kernel(mt, cands, rows, dense, green, stop_perfect, floor):
    """Per guess: the number of distinct patterns over a small candidate set, and whether
    one is ``green`` (all-green: the guess is a candidate); for ``n <= PAIRS_MAX``, or
    up to :data:`PRUNED_PAIRS_MAX` when ``floor`` prunes.

    Candidate ``j`` opens a new bucket of guess ``t`` when its pattern differs from
    those of candidates ``0..j-1``: ``n(n-1)/2`` comparisons per guess, but over a block
    of guesses at a time they are element-wise loops on contiguous arrays, which the
    compiler turns into SIMD compares (16-32 guesses per instruction); a per-guess
    table or bitset (:func:`count_block`) is a scatter that cannot be vectorised.

    ``rows``: the guesses (columns of ``mt``; every column in order when ``dense``).
    Returns ``(nb, has_green, first, done)``. With ``stop_perfect`` the count stops after the
    block holding the first guess that gives every candidate its own pattern: ``first``
    is its index in ``rows`` (-1 if none) and ``nb``/``has_green`` are valid for the first
    ``done`` guesses (all of them when ``first`` is -1).

    ``floor`` (``< 1``: off): only the guesses whose count plus one can exceed ``floor``
    are wanted. Every few candidates the block drops the guesses that can no longer get
    there (count so far plus one per candidate still to come, plus one for a possible
    green) and packs the others together, so later candidates are compared over fewer
    guesses; a dropped guess gets that upper bound as ``nb`` and ``has_green = True`` (so
    ``nb + has_green`` bounds its true ``nb + has_green`` from above, and is ``<= floor``). With
    ``floor = n`` a guess is dropped at its first repeated pattern, which is what a
    search for a perfect split needs (a perfect guess is never dropped).
    """
    n_g = rows.shape[0]
    n = cands.shape[0]
    blk = 512
    prune = floor >= 1
    nb = np.empty(n_g, np.int64)
    has_green = np.empty(n_g, np.bool_)
    flag = np.empty(blk, np.uint8)
    cnt = np.empty(blk, np.uint8)
    gr = np.empty(blk, np.uint8)
    col = np.empty(blk, np.int64)  # block column (guess lo + col[t]) of packed position t
    buf = np.empty((n, blk), mt.dtype)
    gq = np.empty(1, mt.dtype)
    gq[0] = green
    gv = gq[0]  # the all-green code in the matrix's own type: a same-width SIMD compare
    for lo in range(0, n_g, blk):
        m = min(blk, n_g - lo)
        ma = m  # guesses still counted (packed at positions 0..ma-1)
        if prune:
            for t in range(m):
                col[t] = t
        else:
            _pairs_gather(mt, cands, rows, dense, lo, m, buf)
        cnt[:m] = 0
        gr[:m] = 0
        for j in range(n):
            if prune:  # this candidate's patterns of the guesses still counted
                row = mt[cands[j]]
                if dense:
                    for t in range(ma):
                        buf[j, t] = row[lo + col[t]]
                else:
                    for t in range(ma):
                        buf[j, t] = row[rows[lo + col[t]]]
            for t in range(ma):
                flag[t] = 1
                gr[t] |= np.uint8(buf[j, t] == gv)
            for i in range(j):
                for t in range(ma):
                    flag[t] &= np.uint8(buf[j, t] != buf[i, t])
            for t in range(ma):
                cnt[t] += flag[t]
            if prune and (j & 3) == 3 and j < n - 1:
                rest = n - 1 - j
                k = 0
                for t in range(ma):
                    if cnt[t] + rest + 1 > floor:
                        if k != t:
                            for i in range(j + 1):
                                buf[i, k] = buf[i, t]
                            cnt[k] = cnt[t]
                            gr[k] = gr[t]
                            col[k] = col[t]
                        k += 1
                    else:
                        nb[lo + col[t]] = cnt[t] + rest
                        has_green[lo + col[t]] = True
                ma = k
                if ma == 0:
                    break
        if prune:
            for t in range(ma):
                nb[lo + col[t]] = cnt[t]
                has_green[lo + col[t]] = gr[t] != 0
        else:
            for t in range(m):
                nb[lo + t] = cnt[t]
                has_green[lo + t] = gr[t] != 0
        if stop_perfect:
            for t in range(ma):  # (packing keeps the guesses in order)
                if cnt[t] == n:
                    return nb, has_green, lo + (col[t] if prune else t), lo + m
    return nb, has_green, -1, n_g


@njit(cache=CACHE, nogil=True)
def is_dense(MT: np.ndarray, legal: np.ndarray) -> bool:
    """Are the allowed rows all of ``MT``'s guesses in order (normal mode)?"""
    G = legal.shape[0]
    return MT.shape[1] == G and G > 0 and legal[0] == 0 and legal[G - 1] == G - 1


COUNT_FLAG_BYTES = 16 << 10  # count_buckets' flags for a block of guesses: about L1 size
FLAGS_FROM = 64  # count_buckets: byte flags from this many candidates, bitsets below
_BYTE_LANES = np.uint64(0x00FF00FF00FF00FF)  # (sums of 8-bit lanes, in 16-bit lanes)
_SUM16 = np.uint64(0x0001000100010001)  # (x * _SUM16) >> 48: the sum of x's four 16-bit lanes


@njit(cache=CACHE, nogil=True)
def _flag_patterns(MT, cands, legal, dense, g0, m, shift, flags):
    """Set ``flags[t << shift | pattern] = 1`` for every pattern guess ``g0 + t`` (of
    ``legal``; ``t < m``) shows over ``cands``: each candidate's row read in order."""
    sh = np.uint64(shift)
    if dense:  # legal = 0..G-1 (normal mode): a plain sequential read
        for j in range(cands.shape[0]):
            row = MT[cands[j], g0:g0 + m]
            for t in range(m):
                flags[(np.uint64(t) << sh) | np.uint64(row[t])] = 1
    else:
        for j in range(cands.shape[0]):
            row = MT[cands[j]]
            for t in range(m):
                flags[(np.uint64(t) << sh) | np.uint64(row[legal[g0 + t]])] = 1


@njit(cache=CACHE, nogil=True)
def _count_bitsets(MT, cands, legal, dense, green, n_pat):
    """:func:`count_buckets` for small sets: a pattern bitset per guess, in blocks of 256
    guesses, each candidate's row read in order across the block."""
    G = legal.shape[0]
    n = cands.shape[0]
    nw = (n_pat + 63) // 64
    blk = 256
    bits = np.zeros((blk, nw), np.uint64)
    nb = np.empty(G, np.int64)
    has_green = np.empty(G, np.bool_)
    gw = green >> 6
    gb = np.uint64(1) << np.uint64(green & 63)
    for g0 in range(0, G, blk):
        m = min(blk, G - g0)
        bits[:m, :] = 0
        if dense:
            for j in range(n):
                row = MT[cands[j], g0:g0 + m]
                for t in range(m):
                    p = row[t]
                    bits[t, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        else:
            for j in range(n):
                row = MT[cands[j]]
                for t in range(m):
                    p = row[legal[g0 + t]]
                    bits[t, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        for t in range(m):
            c = 0
            for w in range(nw):
                c += popcount64(bits[t, w])
            nb[g0 + t] = c
            has_green[g0 + t] = (bits[t, gw] & gb) != np.uint64(0)
    return nb, has_green


@njit(cache=CACHE, nogil=True)
def _count_sets(MT, cands, G, green, nb, has_green) -> int:
    """``nb``/``has_green`` of :func:`count_columns` for the guess columns ``0 ..`` of ``MT`` in
    whole blocks of :data:`SET_BLOCK` below ``G`` (:func:`.vector.count_set_block`); returns where
    they stop."""
    end = G - G % SET_BLOCK
    for g0 in range(0, end, SET_BLOCK):
        count_set_block(MT, cands, g0, green, nb, has_green)
    return end


@njit(cache=CACHE, nogil=True)
def count_buckets(MT: np.ndarray, cands: np.ndarray, legal: np.ndarray, green: int,
                  n_pat: int):
    """Per allowed guess: number of distinct patterns over ``cands``, and whether one is
    all-green (the guess is a candidate).

    The hot loop of the exact search. Every column in order (normal mode), at most 256
    patterns: :data:`SET_BLOCK` guesses at a time, each with its set of patterns in
    vector lanes (:func:`.vector.count_set_block`: four 64-bit words per guess, kept in registers
    while each candidate's row is read across the block), then four popcounts per
    guess. Gathered columns (hard mode), the last ``G % SET_BLOCK`` columns, and games
    with more patterns: guesses in blocks with a byte flag per pattern for each (a
    block's flags fill about L1, :data:`COUNT_FLAG_BYTES`; the inner loop is a load and a
    store), the flags added up eight at a time as 64-bit words. Below
    :data:`FLAGS_FROM` candidates a pattern bitset per guess is kept instead
    (:func:`_count_bitsets`: a guess's flags then cost more to clear and add up than its
    cells; hard mode's many sets of 33-63 answers). Sets of at most :data:`PAIRS_MAX`
    candidates go to :func:`distinct_pairs` (the same numbers, by SIMD pairwise
    comparisons).
    ``MT`` is answers x guesses (as :func:`transposed`), ``legal`` the guess columns.
    """
    return count_columns(MT, cands, legal, is_dense(MT, legal), green, n_pat)


@njit(cache=CACHE, nogil=True)
def count_columns(MT: np.ndarray, cands: np.ndarray, legal: np.ndarray, dense: bool, green: int,
                  n_pat: int):
    """:func:`count_buckets`, told whether ``legal`` is ``0 .. G - 1`` (``dense``: then
    the columns are read in order, without ``legal``), as for a prefix of the columns."""
    G = legal.shape[0]
    if dense and n_pat <= 64 * SET_WORDS and G >= SET_BLOCK:
        # every column in order: pattern sets in vector lanes, the last columns gathered
        nb = np.empty(G, np.int64)
        has_green = np.empty(G, np.bool_)
        done = _count_sets(MT, cands, G, green, nb, has_green)
        if done < G:
            nb_t, has_green_t = _count_gathered(MT, cands, legal[done:], bool(False),  # noqa: UP018 (not a literal)
                                                  green, n_pat)
            nb[done:] = nb_t
            has_green[done:] = has_green_t
        return nb, has_green
    return _count_gathered(MT, cands, legal, bool(dense), green, n_pat)


@njit(cache=CACHE, nogil=True)
def _count_gathered(MT, cands, legal, dense, green, n_pat):
    """:func:`count_columns` without the vector lanes: pairwise compares, bitsets or
    byte flags by the number of candidates (the columns gathered, or too many patterns)."""
    G = legal.shape[0]
    n = cands.shape[0]
    if n <= PAIRS_MAX:
        nb, has_green, _, _ = distinct_pairs(MT, cands, legal, dense, green, False, 0)
        return nb, has_green
    if n < FLAGS_FROM:
        return _count_bitsets(MT, cands, legal, dense, green, n_pat)
    shift = 8  # a guess's flags: 2 ** shift bytes (a multiple of 8, at least n_pat)
    while (1 << shift) < n_pat:
        shift += 1
    ws = (1 << shift) >> 3
    blk = max(1, min(64, COUNT_FLAG_BYTES >> shift))
    flags = np.zeros(blk << shift, np.uint8)
    words = flags.view(np.uint64)
    nb = np.empty(G, np.int64)
    has_green = np.empty(G, np.bool_)
    for g0 in range(0, G, blk):
        m = min(blk, G - g0)
        words[:m * ws] = 0
        _flag_patterns(MT, cands, legal, dense, g0, m, shift, flags)
        for t in range(m):
            c = 0
            if n_pat <= 255:  # (5-letter words) 32 words, a lane at most 32, the sum at most 255
                acc = np.uint64(0)
                for w in range(t * 32, t * 32 + 32):
                    acc += words[w]
                c = np.int64((acc * np.uint64(0x0101010101010101)) >> np.uint64(56))
            else:
                for c0 in range(t * ws, (t + 1) * ws, 255):  # (a lane holds at most 255)
                    acc = np.uint64(0)
                    for w in range(c0, min(c0 + 255, (t + 1) * ws)):
                        acc += words[w]
                    acc = (acc & _BYTE_LANES) + ((acc >> np.uint64(8)) & _BYTE_LANES)
                    c += np.int64((acc * _SUM16) >> np.uint64(48))
            nb[g0 + t] = c
            has_green[g0 + t] = flags[(t << shift) | green] != 0
    return nb, has_green
