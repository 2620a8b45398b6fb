"""The one bucket-statistics module: how guesses split a candidate set, for every caller.

A guess splits the candidate answers into *buckets* by the feedback pattern each
candidate would show. Every partition score of the project (entropy, expected size,
minimax, partition count, the average eliminated of "Wordle Solver KT", the evil host's reply, the
review's luck, the prior strategies' weighted scores) is a function of those bucket
sizes, so all of them are computed here and nowhere else:

* :func:`bucket_stats` - per guess row: number of buckets, largest bucket (and its
  pattern, ties to the lowest code: the evil host's rule), sum of squared sizes and
  sum of ``s log2 s``; the derived entropy / expected size / average eliminated are
  properties of :class:`BucketStats`;
* :func:`weighted_stats` - the same over bucket *masses* (answer-prior weights):
  entropy, sum of squared masses, largest mass;
* :func:`count_buckets` (compiled) - only the number of buckets of every guess
  (bitsets, or pairwise comparisons for small sets): several times cheaper per cell,
  so the greedy choice (:mod:`wordle_core.kernels.greedy`) rules out most guesses
  with it before the full statistics, and the exact search orders and bounds guesses
  with it;
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

Shared compiled primitives for other kernels (``wordle_core.kernels.exact`` and
``.hard``), callable from numba code: :func:`count_block` / :func:`stats_block` (the two
passes of the blocked kernel over one block of guesses and a reusable counts table from
:func:`counts_table`), :func:`row_is_perfect` (perfect-split test of one guess with a
stamp array, no clearing), :func:`split_codes` (counting-sort split of items by their
pattern codes), :func:`distinct_pairs` (the number of buckets of every guess over a
small set, by pairwise comparisons that vectorise across guesses, with an early stop at
the first perfect split: the exact search's hot loop below :data:`PAIRS_MAX` candidates;
with a ``floor`` it drops the guesses that cannot reach it as it goes, which makes it the
search for a perfect split of sets up to :data:`PRUNED_PAIRS_MAX` too), and
:func:`pair_counts` with :func:`pair_cache` (the same counts over every guess for sets
of up to :data:`PAIR_COUNT_MAX` answers, from each answer pair's collisions kept as a
bitset over the guesses and reused by every set holding the pair: the exact search's
small sets in normal mode), and :func:`count_columns` (every column in order counted in
vector lanes, a 256-bit pattern set per guess: the larger sets of normal mode).

The vectorised numpy version of the statistics lives in ``tests/reference_buckets.py``
only, as the reference the tests compare these kernels with.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numba
import numpy as np
from llvmlite import ir as llvm_ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from wordle_core.errors import TooManyPatternsError

BLOCK = 64  # guesses per block: 64 x 243 counters (8 or 16 bit) + first-visit lists, about L1 size
PERFECT_ROW_SCAN = 128  # at most this many rows: the perfect-split scan reads rows directly
ROW_KERNEL_ROWS = 16  # at most this many guess rows: the row kernel (no transposed copy)
SPARSE_ROWS = 16  # ... or at most 1/16 of all rows: a gather of scattered columns costs more
_PARALLEL_CELLS = 400_000  # rows x candidates from which the blocked kernel uses threads
_TRANSPOSE_MAX_BYTES = 256 << 20  # larger matrices are read row by row (no second copy in memory)
COUNT_PATTERNS_MAX = 3**8  # greedy counts buckets by count_buckets up to this many patterns (8-letter words)
MAX_PATTERNS = 3**14  # feedback patterns the per-pattern tables support: words of up to 14 letters


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
PAIRS_MAX = 32  # candidate sets up to this size: distinct_pairs beats a bitset per guess
PRUNED_PAIRS_MAX = 255  # ... and up to this size when it drops guesses (counts are 8-bit)


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def distinct_pairs(mt, cands, rows, dense, green, stop_perfect, floor):
    """Per guess: the number of distinct patterns over a small candidate set, and whether
    one is ``green`` (all-green: the guess is a candidate); for ``n <= PAIRS_MAX``, or
    up to :data:`PRUNED_PAIRS_MAX` when ``floor`` prunes.

    Candidate ``j`` opens a new bucket of guess ``t`` when its pattern differs from
    those of candidates ``0..j-1``: ``n(n-1)/2`` comparisons per guess, but over a block
    of guesses at a time they are element-wise loops on contiguous arrays, which the
    compiler turns into SIMD compares (16-32 guesses per instruction); a per-guess
    table or bitset (:func:`count_block`) is a scatter that cannot be vectorised.

    ``rows``: the guesses (columns of ``mt``; every column in order when ``dense``).
    Returns ``(nb, isg, first, done)``. With ``stop_perfect`` the count stops after the
    block holding the first guess that gives every candidate its own pattern: ``first``
    is its index in ``rows`` (-1 if none) and ``nb``/``isg`` are valid for the first
    ``done`` guesses (all of them when ``first`` is -1).

    ``floor`` (``< 1``: off): only the guesses whose count plus one can exceed ``floor``
    are wanted. Every few candidates the block drops the guesses that can no longer get
    there (count so far plus one per candidate still to come, plus one for a possible
    green) and packs the others together, so later candidates are compared over fewer
    guesses; a dropped guess gets that upper bound as ``nb`` and ``isg = True`` (so
    ``nb + isg`` bounds its true ``nb + isg`` from above, and is ``<= floor``). With
    ``floor = n`` a guess is dropped at its first repeated pattern, which is what a
    search for a perfect split needs (a perfect guess is never dropped).
    """
    n_g = rows.shape[0]
    n = cands.shape[0]
    blk = 512
    prune = floor >= 1
    nb = np.empty(n_g, np.int64)
    isg = np.empty(n_g, np.bool_)
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
                        isg[lo + col[t]] = True
                ma = k
                if ma == 0:
                    break
        if prune:
            for t in range(ma):
                nb[lo + col[t]] = cnt[t]
                isg[lo + col[t]] = gr[t] != 0
        else:
            for t in range(m):
                nb[lo + t] = cnt[t]
                isg[lo + t] = gr[t] != 0
        if stop_perfect:
            for t in range(ma):  # (packing keeps the guesses in order)
                if cnt[t] == n:
                    return nb, isg, lo + (col[t] if prune else t), lo + m
    return nb, isg, -1, n_g


PAIR_COUNT_MAX = 32  # candidate sets up to this size: pair_counts (normal mode)
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


@njit(cache=True, nogil=True)
def pair_index(a: int, b: int) -> int:
    """The index of the pair of answers ``a < b`` among all pairs (``b (b - 1) / 2 + a``)."""
    return b * (b - 1) // 2 + a


@intrinsic
def _equal64(typingctx, a, b, off):
    """Bit ``t`` set when ``a[off + t] == b[off + t]``, for ``t < 64`` (``a``, ``b``:
    C-contiguous ``uint8`` or ``uint16`` arrays of one type with at least ``off + 64``
    entries): one vector compare of 64 entries whose lanes become the bits of a word, as
    LLVM lowers it for the machine (``vpcmpeqb`` into a mask register, or compares and
    ``pmovmskb``s)."""
    if not (all(isinstance(x, types.Array) and x.dtype in (types.uint8, types.uint16)
                and x.layout == "C" for x in (a, b)) and a.dtype == b.dtype):
        return None
    sig = types.uint64(a, b, types.intp)
    item = a.dtype.bitwidth

    def codegen(context, builder, signature, args):
        vec = llvm_ir.VectorType(llvm_ir.IntType(item), 64).as_pointer()
        ptrs = []
        for ty, arr in zip(signature.args[:2], args[:2], strict=True):
            data = context.make_array(ty)(context, builder, arr).data
            ptrs.append(builder.bitcast(builder.gep(data, [args[2]]), vec))
        eq = builder.icmp_unsigned("==", builder.load(ptrs[0], align=1),
                                   builder.load(ptrs[1], align=1))
        return builder.bitcast(eq, llvm_ir.IntType(64))

    return sig, codegen


@njit(cache=True, nogil=True)
def _pair_row(mt, a, b, out):
    """``out``: the bitset of the guesses under which answers ``a`` and ``b`` collide
    (bit ``g % 64`` of word ``g // 64``): 64 guesses' patterns compared at once
    (:func:`_equal64`), the last word's guesses one by one."""
    ra = mt[a]
    rb = mt[b]
    G = ra.shape[0]
    full = G >> 6
    for k in range(full):
        out[k] = _equal64(ra, rb, k << 6)
    if G & 63:
        x = np.uint64(0)
        for g in range(full << 6, G):
            if ra[g] == rb[g]:
                x |= np.uint64(1) << np.uint64(g & 63)
        out[full] = x


@njit(cache=True, nogil=True)
def pair_repeats(mt, cands, cache, words):
    """Per guess column of ``mt``, in bit planes: how many of ``cands`` (at most
    :data:`PAIR_COUNT_MAX` answers) collide under it with an answer before them, i.e.
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
                _pair_row(mt, lo, hi, rows[s])
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


@njit(cache=True, nogil=True)
def _plane_value(planes, g: int) -> int:
    """The number held in bit planes ``planes`` for guess column ``g``."""
    w = g >> 6
    b = np.uint64(g & 63)
    v = 0
    for q in range(planes.shape[0]):
        v |= np.int64((planes[q, w] >> b) & np.uint64(1)) << q
    return v


@njit(cache=True, nogil=True)
def pair_counts(mt, cands, arow, green, cache):
    """Per guess column of ``mt`` (every one, in order): the number of distinct patterns
    over ``cands`` (at most :data:`PAIR_COUNT_MAX` answers), and whether one is
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
    isg = np.zeros(G, np.bool_)
    for j in range(n):
        g = arow[cands[j]]
        isg[g] = mt[cands[j], g] == green
    return nb, isg


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def is_dense(MT: np.ndarray, legal: np.ndarray) -> bool:
    """Are the allowed rows all of ``MT``'s guesses in order (normal mode)?"""
    G = legal.shape[0]
    return MT.shape[1] == G and G > 0 and legal[0] == 0 and legal[G - 1] == G - 1


COUNT_FLAG_BYTES = 16 << 10  # count_buckets' flags for a block of guesses: about L1 size
FLAGS_FROM = 64  # count_buckets: byte flags from this many candidates, bitsets below
_BYTE_LANES = np.uint64(0x00FF00FF00FF00FF)  # (sums of 8-bit lanes, in 16-bit lanes)
_SUM16 = np.uint64(0x0001000100010001)  # (x * _SUM16) >> 48: the sum of x's four 16-bit lanes


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _count_bitsets(MT, cands, legal, dense, green, n_pat):
    """:func:`count_buckets` for small sets: a pattern bitset per guess, in blocks of 256
    guesses, each candidate's row read in order across the block."""
    G = legal.shape[0]
    n = cands.shape[0]
    nw = (n_pat + 63) // 64
    blk = 256
    bits = np.zeros((blk, nw), np.uint64)
    nb = np.empty(G, np.int64)
    isg = np.empty(G, np.bool_)
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
                c += _popcount(bits[t, w])
            nb[g0 + t] = c
            isg[g0 + t] = (bits[t, gw] & gb) != np.uint64(0)
    return nb, isg


SET_LANES = 8  # guesses per vector of 64-bit lanes (one 512-bit register, or two of 256)
SET_GROUPS = 4  # vectors per call of _count_block: SET_BLOCK guesses, 16 accumulators
SET_BLOCK = SET_LANES * SET_GROUPS
SET_WORDS = 4  # a guess's pattern set: 256 bits (games of at most 256 patterns)


@intrinsic
def _count_block(typingctx, mt, cands, g0, green, nb, isg):
    """:func:`count_columns` for the :data:`SET_BLOCK` guess columns ``g0 ..`` of ``mt``:
    ``nb[g0 + t]``, the number of patterns column ``g0 + t`` shows over ``cands``, and
    ``isg[g0 + t]``, whether one is ``green``. ``mt``: a C-contiguous ``uint8`` (or
    ``uint16``) matrix (answers x guesses) of at least ``g0 + SET_BLOCK`` columns whose
    patterns are below 256; ``cands``: integer answer rows.

    Written as vector code because numba has no vector types. Each guess keeps the set
    of patterns it shows as 256 bits (four 64-bit words) in vector lanes: for each
    candidate, the block's patterns are loaded 8 at a time and widened into 64-bit
    lanes, and each lane sets its pattern's bit in the word the pattern falls in (a
    compare and a masked OR per word). The 16 accumulators stay in registers across
    the candidates, so a cell costs about two vector operations for eight guesses (a
    byte flag per pattern costs a store per cell and a sum per guess). The counts are
    then four vector popcounts per 8 guesses.
    """
    if not (isinstance(mt, types.Array) and mt.ndim == 2 and mt.dtype in (types.uint8, types.uint16)
            and mt.layout == "C" and isinstance(cands, types.Array) and cands.ndim == 1
            and isinstance(cands.dtype, types.Integer)
            and isinstance(nb, types.Array) and nb.dtype == types.int64 and nb.layout == "C"
            and isinstance(isg, types.Array) and isg.dtype == types.boolean
            and isg.layout == "C"):
        return None
    sig = types.void(mt, cands, types.intp, types.intp, nb, isg)
    signed = cands.dtype.signed
    item = mt.dtype.bitwidth

    def codegen(context, builder, signature, args):
        m_arr, c_arr, _, _, n_arr, g_arr = (
            context.make_array(ty)(context, builder, v) if isinstance(ty, types.Array) else None
            for ty, v in zip(signature.args, args, strict=True))
        g0, green = args[2], args[3]
        i64 = llvm_ir.IntType(64)
        lanes = llvm_ir.VectorType(i64, SET_LANES)
        item_lanes = llvm_ir.VectorType(llvm_ir.IntType(item), SET_LANES)
        byte_lanes = llvm_ir.VectorType(llvm_ir.IntType(8), SET_LANES)

        def splat(x):
            return llvm_ir.Constant(lanes, [x] * SET_LANES)

        row_stride = builder.extract_value(m_arr.strides, 0)
        cand_stride = builder.extract_value(c_arr.strides, 0)
        n = builder.extract_value(c_arr.shape, 0)
        cand_base = builder.ptrtoint(c_arr.data, i64)
        # the block's first pattern in row 0, in bytes (strides are in bytes)
        block = builder.add(builder.ptrtoint(m_arr.data, i64),
                            builder.mul(g0, llvm_ir.Constant(i64, item // 8)))
        acc = [[cgutils.alloca_once_value(builder, splat(0)) for _ in range(SET_WORDS)]
               for _ in range(SET_GROUPS)]
        with cgutils.for_range(builder, n) as loop:
            ptr = builder.inttoptr(builder.add(cand_base, builder.mul(loop.index, cand_stride)),
                                   c_arr.data.type)
            c = builder.load(ptr)
            if c.type.width < 64:
                c = builder.sext(c, i64) if signed else builder.zext(c, i64)
            row = builder.inttoptr(builder.add(block, builder.mul(c, row_stride)),
                                   item_lanes.as_pointer())
            for q in range(SET_GROUPS):
                p = builder.zext(builder.load(builder.gep(row, [llvm_ir.Constant(i64, q)]),
                                              align=1), lanes)
                bit = builder.shl(splat(1), builder.and_(p, splat(63)))
                word = builder.lshr(p, splat(6))
                for w in range(SET_WORDS):
                    a = builder.load(acc[q][w])
                    hit = builder.icmp_unsigned("==", word, splat(w))
                    builder.store(builder.select(hit, builder.or_(a, bit), a), acc[q][w])
        ctpop = cgutils.get_or_insert_function(builder.module, llvm_ir.FunctionType(lanes, [lanes]),
                                               f"llvm.ctpop.v{SET_LANES}i64")
        green_word = builder.lshr(green, llvm_ir.Constant(i64, 6))
        green_shift = builder.and_(green, llvm_ir.Constant(i64, 63))
        green_bit = llvm_ir.Constant(lanes, None)  # (green_shift in every lane)
        for t in range(SET_LANES):
            green_bit = builder.insert_element(green_bit, green_shift,
                                               llvm_ir.Constant(llvm_ir.IntType(32), t))
        nb_out = builder.bitcast(builder.gep(n_arr.data, [g0]), lanes.as_pointer())
        g_out = builder.bitcast(builder.gep(g_arr.data, [g0]), byte_lanes.as_pointer())
        for q in range(SET_GROUPS):
            words = [builder.load(acc[q][w]) for w in range(SET_WORDS)]
            count = builder.call(ctpop, [words[0]])
            for w in range(1, SET_WORDS):
                count = builder.add(count, builder.call(ctpop, [words[w]]))
            builder.store(count, builder.gep(nb_out, [llvm_ir.Constant(i64, q)]), align=8)
            held = words[SET_WORDS - 1]  # the word holding green (a pattern below 256)
            for w in range(SET_WORDS - 2, -1, -1):
                is_w = builder.icmp_unsigned("==", green_word, llvm_ir.Constant(i64, w))
                held = builder.select(is_w, words[w], held)
            shown = builder.and_(builder.lshr(held, green_bit), splat(1))
            builder.store(builder.trunc(shown, byte_lanes),
                          builder.gep(g_out, [llvm_ir.Constant(i64, q)]), align=1)
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, nogil=True)
def _count_sets(MT, cands, G, green, nb, isg) -> int:
    """``nb``/``isg`` of :func:`count_columns` for the guess columns ``0 ..`` of ``MT`` in
    whole blocks of :data:`SET_BLOCK` below ``G`` (:func:`_count_block`); returns where
    they stop."""
    end = G - G % SET_BLOCK
    for g0 in range(0, end, SET_BLOCK):
        _count_block(MT, cands, g0, green, nb, isg)
    return end


@njit(cache=True, nogil=True)
def count_buckets(MT: np.ndarray, cands: np.ndarray, legal: np.ndarray, green: int,
                  n_pat: int):
    """Per allowed guess: number of distinct patterns over ``cands``, and whether one is
    all-green (the guess is a candidate).

    The hot loop of the exact search. Every column in order (normal mode), at most 256
    patterns: :data:`SET_BLOCK` guesses at a time, each with its set of patterns in
    vector lanes (:func:`_count_block`: four 64-bit words per guess, kept in registers
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


@njit(cache=True, nogil=True)
def count_columns(MT: np.ndarray, cands: np.ndarray, legal: np.ndarray, dense: bool, green: int,
                  n_pat: int):
    """:func:`count_buckets`, told whether ``legal`` is ``0 .. G - 1`` (``dense``: then
    the columns are read in order, without ``legal``), as for a prefix of the columns."""
    G = legal.shape[0]
    if dense and n_pat <= 64 * SET_WORDS and G >= SET_BLOCK:
        # every column in order: pattern sets in vector lanes, the last columns gathered
        nb = np.empty(G, np.int64)
        isg = np.empty(G, np.bool_)
        done = _count_sets(MT, cands, G, green, nb, isg)
        if done < G:
            nb_t, isg_t = _count_gathered(MT, cands, legal[done:], False, green, n_pat)
            nb[done:] = nb_t
            isg[done:] = isg_t
        return nb, isg
    return _count_gathered(MT, cands, legal, dense, green, n_pat)


@njit(cache=True, nogil=True)
def _count_gathered(MT, cands, legal, dense, green, n_pat):
    """:func:`count_columns` without the vector lanes: pairwise compares, bitsets or
    byte flags by the number of candidates (the columns gathered, or too many patterns)."""
    G = legal.shape[0]
    n = cands.shape[0]
    if n <= PAIRS_MAX:
        nb, isg, _, _ = distinct_pairs(MT, cands, legal, dense, green, False, 0)
        return nb, isg
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
    isg = np.empty(G, np.bool_)
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
            isg[g0 + t] = flags[(t << shift) | green] != 0
    return nb, isg


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
    rows = np.arange(n_all, dtype=np.int64) if rows is None else np.ascontiguousarray(rows, dtype=np.int64)
    if not dense:
        dense = _is_all_rows(rows, n_all)
    cands = np.ascontiguousarray(cands, dtype=np.int64)
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
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    if rows.shape[0] <= PERFECT_ROW_SCAN or matrix.nbytes > _TRANSPOSE_MAX_BYTES:
        return int(_first_perfect(np.asarray(matrix), rows, cands, n_patterns))
    dense = _is_all_rows(rows, matrix.shape[0])
    if cands.shape[0] <= PRUNED_PAIRS_MAX:  # pairwise comparisons, SIMD over the guesses
        return int(distinct_pairs(transposed(matrix), cands, rows, dense, n_patterns - 1, True,
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
