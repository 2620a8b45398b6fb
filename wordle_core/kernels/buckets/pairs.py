"""Pair rows: the exact search's bucket counts of small sets in normal mode.

For sets of up to :data:`.counts.PAIRS_MAX` answers, the
number of buckets of every guess comes from the answers' pairs: a pair's *row* is the
bitset of the guesses under which its two answers show the same pattern, made once
(:func:`pair_row`: one vector compare per 64 guesses) and kept in a first-in-first-out
cache (:func:`pair_cache`) that every set holding the pair reuses. :func:`pair_counts`
gives every guess's count, :func:`pair_count_extremes` only what a count bound needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from wordle_core.kernels.buckets.vector import CACHE, equal64

PAIR_SLOTS = 1 << 16  # pair rows a :func:`pair_cache` keeps by default (1.6 KiB each for 12,972 guesses)
PAIR_SLOTS_MAX = (1 << 31) - 1  # (row numbers are int32, int16 up to 32,768 rows)
PAIR_ANSWERS_MAX = 4096  # more answers: no pair cache (its slot map has an entry per pair)


def pair_cache(n_answers: int, n_guesses: int, slots: int = PAIR_SLOTS) -> tuple:
    """Scratch for :func:`pair_counts`: ``(rows, slot, owner, used)``.

    ``rows[s]`` is a bitset over the guess columns: bit ``g`` set when two answers show
    the same pattern under guess ``g``. ``slot[pair_index(a, b)]`` is the row holding
    the pair of answers ``a < b``, or -1; ``owner[s]`` is the pair index held in row
    ``s``; ``used = [rows made, rows made over another pair]``. Rows are made on first
    use, in turn, and once all ``slots`` are taken each new pair replaces the oldest
    (first in, first out). Memory: ``slots`` rows of ``n_guesses / 8`` bytes (touched
    as they are made) and 2 bytes per answer pair (4 above 32,768 slots). ``slots = 0``,
    or more than :data:`PAIR_ANSWERS_MAX` answers, gives an empty cache, whose callers
    count by :func:`distinct_pairs` instead.
    """
    words = (n_guesses + 63) // 64
    slots = min(max(int(slots), 0), PAIR_SLOTS_MAX) if n_answers <= PAIR_ANSWERS_MAX else 0
    n_pairs = n_answers * (n_answers - 1) // 2 if slots else 0
    return (np.empty((slots, words), np.uint64),
            np.full(n_pairs, -1, np.int16 if slots <= 1 << 15 else np.int32),
            np.empty(slots, np.int64), np.zeros(2, np.int64))


@njit(cache=CACHE, nogil=True)
def pair_index(a: int, b: int) -> int:
    """The index of the pair of answers ``a < b`` among all pairs (``b (b - 1) / 2 + a``)."""
    return b * (b - 1) // 2 + a


@njit(cache=CACHE, nogil=True)
def pair_row(mt, a, b, out):
    """``out``: the bitset of the guesses under which answers ``a`` and ``b`` collide
    (bit ``g % 64`` of word ``g // 64``): 64 guesses' patterns compared at once
    (:func:`.vector.equal64`), the last word's guesses one by one."""
    ra = mt[a]
    rb = mt[b]
    G = ra.shape[0]
    full = G >> 6
    for k in range(full):
        out[k] = equal64(ra, rb, k << 6)
    if G & 63:
        x = np.uint64(0)
        for g in range(full << 6, G):
            if ra[g] == rb[g]:
                x |= np.uint64(1) << np.uint64(g & 63)
        out[full] = x


@njit(cache=CACHE, nogil=True)
def pair_repeats(mt, cands, cache, words):
    """Per guess column of ``mt``, in bit planes: how many of ``cands`` (at most
    :data:`.counts.PAIRS_MAX` answers) collide under it with an answer before them, i.e.
    ``n`` minus its number of buckets. ``planes[q, w]`` holds bit ``q`` of the repeats of
    the guesses ``64 w .. 64 w + 63``, for the first ``words`` words (the guesses
    ``0 .. 64 words - 1``: every one with the cache rows' width); the bits past the last
    guess are 0.

    Candidate ``j`` opens a new bucket of guess ``g`` unless it collides under ``g``
    with one of candidates ``0..j-1``. Each pair's collisions are a bitset over the
    guesses, made once per pair and then reused by every set that holds the pair, so
    candidate ``j``'s repeats are the OR of ``j`` bitsets: 64 guesses per word
    operation, where :func:`distinct_pairs` compares a byte per guess for each pair.
    Whether candidate ``j`` repeats is added up over the candidates in bit planes (a
    ripple-carry adder over words, as many planes as ``n - 1`` needs). A pair's row comes
    from ``cache`` (:func:`pair_cache`), made first if it is not held.
    """
    rows, slot, owner, used = cache
    C = rows.shape[0]
    n = cands.shape[0]
    W = min(words, rows.shape[1])
    P = 1  # bit planes for up to n - 1 repeats per guess
    while n > (1 << P):
        P += 1
    planes = np.zeros((P, W), np.uint64)
    rep = np.empty(W, np.uint64)
    for j in range(1, n):
        b = cands[j]
        rep[:] = 0
        for i in range(j):
            a = cands[i]
            lo = min(a, b)
            hi = max(a, b)
            k = pair_index(lo, hi)
            s = np.int64(slot[k])
            if s < 0:  # made now, in the next row in turn (over the oldest pair)
                s = used[0] % C
                if used[0] >= C:
                    slot[owner[s]] = -1
                    used[1] += 1
                used[0] += 1
                slot[k] = s
                owner[s] = k
                pair_row(mt, lo, hi, rows[s])
            row = rows[s]
            for w in range(W):
                rep[w] |= row[w]
        for q in range(P):  # planes += rep (one bit per guess); rep becomes the carry
            pk = planes[q]
            for w in range(W):
                t = pk[w] & rep[w]
                pk[w] ^= rep[w]
                rep[w] = t
    return planes


@njit(cache=CACHE, nogil=True)
def _plane_value(planes, g: int) -> np.int64:
    """The number held in bit planes ``planes`` for guess column ``g``."""
    w = g >> 6
    b = np.uint64(g & 63)
    v = np.int64(0)
    for q in range(planes.shape[0]):
        v |= np.int64((planes[q, w] >> b) & np.uint64(1)) << q
    return v


@njit(cache=CACHE, nogil=True)
def pair_counts(mt, cands, arow, green, cache):
    """Per guess column of ``mt`` (every one, in order): the number of distinct patterns
    over ``cands`` (at most :data:`.counts.PAIRS_MAX` answers), and whether one is
    ``green``: the numbers :func:`distinct_pairs` gives over every column, from the
    answers' pair bitsets (:func:`pair_repeats`). ``arow[c]``: the guess column of
    answer ``c`` (the only guess with a green for it).
    """
    n = cands.shape[0]
    G = mt.shape[1]
    planes = pair_repeats(mt, cands, cache, cache[0].shape[1])
    nb = np.full(G, n, np.int64)
    one = np.uint64(1)
    for q in range(planes.shape[0]):
        pk = planes[q]
        for w in range(pk.shape[0]):
            x = pk[w]
            if x == 0:
                continue
            base = w * 64
            for t in range(min(64, G - base)):
                nb[base + t] -= np.int64((x >> np.uint64(t)) & one) << q
    has_green = np.zeros(G, np.bool_)
    for j in range(n):
        g = arow[cands[j]]
        has_green[g] = mt[cands[j], g] == green
    return nb, has_green


@njit(cache=CACHE, nogil=True)
def pair_count_extremes(mt, cands, arow, green, cache, G):
    """What a count bound needs of :func:`pair_counts`, over the first ``G > 0`` guess
    columns of ``mt`` and without reading out every guess: ``(most, most_green,
    first)``, the most buckets any of them makes of ``cands``, the most buckets plus one
    for one that shows all green, and the first column that makes ``n`` buckets (-1 if
    none). Only the words of those columns are read.

    The least number of repeats over the guesses is found in :func:`pair_repeats`' bit
    planes from the top plane down, a word of 64 guesses at a time (the guesses still at
    the least so far, ``AND NOT`` the plane wherever one of them has a 0 there), so the
    cost is the planes' words, not a pass over the guesses; the candidates' own columns
    (the only ones that can show all green) are read one by one.
    """
    n = cands.shape[0]
    planes = pair_repeats(mt, cands, cache, (G + 63) >> 6)
    W = planes.shape[1]
    low = np.empty(W, np.uint64)  # the guesses whose repeats equal the least so far
    for w in range(W):
        low[w] = ~np.uint64(0)
    if G % 64:
        low[W - 1] = (np.uint64(1) << np.uint64(G % 64)) - np.uint64(1)
    least = 0
    for q in range(planes.shape[0] - 1, -1, -1):
        pk = planes[q]
        zero = False  # does a guess still at the least have a 0 in plane q?
        for w in range(W):
            if low[w] & ~pk[w]:
                zero = True
                break
        if zero:
            for w in range(W):
                low[w] &= ~pk[w]
        else:
            least |= 1 << q
    first = -1
    if least == 0:
        for w in range(W):
            if low[w]:
                first = w * 64 + trailing_zeros(low[w])
                break
    most = n - least
    most_green = most
    for j in range(n):
        g = arow[cands[j]]
        if g < G and mt[cands[j], g] == green:
            most_green = max(most_green, n - _plane_value(planes, g) + 1)
    return most, most_green, first
