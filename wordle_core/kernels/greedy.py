"""The greedy partition strategies' choice, and their whole decision trees, compiled.

The four greedy measures (:mod:`wordle_core.strategies.greedy`: entropy, expected
size, minimax, partition count) choose a guess from its bucket statistics. This module
is that choice as one compiled function, :func:`choose`, and the walk that plays it
from an opener against every candidate, :func:`greedy_tree`: a whole tree without a
Python call per position (the fan-out's cost was mostly per-position Python around the
bucket kernels).

The choice at a position with ``n`` candidates (``n <= 2``: the first candidate):

1. ``n <= PERFECT_CHECK_MAX``: the first candidate that gives every candidate its own
   pattern (a perfect split) is the choice: every measure ranks a perfect split first
   and the tie rule prefers a candidate, then the earlier row;
2. ``n <= PERFECT_POOL_MAX``: else the first perfect splitter of the pool;
3. else every guess of the pool is scored. Guesses are first ruled out by their bucket
   count ``B`` alone (:func:`wordle_core.kernels.buckets.count_buckets`, several times
   cheaper per cell than the full statistics): ``B`` bounds each measure's first key
   (entropy ``<= log2 B``, expected size ``>= n^2 / B``, largest bucket ``>= n / B``,
   partitions ``= B``). The :data:`PROBE` guesses with the most buckets are scored in
   full; their best first key is one the choice cannot exceed, so only guesses whose
   bound reaches it are scored (in pool order);
4. the lowest keys win (:func:`keys`), then a guess that may be the answer, then the
   earlier row of the pool (the guesses' alphabetical order).

Ruling out changes the cost, never the choice: the chosen guess and every guess tied
with it have bounds at or below the best key, so they are all kept
(``tests/test_strategy_choices.py`` checks the choice against full numpy scoring on
random positions, and whole trees against the per-position Python walk).

The keys are bit-identical with numpy's: entropy ``log2 n - sum(s log2 s) / n`` (the
same ``s log2 s`` table, summed in the same order by the same bucket kernels), plus
``1/n`` for a candidate, negated and rounded to 9 decimals as ``np.round`` does
(multiply by 10^9, round half to even, divide).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from wordle_core.kernels.buckets import (
    COUNT_PATTERNS_MAX,
    PERFECT_ROW_SCAN,
    ROW_KERNEL_ROWS,
    SPARSE_ROWS,
    block_for,
    blocked_serial,
    count_buckets,
    distinct_pairs,
    row_is_perfect,
    rows_kernel,
)
from wordle_core.kernels.buckets.vector import CACHE  # (False with the plain twins: nothing cached)
from wordle_core.kernels.walk import TREE_OK, choice, walk_tree

ENTROPY, EXPECTED_SIZE, MINIMAX, PARTITIONS = 0, 1, 2, 3  # the measures, as the kernels name them
PROBE = 16  # guesses scored in full first, for the key that rules the others out
FLOOR_MARGIN = 1e-6  # above the keys' rounding (9 decimals) and float error
PERFECT_CHECK_MAX = 64  # candidate sets up to this size try the candidates for a perfect split
PERFECT_POOL_MAX = 15  # ... and up to this size the whole pool
ROUND = 1e9  # np.round(x, 9): rint(x * 1e9) / 1e9

# --- keys ----------------------------------------------------------------------------


@njit(cache=CACHE, nogil=True)
def keys(kind, n, buckets, largest, sum_sq, sum_xl, is_cand, log2n):
    """The (first, second) keys of one guess, both minimised: the measure's ranking.

    ``log2n`` is ``np.log2(n)``; ``is_cand``: the guess may be the answer.

    * entropy: ``-(information in bits + P(guess is the answer))``, rounded (no second key);
    * expected size: sum of squared bucket sizes, then the largest bucket;
    * minimax: the largest bucket, then the sum of squares;
    * partitions: minus the number of buckets, then the sum of squares.
    """
    if kind == ENTROPY:
        v = -((log2n - sum_xl / n) + (1.0 if is_cand else 0.0) / n)
        return np.rint(v * ROUND) / ROUND, 0.0
    if kind == EXPECTED_SIZE:
        return sum_sq, float(largest)
    if kind == MINIMAX:
        return float(largest), sum_sq
    return -float(buckets), sum_sq


@njit(cache=CACHE, nogil=True)
def key_floor(kind, n, buckets, is_cand, log2n_table):
    """A lower bound of a guess's first key from its number of buckets alone."""
    b = max(buckets, 1)
    if kind == ENTROPY:  # B buckets carry at most log2 B bits (equal sizes)
        return -(log2n_table[b] + (1.0 if is_cand else 0.0) / n)
    if kind == EXPECTED_SIZE:  # the sum of squares of B sizes summing to n
        return float(n) * n / b
    if kind == MINIMAX:  # the largest of B buckets
        return float((n + b - 1) // b)
    return -float(buckets)


# --- scratch -------------------------------------------------------------------------


def log2_table(n: int) -> np.ndarray:
    """``np.log2(k)`` for ``k = 0..n`` (0 at ``k = 0``): the table :func:`choose` reads
    ``log2 n`` from (numpy's values: the compiled keys equal numpy's bit for bit)."""
    return np.log2(np.maximum(np.arange(n + 1, dtype=np.float64), 1.0))


def scratch(n_guesses: int, n_patterns: int, mt_dtype: np.dtype) -> tuple:
    """Reusable work arrays for :func:`choose` (allocated once per tree or position).

    ``(mark, seen, stamp, counts8, counts32, firsts, n_first, row_counts, cells)``: a
    per-guess candidate mark (all zero between calls), the perfect-split check's stamps,
    the blocked kernel's count tables (8-bit below 256 candidates, 32-bit above), its
    first-visit lists, the row kernel's counters, and two tallies of matrix cells read
    (``cells[0]``: by the full statistics, ``cells[1]``: by the bucket counts).
    """
    blk = block_for(n_patterns)
    return (np.zeros(n_guesses, np.bool_), np.zeros(n_patterns, np.int64), np.zeros(1, np.int64),
            np.zeros((1, blk, n_patterns), np.uint8), np.zeros((1, blk, n_patterns), np.int32),
            np.zeros((1, blk, n_patterns + 1), mt_dtype), np.zeros((1, blk), np.int64),
            np.zeros(n_patterns, np.int32), np.zeros(2, np.int64))


# --- the choice ----------------------------------------------------------------------


@njit(cache=CACHE, nogil=True)
def _first_perfect(mat, mt, has_mt, cands, rows, dense, green, seen, stamp):
    """Index in ``rows`` of the first guess splitting ``cands`` (at most ``PAIRS_MAX``)
    into singletons, or -1."""
    if rows.shape[0] <= PERFECT_ROW_SCAN or not has_mt:
        for i in range(rows.shape[0]):
            if row_is_perfect(mat[rows[i]], cands, seen, stamp):
                return i
        return -1
    return distinct_pairs(mt, cands, rows, dense, green, True, cands.shape[0])[2]


@njit(cache=CACHE, nogil=True)
def _stats(mat, mt, has_mt, rows, dense, cands, xlogx, sc):
    """Full bucket statistics of guess rows ``rows`` over ``cands`` (the engine's kernels)."""
    n_g = rows.shape[0]
    n = cands.shape[0]
    n_pat = sc[1].shape[0]
    buckets = np.zeros(n_g, np.int64)
    largest = np.zeros(n_g, np.int64)
    sum_sq = np.zeros(n_g, np.float64)
    sum_xl = np.zeros(n_g, np.float64)
    worst = np.full(n_g, n_pat, np.int64)
    sc[8][0] += n_g * n
    if n_g <= ROW_KERNEL_ROWS or n_g * SPARSE_ROWS <= mat.shape[0] or not has_mt:
        rows_kernel(mat, rows, cands, xlogx, sc[7], buckets, largest, sum_sq, sum_xl, worst)
    elif n < 256:
        blk = sc[3].shape[1]
        blocked_serial(mt, cands, rows, dense, n_g, blk, sc[3], sc[5], sc[6], xlogx, buckets, largest,
                        sum_sq, sum_xl, worst)
    else:
        blk = sc[4].shape[1]
        blocked_serial(mt, cands, rows, dense, n_g, blk, sc[4], sc[5], sc[6], xlogx, buckets, largest,
                        sum_sq, sum_xl, worst)
    return buckets, largest, sum_sq, sum_xl


@njit(cache=CACHE, nogil=True)
def _pick(kind, n, idx, rows, buckets, largest, sum_sq, sum_xl, mark, log2n):
    """The best of ``rows[idx]`` (stats aligned with ``idx``): lowest keys, then a candidate,
    then the first."""
    best = -1
    b1 = 0.0
    b2 = 0.0
    bc = False
    for k in range(idx.shape[0]):
        g = rows[idx[k]]
        c = mark[g]
        k1, k2 = keys(kind, n, buckets[k], largest[k], sum_sq[k], sum_xl[k], c, log2n)
        if best < 0 or k1 < b1 or (k1 == b1 and (k2 < b2 or (k2 == b2 and c and not bc))):
            best = g
            b1 = k1
            b2 = k2
            bc = c
    return best


@njit(cache=CACHE, nogil=True)
def choose(mat, mt, has_mt, arow, rows, dense, cands, kind, log2n_table, xlogx, rule_out, sc):
    """The measure ``kind``'s guess row among ``rows`` for the candidates ``cands``.

    ``mat``: guesses x answers patterns, ``mt`` its transpose (answers x guesses; when
    ``has_mt`` is False, a matrix too big for a second copy, ``mt`` is not read and
    every guess is read from its row of ``mat``);
    ``arow``: each answer's guess row; ``rows``: the pool (sorted guess rows; ``dense``:
    every guess in order); ``log2n_table[k]`` = ``np.log2(k)``; ``xlogx``: the
    ``s log2 s`` table (:func:`wordle_core.kernels.buckets.xlogx_table`) up to at least
    ``n``; ``rule_out``: rule guesses out by bucket count first (the choice is the same
    either way); ``sc``: :func:`scratch`. See the module docstring for the rule.
    """
    n = cands.shape[0]
    if n <= 2:
        return arow[cands[0]]
    mark, seen, stamp = sc[0], sc[1], sc[2]
    n_pat = seen.shape[0]
    green = n_pat - 1
    if n <= PERFECT_CHECK_MAX:
        for j in range(n):
            g = arow[cands[j]]
            if row_is_perfect(mat[g], cands, seen, stamp):
                return g
        if n <= PERFECT_POOL_MAX:
            hit = _first_perfect(mat, mt, has_mt, cands, rows, dense, green, seen, stamp)
            if hit >= 0:
                return rows[hit]
    for j in range(n):
        mark[arow[cands[j]]] = True
    log2n = log2n_table[n]
    n_g = rows.shape[0]
    if rule_out and has_mt and n_g > 2 * PROBE and n_pat <= COUNT_PATTERNS_MAX:
        nb, _ = count_buckets(mt, cands, rows, green, n_pat)
        sc[8][1] += n_g * n
        # the PROBE guesses with the most buckets (each bound falls as B grows)
        hist = np.zeros(n + 2, np.int64)
        for i in range(n_g):
            hist[nb[i]] += 1
        t = n + 1
        acc = 0
        while t > 0 and acc + hist[t] < PROBE:
            acc += hist[t]
            t -= 1
        probe = np.empty(PROBE, rows.dtype)  # as ``sub`` below: _stats compiles once
        m = 0
        at_t = PROBE - acc  # how many of the guesses with exactly t buckets join the probe
        for i in range(n_g):
            if nb[i] > t or (nb[i] == t and at_t > 0):
                if nb[i] == t:
                    at_t -= 1
                probe[m] = rows[i]
                m += 1
        not_dense = bool(False)  # noqa: UP018 (a bool, not a literal: _stats is compiled once)
        pb, pl, ps, px = _stats(mat, mt, has_mt, probe[:m], not_dense, cands, xlogx, sc)
        best = np.inf
        for k in range(m):
            k1, _ = keys(kind, n, pb[k], pl[k], ps[k], px[k], mark[probe[k]], log2n)
            best = min(best, k1)
        keep = np.empty(n_g, np.int64)
        nk = 0
        for i in range(n_g):
            if key_floor(kind, n, nb[i], mark[rows[i]], log2n_table) <= best + FLOOR_MARGIN:
                keep[nk] = i
                nk += 1
        idx = keep[:nk]
        sub = rows[idx]
        st = _stats(mat, mt, has_mt, sub, dense and nk == n_g, cands, xlogx, sc)
    else:
        idx = np.arange(n_g)
        st = _stats(mat, mt, has_mt, rows, dense, cands, xlogx, sc)
    out = _pick(kind, n, idx, rows, st[0], st[1], st[2], st[3], mark, log2n)
    for j in range(n):
        mark[arow[cands[j]]] = False
    return out


# --- the tree ------------------------------------------------------------------------


class GreedyChooser(NamedTuple):
    """What :func:`choose` reads at every position of a whole tree besides the position
    itself: the arrays :class:`wordle_core.strategies.greedy.GreedyStrategy` keeps per
    lexicon and matrix, the measure and the scratch (:func:`scratch`)."""

    mat: np.ndarray  # pattern matrix, guesses x answers
    mt: np.ndarray  # its transpose, answers x guesses (when has_mt)
    has_mt: bool
    arow: np.ndarray  # each answer id's guess row
    kind: int  # the measure (see :func:`choose`)
    log2n_table: np.ndarray
    xlogx: np.ndarray
    rule_out: bool
    scratch: tuple  # :func:`scratch`


@overload(choice, inline="always")
def _tree_choice(how, cands, legal, greens, need, d):
    """:func:`choose` as :func:`wordle_core.kernels.walk.walk_tree` asks for a choice
    (``how``: a :class:`GreedyChooser`). Inlined into the walk: a separately compiled
    chooser would compile :func:`choose`'s whole call graph once more, for nothing but
    this unpacking."""
    if not (isinstance(how, types.NamedTuple) and how.instance_class is GreedyChooser):
        return None

    def impl(how, cands, legal, greens, need, d):
        mat, mt, has_mt, arow, kind, log2n_table, xlogx, rule_out, sc = how
        return choose(mat, mt, has_mt, arow, legal, legal.shape[0] == mat.shape[0], cands, kind,
                      log2n_table, xlogx, rule_out, sc)
    return impl


def greedy_tree(how: GreedyChooser, codes, counts, opener, cands0, legal0, greens0, need0, hard, depth_left):
    """Every game of the measure ``how.kind`` from guess row ``opener`` against ``cands0``:
    :func:`choose` at every position of one compiled walk
    (:func:`wordle_core.kernels.walk.walk_tree`; this is its Python entry, so the walk
    and the chooser it is given are compiled and cached together).

    The nodes come in the order of :meth:`wordle_core.game.tree.Tree.build` (depth first,
    lower patterns first): ``(guess, parent, pattern_in, depth, solved_at, ok)`` with
    ``solved_at[answer]`` the node whose guess is that answer (-1: not among ``cands0``).
    ``ok`` is False when a game needed more than ``depth_left`` guesses (no progress).
    Hard mode: ``legal0`` are the rows legal at the root and ``(greens0, need0)`` its
    obligations (:mod:`wordle_core.kernels.hard`); each child's legal rows are its
    parent's filtered by the obligations after its feedback. Normal mode: ``legal0`` is
    every guess.
    """
    nodes, status = walk_tree(how, how.mat, how.arow, codes, counts, opener, cands0, legal0,
                              greens0, need0, hard, 0, depth_left, how.scratch[1].shape[0])
    guess, parent, pat_in, depth, solved = nodes
    return guess, parent, pat_in, depth, solved, status == TREE_OK
