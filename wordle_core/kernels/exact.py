"""Numba kernels of the look-ahead / exact search (see :mod:`wordle_core.search.exact`).

Why numba: the exact search is a recursion over hundreds of thousands of small
candidate sets; each node scans every allowed guess against the set (12,972 x n
pattern reads) and then recurses into the buckets of the few guesses whose lower bound
is still below the best total found. Per node that is a data-dependent loop with early
exits, memo look-ups and recursion, which numpy cannot express without a Python call
per node (~50 µs each: minutes per opener). Compiled, a node costs microseconds.
Numba is a well-kept JIT already in the project's dependencies, and ``cache=CACHE``
keeps the compiled code on disk so only the first run pays for compilation.

Conventions
-----------
* ``MT`` is the pattern matrix transposed: ``MT[answer, guess]`` (C-contiguous), so a
  scan over guesses in ascending order reads each candidate's row sequentially.
* A *value* of a candidate set ``S`` with ``d`` guesses left is the minimal total number
  of guesses (from now on) that solves every answer of ``S`` within ``d`` guesses;
  :data:`INF` means impossible. ``solve`` is alpha-beta style: it returns the exact value
  when that is ``< beta``, otherwise some lower bound ``>= beta``.
* The memo maps a 128-bit hash of (sorted candidates, guesses left, hard-mode
  obligations) to ``(value, exact flag, best guess row)``; a non-exact entry is a lower
  bound.

Lower bounds. A set of ``n`` needs ``>= 2n - 1`` guesses in total (one guess each, plus
a second for all but at most one answer). For a guess ``g`` that splits ``S`` into ``B``
buckets, every non-green bucket ``b`` needs ``>= 2|b| - 1`` more, so
``value(g) >= 3n - B - [g in S]``; a guess whose non-green buckets all have at most two
answers reaches that bound exactly (a pair costs 1 + 2 = 3). The search only expands
guesses whose bound is below the best total found so far, which is what makes the
minimum over *all* guesses a proof. A bucket not searched yet has a stronger bound
than ``2m - 1`` when it is larger than ``kmax``, the most buckets any allowed guess makes
of its parent (a subset never has more): :func:`set_floor`. When those floors do not
refute a guess, the exact search bounds its buckets by their own counts
(:func:`count_bound`, the ``3n - B - [g]`` bound one level down) before it searches any.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange, types
from numba.core.imputils import impl_ret_borrowed
from numba.experimental import structref
from numba.extending import intrinsic, overload
from numba.typed import Dict

from wordle_core.kernels.buckets.counts import (
    PAIRS_MAX,
    PRUNED_PAIRS_MAX,
    count_buckets,
    count_columns,
    distinct_pairs,
    is_dense,
)
from wordle_core.kernels.buckets.pairs import PAIR_ANSWERS_MAX, pair_count_extremes, pair_counts
from wordle_core.kernels.buckets.stats import row_is_perfect
from wordle_core.kernels.buckets.vector import CACHE  # (False with the plain twins: nothing cached)
from wordle_core.kernels.hard import (  # the NYT rule, compiled (HardConstraints)
    capacity,
    filter_scratch,
    hard_filter,
    hard_filter_bits,
    obligations_after,
)
from wordle_core.kernels.walk import choice, walk_tree

INF = 1 << 40
KEY_TYPE = types.UniTuple(types.int64, 2)
VAL_TYPE = types.UniTuple(types.int64, 3)

# stats slots
ST_NODES, ST_SCANS, ST_EVALS, ST_HITS, ST_CELLS, ST_PROBES = 0, 1, 2, 3, 4, 5
ST_PRUNED, ST_DROPPED = 6, 7  # positions that counted over their undominated guesses; guesses left out
ST_SKIPPED = 8  # guesses not expanded: one that dominates them was tried first
# solve's ``exact`` argument: the width-limited search; the exact one; the exact one
# without count_bound on the buckets of a guess before they are searched (same values)
WIDTH_LIMITED, EXACT, EXACT_NO_COUNT_BOUNDS = 0, 1, 2


def new_memo() -> Dict:
    """An empty memo (numba typed dict) for :func:`solve`."""
    return Dict.empty(key_type=KEY_TYPE, value_type=VAL_TYPE)


LOCAL_PAIR_WORDS = 12 << 20  # the local pair cache's rows: 96 MiB, as many pairs as fit ...
LOCAL_PAIR_SLOTS = 1 << 17  # ... up to this many


class Neighbours(NamedTuple):
    """The guesses that differ only at one position, grouped (:func:`neighbour_groups`)."""

    grp: np.ndarray  # [z, h]: the group of guess row h at position z
    start: np.ndarray  # group k's rows are members[start[k]:start[k + 1]]
    members: np.ndarray  # the rows of every group, ascending within a group


class LocalScratch(NamedTuple):
    """The scratch with which one position at a time counts its buckets over a copy of
    some guesses' columns (:func:`localise`, :func:`localise_rows`, :func:`local_views`)."""

    state: np.ndarray  # [in use, prune_from, skip_from]
    mt: np.ndarray  # the copied columns (answers x guesses kept), flat
    rows: np.ndarray  # the guess rows kept, by bound
    arow: np.ndarray  # each candidate's own column among them
    ub: np.ndarray  # their bucket counts (upper bounds over every subset)
    legal: np.ndarray  # 0 .. k - 1
    present: np.ndarray  # (undominated_rows' scratch: one flag per symbol)
    pairs: tuple  # a pair cache over the kept columns (pair_cache's layout)
    neighbours: Neighbours  # neighbour_groups of the guesses
    dom: np.ndarray  # per depth: the dominators of a position's guesses


class Frames(NamedTuple):
    """:func:`solve`'s scratch: one frame per depth (``[d]``) where a node with ``d``
    guesses left splits the candidates by a guess, plus the splitting counters, the
    rule's scratch and the local scratch."""

    out: np.ndarray  # [d]: the candidates grouped by pattern
    starts: np.ndarray  # [d][k]: where bucket k starts in out[d]
    sizes: np.ndarray  # [d][k]: its size
    pats: np.ndarray  # [d][k]: its pattern
    floors: np.ndarray  # [d][k]: its lower bound
    bucket_greens: np.ndarray  # [d][k]: the greens known in bucket k (hard mode)
    bucket_letters: np.ndarray  # [d][k]: the letter counts known in bucket k (hard mode)
    legal: np.ndarray  # [d]: a bucket's allowed rows (hard mode)
    counts: np.ndarray  # the splitting counters (all zero between splits)
    positions: np.ndarray  # the splitting positions
    rule_scratch: tuple  # hard_filter's scratch (filter_scratch)
    legal_bits: np.ndarray  # [d]: the bitset of the allowed rows of the node with d left
    local: LocalScratch


def frames(depth: int, n_answers: int, n_guesses: int, n_pat: int, length: int, n_sym: int,
           neighbours: Neighbours | None = None, prune_from: int = 0, skip_from: int = 0,
           hard: bool = False) -> Frames:
    """Scratch of :func:`solve` for positions with up to ``depth`` guesses left: one frame
    per depth (a node with ``d`` left splits into frame ``d``; its children, ``d - 1``
    left, use the frames below, so a child's candidates and allowed rows are views of its
    parent's frame, never copies), plus the splitting counters and the rule's scratch.

    A :class:`Frames`; ``legal_bits[d]`` is the bitset of the allowed rows of the node with ``d``
    left (hard mode: the caller sets the root's, each node its children's).

    ``local`` is the scratch with which one position at a time counts its buckets over
    the guesses no other guess dominates there (:func:`undominated_rows`): with
    ``neighbours`` (:func:`neighbour_groups` of the guesses) and ``prune_from > 0``, a
    position of at least ``prune_from`` answers whose buckets are bounded by their counts
    (:func:`count_bound`) copies those guesses' columns of the matrix and keeps its own
    pair cache over them; without, the arrays are empty and nothing is pruned. With
    ``hard`` and ``prune_from > 0`` (no ``neighbours``, no pair cache), such a position
    copies every allowed guess's columns (:func:`localise_rows`), and a bucket that keeps
    all of them (its feedback obliges nothing new) is counted over the copy.
    A :class:`LocalScratch`, ``state = [in use, prune_from, skip_from]``. ``dom[d]``
    (with ``neighbours`` and ``skip_from > 0``) holds the :func:`dominators` of a position
    with ``d`` guesses left and at least ``skip_from`` answers, whose search then skips a
    guess once one dominating it was tried.
    """
    D = depth + 1
    skip = neighbours is not None and skip_from > 0
    on = (neighbours is not None or hard) and prune_from > 0
    a, g = (n_answers, n_guesses) if on else (0, 0)
    if neighbours is None:
        neighbours = Neighbours(np.zeros((length, 0), np.int32), np.zeros(1, np.int64),
                                np.zeros(0, np.int32))
    paired = on and not hard and n_answers <= PAIR_ANSWERS_MAX
    # (an unused cache's slot map is int16 like the small caches' of pair_cache: those of
    # hard mode and the width-limited search; count_bound is compiled once for both)
    pairs = (np.empty(LOCAL_PAIR_WORDS if paired else 0, np.uint64),
             np.full(n_answers * (n_answers - 1) // 2 if paired else 0, -1,
                     np.int32 if paired else np.int16),
             np.zeros(LOCAL_PAIR_SLOTS if paired else 0, np.int64), np.zeros(2, np.int64))
    local = LocalScratch(
        state=np.array([0, prune_from if on else 0, skip_from if skip else 0], np.int64),
        mt=np.empty(a * g, np.uint8), rows=np.empty(g, np.int32), arow=np.empty(a, np.int32),
        ub=np.empty(g, np.int64), legal=np.arange(g, dtype=np.int32),
        present=np.zeros(n_sym if on or skip else 0, np.bool_), pairs=pairs, neighbours=neighbours,
        dom=np.empty((D, n_guesses if skip else 0), np.int32))
    return Frames(
        out=np.empty((D, n_answers), np.int32), starts=np.empty((D, n_pat), np.int64),
        sizes=np.empty((D, n_pat), np.int64), pats=np.empty((D, n_pat), np.int64),
        floors=np.empty((D, n_pat), np.int64), bucket_greens=np.empty((D, n_pat, length), np.int8),
        bucket_letters=np.empty((D, n_pat, n_sym), np.uint8), legal=np.empty((D, n_guesses), np.int32),
        counts=np.zeros(n_pat, np.int64), positions=np.empty(n_pat, np.int64),
        rule_scratch=filter_scratch(length, n_sym),
        legal_bits=np.zeros((D, (n_guesses + 63) // 64), np.uint64), local=local)


class SearchArgs(NamedTuple):
    """What :func:`solve` reads and no node of the search changes, as the caller keeps it
    (:class:`wordle_core.search.exact.ExactSolver`); with the scratch (:func:`frames`)
    it makes the compiled :class:`Search` (:func:`new_search`)."""

    MT: np.ndarray  # the pattern matrix transposed: MT[answer, guess]
    codes: np.ndarray  # the guesses' symbol codes (guesses x length)
    lcounts: np.ndarray  # the guesses' letter counts (hard mode; the walk's rule)
    arow: np.ndarray  # each answer's guess row
    ubs: np.ndarray  # [d]: the children's bucket bounds of the node with d left (scratch)
    width: int  # guesses expanded by the heuristic at each node
    exact: int  # WIDTH_LIMITED, EXACT or EXACT_NO_COUNT_BOUNDS
    hard: bool
    memo: Dict  # new_memo()
    est: np.ndarray  # the heuristic's table (scan)
    green: int  # the all-green pattern
    n_pat: int  # the number of patterns
    scratch_c: np.ndarray  # scan's counters
    scratch_t: np.ndarray  # scan's table
    seen: tuple  # row_is_perfect's stamps
    stats: np.ndarray  # the ST_* counters
    rule: tuple  # the NYT rule's bitsets (rule_bitsets: green, least), hard mode
    pairs: tuple  # the pair cache of the small sets of normal mode (pair_cache)


@structref.register
class SearchType(types.StructRef):
    """numba's type of a :class:`Search`."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Search(structref.StructRefProxy):
    """:func:`solve`'s fixed arguments and scratch in one compiled structure, passed by
    one reference: a call in the recursion counts one reference instead of one per
    array, and each field is read by name. Made by :func:`new_search` from a
    :class:`SearchArgs` and :func:`frames`; the scratch fields are the frames' arrays
    (``out``, ``starts``, ``sizes``, ``pats``, ``floors``, ``bucket_greens``,
    ``bucket_letters``, ``bucket_legal`` (the frames' ``legal``), ``counts``,
    ``positions``, ``legal_bits``, ``rule_scratch``), the local scratch (``local``) and,
    for every node to read, its ``dom``, ``local_state`` (its ``state``), ``neighbours``
    and ``present``."""


SEARCH_FIELDS = (
    "MT", "codes", "arow", "ubs", "width", "exact", "hard", "memo", "est", "green", "n_pat",
    "scratch_c", "scratch_t", "seen", "stats", "rule_green", "rule_least", "pairs",
    "out", "starts", "sizes", "pats", "floors", "bucket_greens", "bucket_letters", "bucket_legal",
    "counts", "positions", "legal_bits", "rule_scratch", "local", "dom", "local_state",
    "neighbours", "present")
structref.define_proxy(Search, SearchType, SEARCH_FIELDS)


@njit(cache=CACHE)
def _new_search(a, fr):
    lo = fr.local
    return Search(a.MT, a.codes, a.arow, a.ubs, a.width, a.exact, a.hard, a.memo, a.est, a.green,
                  a.n_pat, a.scratch_c, a.scratch_t, a.seen, a.stats, a.rule[0], a.rule[1], a.pairs,
                  fr.out, fr.starts, fr.sizes, fr.pats, fr.floors, fr.bucket_greens,
                  fr.bucket_letters, fr.legal, fr.counts, fr.positions, fr.legal_bits,
                  fr.rule_scratch, lo, lo.dom, lo.state, lo.neighbours, lo.present)


def new_search(fixed: SearchArgs, fr: Frames) -> Search:
    """The :class:`Search` of ``fixed`` with the scratch ``fr`` (:func:`frames`): it holds
    their arrays (no copies), so what the caller writes into them (the root's
    ``legal_bits``) the search reads."""
    return _new_search(fixed, fr)


def neighbour_groups(codes: np.ndarray) -> Neighbours:
    """The guesses that differ only at one position, grouped: for :func:`undominated_rows`.

    :class:`Neighbours` ``(grp, start, members)``: ``grp[z, h]`` is the group of guess row ``h`` at position
    ``z`` (the rows equal to it everywhere but at ``z``, itself included), whose rows are
    ``members[start[grp]:start[grp + 1]]``, ascending.
    """
    G, L = codes.shape
    grp = np.empty((L, G), np.int32)
    members = []
    start = [0]
    base = 0
    for z in range(L):
        _, inv = np.unique(np.delete(codes, z, axis=1), axis=0, return_inverse=True)
        inv = inv.ravel()
        grp[z] = inv + base
        members.append(np.argsort(inv, kind="stable"))
        counts = np.bincount(inv)
        start.extend((np.cumsum(counts) + start[-1]).tolist())
        base += counts.shape[0]
    return Neighbours(grp, np.array(start, np.int64), np.concatenate(members).astype(np.int32))


@njit(cache=CACHE, nogil=True)
def dominators(codes, arow, cands, grp, start, members, present, dom) -> int:
    """For every guess row ``h``: ``dom[h]``, a guess that dominates ``h`` over ``cands``
    (normal mode, every guess allowed), or -1 when none is found; returns how many rows
    are kept (-1).

    A guess *dominates* another over a set when its feedback always tells at least as
    much: its buckets of any subset refine the other's, so it makes at least as many of
    them, and the other, holding a letter no candidate has, is no candidate; its value
    at the set (any number of guesses left) is then at most the other's. A letter of
    guess ``h`` that no candidate holds shows grey wherever it stands; ``dom[h] = j``
    when ``j`` equals ``h`` but at one such position ``z`` and holds there

    * a letter some candidate holds that ``h`` holds nowhere else (``j`` shows at ``z``
      what ``h`` does not, and everything ``h`` shows elsewhere, letter counts included),
    * or another letter no candidate holds, ``j`` coming first (the same feedback).

    Each such step leads to a guess with fewer of those letters, or an earlier one with
    as many, so following ``dom`` from any guess ends at a kept one that dominates it:
    the least bound ``3n - B - [guess in set]`` and the most buckets of every subset are
    the same over the kept guesses as over all. ``grp, start, members``:
    :func:`neighbour_groups`; ``present``: a boolean per symbol (scratch).
    """
    G, L = codes.shape
    present[:] = False
    for j in range(cands.shape[0]):
        w = codes[arow[cands[j]]]
        for i in range(L):
            present[w[i]] = True
    k = 0
    for h in range(G):
        w = codes[h]
        by = -1
        for z in range(L):
            if present[w[z]]:
                continue
            q = grp[z, h]
            for t in range(start[q], start[q + 1]):
                j = members[t]
                if j == h:
                    continue
                c = codes[j, z]
                if present[c]:
                    clash = False
                    for i in range(L):
                        if w[i] == c:
                            clash = True
                            break
                    if not clash:
                        by = j
                        break
                elif j < h:
                    by = j
                    break
            if by >= 0:
                break
        dom[h] = by
        if by < 0:
            k += 1
    return k


@njit(cache=CACHE, nogil=True)
def kept_rows(dom, out) -> int:
    """The rows ``h``, ascending, with no dominator (``dom[h] < 0``, :func:`dominators`);
    written into ``out``, their number returned. ``out`` may be ``dom`` itself (``k <= h``:
    ``dom[h]`` is read before any write to it)."""
    k = 0
    for h in range(dom.shape[0]):
        if dom[h] < 0:
            out[k] = h
            k += 1
    return k


@njit(cache=CACHE, nogil=True)
def undominated_rows(codes, arow, cands, grp, start, members, present, out) -> int:
    """The guess rows, ascending, that :func:`dominators` finds no dominator for over
    ``cands``; written into ``out`` (at least a row per guess), their number returned."""
    dominators(codes, arow, cands, grp, start, members, present, out)
    return kept_rows(out[:codes.shape[0]], out)


@njit(cache=CACHE)
def set_key(cands: np.ndarray, d: int, hard: bool, cg: np.ndarray, cn: np.ndarray
            ) -> tuple[np.int64, np.int64]:
    """128-bit key of a position: sorted candidates, guesses left and, in hard mode, the
    obligations (``cg``: green symbol per position or -1, ``cn``: least count per symbol).

    In hard mode the allowed guesses are a function of the obligations (the rows of the
    pool that satisfy them), so the obligations identify them: a child's key is known
    before its allowed rows are filtered, and a memo hit skips the filter.
    """
    h1 = np.uint64(0xCBF29CE484222325) ^ np.uint64(d)
    h2 = np.uint64(0x9E3779B97F4A7C15) + np.uint64(d) * np.uint64(0x100000001B3)
    m1 = np.uint64(0x100000001B3)
    m2 = np.uint64(0xBF58476D1CE4E5B9)
    for i in range(cands.shape[0]):
        x = np.uint64(cands[i]) + np.uint64(1)
        h1 = (h1 ^ x) * m1
        h2 = (h2 + x * np.uint64(0x94D049BB133111EB)) * m2
        h2 ^= h2 >> np.uint64(31)
    if hard:
        h1 ^= np.uint64(0x5555555555555555)
        for i in range(cg.shape[0]):
            x = np.uint64(cg[i] + 2) + np.uint64(i) * np.uint64(131)
            h1 = (h1 ^ x) * m1
            h2 = (h2 + x * np.uint64(0xD6E8FEB86659FD93)) * m2
            h2 ^= h2 >> np.uint64(29)
        for i in range(cn.shape[0]):
            if cn[i] > 0:
                x = np.uint64(cn[i]) * np.uint64(1 << 20) + np.uint64(i) + np.uint64(977)
                h1 = (h1 ^ x) * m1
                h2 = (h2 + x * np.uint64(0xD6E8FEB86659FD93)) * m2
                h2 ^= h2 >> np.uint64(29)
    return (np.int64(h1), np.int64(h2))


@njit(cache=CACHE)
def cons_child(cg: np.ndarray, cn: np.ndarray, codes: np.ndarray, g: int, p: int, length: int):
    """Hard-mode obligations after guess row ``g`` showed pattern ``p`` (new arrays; the
    rule itself is :func:`wordle_core.kernels.hard.obligations_after`)."""
    ng = np.empty_like(cg)
    nn = np.empty_like(cn)
    obligations_after(codes, g, p, cg, cn, ng, nn)
    return ng, nn


@njit(cache=CACHE)
def scan(MT: np.ndarray, cands: np.ndarray, legal: np.ndarray, green: int, est: np.ndarray,
         counts: np.ndarray, touched: np.ndarray):
    """Per allowed guess: bucket count, green flag, largest non-green bucket, heuristic.

    The heuristic is ``sum(est[|b|])`` over non-green buckets: an estimate of the
    guesses still needed after this one (lower is better).
    """
    G = legal.shape[0]
    n = cands.shape[0]
    nb = np.empty(G, np.int64)
    has_green = np.empty(G, np.bool_)
    maxb = np.empty(G, np.int64)
    h = np.empty(G, np.float64)
    for i in range(G):
        g = legal[i]
        nt = 0
        for j in range(n):
            p = MT[cands[j], g]
            if counts[p] == 0:
                touched[nt] = p
                nt += 1
            counts[p] += 1
        mb = 0
        hs = 0.0
        gr = False
        for t in range(nt):
            p = touched[t]
            c = counts[p]
            counts[p] = 0
            if p == green:
                gr = True
                continue
            if c > mb:
                mb = c
            hs += est[c]
        nb[i] = nt
        has_green[i] = gr
        maxb[i] = mb
        h[i] = hs
    return nb, has_green, maxb, h


@njit(cache=CACHE)
def _top_w(h: np.ndarray, w: int) -> np.ndarray:
    """Indices of the ``w`` smallest ``h`` (ties: lower index first), best first."""
    G = h.shape[0]
    w = min(w, G)
    idx = np.empty(w, np.int64)
    val = np.empty(w, np.float64)
    k = 0
    for i in range(G):
        v = h[i]
        if k == w and v >= val[k - 1]:
            continue
        j = k if k < w else w - 1
        while j > 0 and val[j - 1] > v:
            if j < w:
                idx[j] = idx[j - 1]
                val[j] = val[j - 1]
            j -= 1
        idx[j] = i
        val[j] = v
        if k < w:
            k += 1
    return idx[:k]


@njit(cache=CACHE, nogil=True)
def split_into(MT: np.ndarray, cands: np.ndarray, g: int, green: int, cnt: np.ndarray,
               pos: np.ndarray, out: np.ndarray, starts: np.ndarray, sizes: np.ndarray,
               pats: np.ndarray) -> int:
    """Guess row ``g``'s non-green buckets of ``cands``, written into the caller's arrays;
    returns their number ``k``.

    ``pats[:k]``, ``sizes[:k]``: the buckets, largest first (ties: lower pattern first);
    bucket ``i`` is ``out[starts[i]:starts[i] + sizes[i]]``, its candidates in their
    order in ``cands``. ``cnt`` (all zero, one entry per pattern) is left all zero;
    ``pos`` is scratch of one entry per pattern. No allocation: the search splits
    millions of sets.
    """
    n = cands.shape[0]
    k = 0
    for j in range(n):
        p = MT[cands[j], g]
        if cnt[p] == 0 and p != green:
            pats[k] = p
            k += 1
        cnt[p] += 1
    for i in range(k):
        sizes[i] = cnt[pats[i]]
    # stable insertion sort: size descending, then pattern ascending (k is small)
    for i in range(1, k):
        p = pats[i]
        m = sizes[i]
        t = i
        while t > 0 and (sizes[t - 1] < m or (sizes[t - 1] == m and pats[t - 1] > p)):
            pats[t] = pats[t - 1]
            sizes[t] = sizes[t - 1]
            t -= 1
        pats[t] = p
        sizes[t] = m
    acc = 0
    for i in range(k):
        starts[i] = acc
        pos[pats[i]] = acc
        acc += sizes[i]
        cnt[pats[i]] = 0
    cnt[green] = 0
    for j in range(n):
        p = MT[cands[j], g]
        if p != green:
            out[pos[p]] = cands[j]
            pos[p] += 1
    return k


@njit(cache=CACHE)
def bucket_split(MT: np.ndarray, cands: np.ndarray, g: int, green: int, n_pat: int):
    """Candidates grouped by pattern (stable): (grouped cands, starts, sizes, patterns) of
    the non-green buckets, largest bucket first (new arrays; see :func:`split_into`)."""
    out = np.empty(cands.shape[0], cands.dtype)
    starts = np.empty(n_pat, np.int64)
    sizes = np.empty(n_pat, np.int64)
    pats = np.empty(n_pat, np.int64)
    k = split_into(MT, cands, g, green, np.zeros(n_pat, np.int64), np.empty(n_pat, np.int64),
                   out, starts, sizes, pats)
    return out, starts[:k].copy(), sizes[:k].copy(), pats[:k].copy()


@njit(cache=CACHE)
def hard_capacity(cg: np.ndarray, d: int) -> int:
    """Most answers any hard-mode strategy can still separate within ``d`` guesses when the
    positions with a known green are ``cg >= 0``: :func:`wordle_core.kernels.hard.capacity`
    (a bound, not a heuristic); a set larger than this is lost, whatever the search would
    try.
    """
    f = 0
    for i in range(cg.shape[0]):
        if cg[i] < 0:
            f += 1
    return capacity(f, d)


@njit(cache=CACHE)
def _lb_set(m: int, d: int) -> int:
    """Size-only lower bound of a set of ``m`` answers with ``d`` guesses left."""
    if m == 1:
        return 1
    if d <= 1:
        return INF
    return 2 * m - 1


@njit(cache=CACHE)
def set_floor(m: int, d: int, kmax: int) -> int:
    """Lower bound of the value of a set of ``m`` answers with ``d`` guesses left when no
    allowed guess makes more than ``kmax`` buckets of it (the green one included; e.g. the
    most any guess makes of a superset: a subset never has more buckets).

    * Each guess leaves at most ``kmax`` sets, and one guess left solves one answer, so
      within ``d`` guesses at most ``kmax ** (d - 1)`` answers can be solved: a larger
      set is lost (:data:`INF`).
    * A guess with ``B <= kmax`` buckets costs ``>= 3m - B - 1`` (see the module's
      lower bounds), which beats ``2m - 1`` once ``m > kmax``.
    """
    lb = _lb_set(m, d)
    if m <= kmax or lb >= INF:
        return lb
    r = 1  # kmax ** (d - 1), without overflow
    for _ in range(d - 1):
        r *= kmax
        if r >= m:
            break
    if m > r:
        return INF
    return max(lb, 3 * m - kmax - 1)


@njit(cache=CACHE)
def can_beat(ub: np.ndarray, legal: np.ndarray, n: int, T: int, sel: np.ndarray) -> int:
    """The guesses whose bound may still be below ``beta`` (``T = 3n - beta``).

    Writes into ``sel`` the positions ``i`` in ``legal`` with ``min(ub[legal[i]], n) + 1
    > T`` and returns how many there are, in ascending order. The others score at most
    ``min(ub, n)`` buckets (plus one if green), so their bound ``3n - buckets - [green]``
    is ``>= beta``: a cut-off proof need not count them, and that upper bound (with
    "green") stands in for their count.
    """
    k = 0
    for i in range(legal.shape[0]):
        if min(ub[legal[i]], n) + 1 > T:
            sel[k] = i
            k += 1
    return k


@njit(cache=CACHE)
def _store(memo, key, v: int, exact: int, g: int) -> None:
    if exact == 0 and key in memo:
        old = memo[key]
        if old[1] == 1 or old[0] >= v:
            return
    memo[key] = (v, exact, g)


@njit(cache=CACHE, nogil=True)
def _store_perfect(memo, key, v: int, row: int, gmap) -> None:
    """A perfect split's value, found over the rows of ``gmap`` (empty: every row). The
    first such guess among the undominated ones need not be the first among all (a
    dominated guess before it splits as well), so there only the bound is stored: a
    search of the position finds the same value and the first guess."""
    if gmap.shape[0] == 0:
        _store(memo, key, v, 1, row)
    else:
        _store(memo, key, v, 0, -1)


@njit(cache=CACHE, nogil=True)
def perfect_candidate(MT, arow, cands, seen) -> int:
    """The guess row of the first candidate (in ``cands`` order) that gives every other
    candidate its own pattern, or -1: playing it costs the bound ``2n - 1``."""
    for j in range(cands.shape[0]):
        if row_is_perfect(MT[:, arow[cands[j]]], cands, seen[0], seen[1]):
            return arow[cands[j]]
    return -1


@njit(cache=CACHE, nogil=True)
def localise(MT, codes, arow, cands, child_ub, local, dom):
    """Prepare ``local`` (:func:`frames`) for the buckets of ``cands``: its undominated
    guesses (:func:`undominated_rows`), their columns of ``MT`` at the candidates' rows,
    each candidate's own column among them, their bucket counts ``child_ub`` (upper bounds
    over every subset) and an empty pair cache over them. ``dom``: the guesses'
    :func:`dominators` over ``cands`` when the caller has them (else empty: found here).
    Returns how many guesses there are, ``k``; :func:`local_views` gives the arrays to
    count with."""
    rows, present, nbr = local.rows, local.present, local.neighbours
    if dom.shape[0] == 0:
        k = undominated_rows(codes, arow, cands, nbr.grp, nbr.start, nbr.members, present, rows)
    else:
        k = kept_rows(dom, rows)
    _copy_columns(MT, arow, cands, child_ub, local, k)
    return k


@njit(cache=CACHE, nogil=True)
def localise_rows(MT, arow, cands, legal, child_ub, local):
    """:func:`localise` over every row of ``legal`` (hard mode: a position's allowed
    guesses, every candidate among them): a bucket whose feedback obliges nothing new
    keeps them all, and is then counted over the copy, in order. Returns their number."""
    k = legal.shape[0]
    local.rows[:k] = legal
    _copy_columns(MT, arow, cands, child_ub, local, k)
    return k


@njit(cache=CACHE, nogil=True)
def _copy_columns(MT, arow, cands, child_ub, local, k):
    """The second half of :func:`localise`: the ``k`` rows in ``local``'s ``rows``
    ordered by their bound, their columns copied, the pair cache (if any) emptied."""
    mt, rows, arow_l, ub_l, pairs = local.mt, local.rows, local.arow, local.ub, local.pairs
    order_by_bound(rows[:k], child_ub, cands.shape[0])
    m = mt[:MT.shape[0] * k].reshape((MT.shape[0], k))
    pos = np.empty(MT.shape[1], np.int32)
    for t in range(k):
        pos[rows[t]] = t
        ub_l[t] = child_ub[rows[t]]
    for j in range(cands.shape[0]):
        a = cands[j]
        src = MT[a]
        dst = m[a]
        for t in range(k):
            dst[t] = src[rows[t]]
        arow_l[a] = pos[arow[a]]  # (kept: a candidate is never dominated, and always allowed)
    if pairs[0].shape[0] > 0:  # forget the pairs held (their rows had other columns)
        # (owner's entries past the last node's rows are 0 or older pairs: harmless)
        slot, owner, used = pairs[1], pairs[2], pairs[3]
        for t in range(min(used[0], owner.shape[0])):
            slot[owner[t]] = -1
        used[:] = 0


@njit(cache=CACHE, nogil=True)
def stable_order(keys, span: int):
    """The positions of ``keys`` (each in ``0 .. span - 1``) by ascending key, ascending
    within a key: a stable counting sort."""
    cnt = np.zeros(span + 1, np.int64)
    for i in range(keys.shape[0]):
        cnt[keys[i] + 1] += 1
    for v in range(span):
        cnt[v + 1] += cnt[v]
    out = np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        b = keys[i]
        out[cnt[b]] = i
        cnt[b] += 1
    return out


@njit(cache=CACHE, nogil=True)
def order_by_bound(rows, ub, n: int) -> None:
    """Reorder ``rows`` in place by ``min(ub[row], n)``, most first, ascending within a
    value (:func:`stable_order`): the guesses that may matter to a count bound
    (:func:`can_beat`) are then a prefix (:func:`bound_prefix`)."""
    keys = np.empty(rows.shape[0], np.int64)
    for t in range(rows.shape[0]):
        keys[t] = n - min(ub[rows[t]], n)
    src = rows.copy()
    order = stable_order(keys, n + 1)
    for t in range(rows.shape[0]):
        rows[t] = src[order[t]]


@njit(cache=CACHE, nogil=True)
def bound_prefix(ub, legal, n: int, T: int) -> int:
    """How many of ``legal`` (ordered by :func:`order_by_bound`) :func:`can_beat` keeps:
    the first ``k``, those with ``min(ub, n) + 1 > T``."""
    k = 0
    while k < legal.shape[0] and min(ub[legal[k]], n) + 1 > T:
        k += 1
    return k


@intrinsic
def readonly_like(typingctx, a, like):
    """``a`` itself, typed read-only when the array ``like`` is (writable when it is not):
    a kernel given both ``a`` and ``like`` in turn is then compiled once, not once per
    flag (the type is all that changes; nothing is copied)."""
    if not (isinstance(a, types.Array) and isinstance(like, types.Array)):
        return None
    ret = a.copy(readonly=not like.mutable)

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, ret, args[0])
    return ret(a, like), codegen


@njit(cache=CACHE, nogil=True)
def local_views(local, MT, k):
    """``(mt, legal, ub, pairs)`` of ``local`` after :func:`localise` made ``k`` guesses:
    the matrix ``n_answers x k`` (read-only when the search's ``MT`` is, so the counting
    kernels are compiled for one matrix type), the rows ``0..k-1``, their bounds and the
    pair cache (as many rows of ``k`` bits as its words hold)."""
    pr = local.pairs
    w = (k + 63) // 64
    slots = min(pr[0].shape[0] // max(w, 1), pr[2].shape[0])
    rows = pr[0][:slots * w].reshape((slots, w))
    mt = readonly_like(local.mt[:MT.shape[0] * k].reshape((MT.shape[0], k)), MT)
    return mt, local.legal[:k], local.ub[:k], (rows, pr[1], pr[2][:slots], pr[3])


@njit(cache=CACHE, nogil=True)
def count_bound(MT, arow, cands, legal, ub, d, beta, green, n_pat, pairs, seen, memo, key, stats, gmap):
    """Lower bound of a set's value from its bucket counts alone, without a search; memoised.

    The first steps of :func:`solve` at ``cands`` (``d`` guesses left, ``legal`` its
    allowed rows, ``key`` its memo key), and no guess expanded: ``2n - 1`` if a candidate
    splits the rest into singletons, ``2n`` if another guess splits the set so (both
    exact, as is :data:`INF` with two guesses left and neither), else the least
    ``3n - B - [guess in set]`` over the allowed guesses, at least ``2n``, and
    :func:`set_floor` with the most buckets a guess makes. A guess whose upper bound
    ``ub[row]`` (its count over a superset) cannot take it below ``beta`` is not counted:
    ``beta`` stands in for its bound, as in :func:`can_beat`. Costs one count of the
    guesses that may matter, against a search of the position: the expansion of a guess
    uses it to refute the guess on its buckets' counts before it searches any of them.
    With ``gmap`` (the guesses of a position's local scratch, :func:`localise`, each
    one's row), the guesses are ordered by ``ub`` (:func:`order_by_bound`), so those
    that may matter are the first ones, counted in order (:func:`bound_prefix`).
    """
    n = cands.shape[0]
    stats[ST_PROBES] += 1
    pc = perfect_candidate(MT, arow, cands, seen)
    if pc >= 0:
        _store(memo, key, 2 * n - 1, 1, pc if gmap.shape[0] == 0 else gmap[pc])
        return 2 * n - 1
    G = legal.shape[0]
    dense = is_dense(MT, legal)
    # a position's local guesses (gmap: every column, in order) are ordered by their
    # bound (order_by_bound): the ones can_beat keeps are the first n_sel
    ordered = gmap.shape[0] > 0 and dense
    n_sel = bound_prefix(ub, legal, n, 3 * n - beta) if ordered else G
    if n <= PAIRS_MAX and dense and pairs[0].shape[0] > 0:
        # the guesses in order, as solve counts such sets: only the extremes are read
        # out of the pair bitsets' counts (the first perfect guess, the most buckets)
        stats[ST_CELLS] += n * n_sel
        most, most_green, first = 0, 0, -1
        if n_sel > 0:
            most, most_green, first = pair_count_extremes(MT, cands, arow, green, pairs, n_sel)
        if first >= 0:
            _store_perfect(memo, key, 2 * n, legal[first], gmap)
            return 2 * n
        lb = 3 * n - most_green
        kmax = most
    else:
        if ordered:
            rows = legal[:n_sel]
            in_order = True
        else:
            sel = np.empty(G, np.int64)
            n_sel = can_beat(ub, legal, n, 3 * n - beta, sel)
            if n_sel == G or (5 * n_sel >= 2 * G and dense):
                rows = legal
                n_sel = G
                in_order = dense
            else:
                rows = np.empty(n_sel, legal.dtype)
                for t in range(n_sel):
                    rows[t] = legal[sel[t]]
                in_order = False
        if n <= PAIRS_MAX and not in_order:  # (in order: count_columns' vector lanes)
            nb, has_green, first, _ = distinct_pairs(MT, cands, rows, False, green, True, 0)
            if first >= 0:
                _store_perfect(memo, key, 2 * n, rows[first], gmap)
                return 2 * n
        else:
            nb, has_green = count_columns(MT, cands, rows, in_order, green, n_pat)
        stats[ST_CELLS] += n * n_sel
        lb = INF
        kmax = 0
        for t in range(rows.shape[0]):
            if nb[t] == n:
                _store_perfect(memo, key, 2 * n, rows[t], gmap)
                return 2 * n
            v = 3 * n - nb[t] - (1 if has_green[t] else 0)
            if v < lb:
                lb = v
            if nb[t] > kmax:
                kmax = nb[t]
    if d == 2:
        _store(memo, key, INF, 1, -1)
        return INF
    if n_sel < G:  # the guesses not counted: beta, and at most min(ub, n) buckets
        if beta < lb:
            lb = beta
        if ordered:  # (the most of them: the first not counted)
            kmax = max(kmax, min(ub[legal[n_sel]], n))
        else:
            for i in range(G):
                c = min(ub[legal[i]], n)
                if c > kmax:
                    kmax = c
    lb = max(lb, 2 * n, set_floor(n, d, kmax))
    _store(memo, key, lb, 0, -1)
    return lb


@njit(cache=CACHE, nogil=True)
def memo_bound(memo, key, lb: int, beta: int, stats):
    """``(bound, settled)`` of a position from its memo entry: the entry's value when it is
    exact or already ``>= beta`` (settled: a hit), else the better of ``lb`` and its bound."""
    if key in memo:
        e = memo[key]
        if e[1] == 1 or e[0] >= beta:
            stats[ST_HITS] += 1
            return e[0], True
        if e[0] > lb:
            lb = e[0]
    return lb, False


@njit(cache=CACHE, nogil=True)
def perfect_split(s, cands, legal, ub, beta, key, sel):
    """The first guess that splits ``cands`` into singletons (none of them does: the
    bound is ``2n``), which costs ``2n``: ``(2n, ...)`` with the value stored, else
    ``(-1, counted, n_sel, nb_all, has_green_all)``, where ``counted`` says the pass
    counted the guesses' buckets on the way (``nb_all``, ``has_green_all``, at every
    position of ``legal``) and ``n_sel >= 0`` that it chose the guesses that may beat
    ``beta`` (:func:`can_beat`, into ``sel``)."""
    MT, memo, stats, green = s.MT, s.memo, s.stats, s.green
    n = cands.shape[0]
    G = legal.shape[0]
    counted, n_sel = False, -1
    nb_all = np.empty(0, np.int64)
    has_green_all = np.empty(0, np.bool_)
    T = 3 * n - beta  # (as in solve's count)
    dense = is_dense(MT, legal)
    if n <= PAIRS_MAX and dense and s.pairs[0].shape[0] > 0:
        # small set, normal mode: count every guess by the answers' pairwise
        # collision bitsets (pair_counts) and take the first perfect guess; if there
        # is none, the counts serve the scan.
        nb_all, has_green_all = pair_counts(MT, cands, s.arow, green, s.pairs)
        first = -1
        for i in range(G):
            if nb_all[i] == n:
                first = i
                break
        stats[ST_CELLS] += n * (G if first < 0 else first + 1)
        if first >= 0:
            _store(memo, key, 2 * n, 1, legal[first])
            return 2 * n, counted, n_sel, nb_all, has_green_all
        counted = True
    elif n <= PAIRS_MAX and s.exact and T >= 1 and not dense:
        # small set in a cut-off proof, hard mode (the rows are gathered anyway): count
        # only the guesses that the count would not skip (their bound may be below
        # beta), and let the parent's counts stand in for the others, as it does. A
        # perfect guess (n buckets) is never skipped, so the first one is the same.
        # (Normal mode reads every guess in order, which is faster than a gather.)
        n_sel = can_beat(ub, legal, n, T, sel)
        rows = legal[sel[:n_sel]]
        nb_r, has_green_r, first, done = distinct_pairs(MT, cands, rows, False, green, True, 0)
        stats[ST_CELLS] += n * done
        if first >= 0:
            _store(memo, key, 2 * n, 1, rows[first])
            return 2 * n, counted, n_sel, nb_all, has_green_all
        nb_all = np.empty(G, np.int64)
        has_green_all = np.empty(G, np.bool_)
        for i in range(G):
            nb_all[i] = min(ub[legal[i]], n)
            has_green_all[i] = True
        for t in range(n_sel):
            nb_all[sel[t]] = nb_r[t]
            has_green_all[sel[t]] = has_green_r[t]
        counted = True
    elif n <= PAIRS_MAX:
        # small set: count every guess's buckets a block at a time (SIMD) and stop
        # at the first perfect one; if there is none, the counts serve the scan.
        nb_all, has_green_all, first, done = distinct_pairs(MT, cands, legal, dense, green, True, 0)
        stats[ST_CELLS] += n * done
        if first >= 0:
            _store(memo, key, 2 * n, 1, legal[first])
            return 2 * n, counted, n_sel, nb_all, has_green_all
        counted = True
    elif n <= PRUNED_PAIRS_MAX:
        # (a block of guesses at a time, each dropped at its first shared pattern;
        # only the guesses that made at least n buckets of a superset can split
        # the set perfectly: ub[row] >= n)
        rows = np.empty(G, legal.dtype)
        n_rows = 0
        for i in range(G):
            if ub[legal[i]] >= n:
                rows[n_rows] = legal[i]
                n_rows += 1
        if n_rows > 0:
            rows = rows[:n_rows]
            first = distinct_pairs(MT, cands, rows, is_dense(MT, rows), green, True, n)[2]
            if first >= 0:
                _store(memo, key, 2 * n, 1, rows[first])
                return 2 * n, counted, n_sel, nb_all, has_green_all
    elif n <= s.n_pat:
        # (early exit per guess at the first shared pattern)
        seen = s.seen
        for i in range(G):
            if ub[legal[i]] >= n and row_is_perfect(MT[:, legal[i]], cands, seen[0], seen[1]):
                _store(memo, key, 2 * n, 1, legal[i])
                return 2 * n, counted, n_sel, nb_all, has_green_all
    return -1, counted, n_sel, nb_all, has_green_all


@njit(cache=CACHE, nogil=True)
def count_guesses(s, cands, legal, ub, beta, sel, n_sel, counted, nb_all, has_green_all):
    """Every allowed guess's bucket count over ``cands`` (bitsets) and whether it makes a
    green bucket: ``(nb, has_green, n_sel)``. A guess that cannot beat ``beta``
    (:func:`can_beat`) is not counted: an upper bound of its buckets (and "green")
    stands in. The counts of :func:`perfect_split` (``counted``) are reused."""
    n = cands.shape[0]
    G = legal.shape[0]
    T = 3 * n - beta  # a guess scoring B + [green] <= T has the bound 3n - B - [g] >= beta
    if n_sel < 0:
        n_sel = can_beat(ub, legal, n, T, sel)
    nb = np.empty(G, np.int64)
    has_green = np.empty(G, np.bool_)
    for i in range(G):  # skipped: an upper bound of its buckets (and "green") stands in
        nb[i] = min(ub[legal[i]], n)
        has_green[i] = True
    # a sequential read of every guess is faster than a gather when most of them remain
    # (normal mode); hard mode's rows are gathered anyway, so it reads only those
    if n_sel == G or (5 * n_sel >= 2 * G and (counted or is_dense(s.MT, legal))):
        n_sel = G
        if counted:  # the perfect-split pass counted every guess
            nb, has_green = nb_all, has_green_all
        else:
            nb, has_green = count_buckets(s.MT, cands, legal, s.green, s.n_pat)
    elif n_sel > 0 and counted:  # the perfect-split pass counted them already
        for t in range(n_sel):
            nb[sel[t]] = nb_all[sel[t]]
            has_green[sel[t]] = has_green_all[sel[t]]
    elif n_sel > 0:
        rows = np.empty(n_sel, legal.dtype)
        for t in range(n_sel):
            rows[t] = legal[sel[t]]
        nb2, has_green2 = count_buckets(s.MT, cands, rows, s.green, s.n_pat)
        for t in range(n_sel):
            nb[sel[t]] = nb2[t]
            has_green[sel[t]] = has_green2[t]
    if not counted:
        s.stats[ST_CELLS] += n * n_sel
    return nb, has_green, n_sel


@njit(cache=CACHE, nogil=True)
def width_recount(s, cands, legal, beta, K, kmax, sel, n_sel, nb, has_green, lb1, nb_all,
                  has_green_all) -> int:
    """Width-limited search, some guesses not counted (``n_sel < G``): the guesses
    expanded are the heuristic's best among the first ``K`` by bound, and a skipped
    guess's bound is only a stand-in (>= beta). When fewer than ``K`` guesses have a bound
    below beta, stand-ins would fill the first ``K`` and could push a guess below beta
    out of the heuristic's top: the value would then depend on beta (on what was
    searched before), not on the position alone. So those nodes count the skipped
    guesses too (into ``nb``, ``has_green``, ``lb1``). Returns the most buckets a guess
    makes (``kmax``, unchanged when nothing is counted). ``nb_all``: the counts of
    :func:`perfect_split` at every guess, or empty (not counted)."""
    n = cands.shape[0]
    G = legal.shape[0]
    n_low = 0
    for i in range(G):
        if lb1[i] < beta:
            n_low += 1
    if n_low >= K:
        return kmax
    skipped = np.ones(G, np.bool_)
    for t in range(n_sel):
        skipped[sel[t]] = False
    n_sk = G - n_sel
    idx = np.empty(n_sk, np.int64)
    t = 0
    for i in range(G):
        if skipped[i]:
            idx[t] = i
            t += 1
    if nb_all.shape[0] > 0:  # the perfect-split pass counted them already (every guess:
        nb2 = nb_all[idx]  # its stand-ins are exact mode's, not this one's)
        has_green2 = has_green_all[idx]
    else:
        nb2, has_green2 = count_buckets(s.MT, cands, legal[idx], s.green, s.n_pat)
        s.stats[ST_CELLS] += n * n_sk
    for t in range(n_sk):
        i = idx[t]
        nb[i] = nb2[t]
        has_green[i] = has_green2[t]
        lb1[i] = 3 * n - nb2[t] - (1 if has_green2[t] else 0)
    kmax = 0
    for i in range(G):
        if nb[i] > kmax:
            kmax = nb[i]
    return kmax


@njit(cache=CACHE, nogil=True)
def free_exact(s, cands, rows):
    """The heuristic of the guesses ``rows`` (the best ones by bound) and the best total
    among those whose non-green buckets have at most two answers (such a guess reaches
    its bound: exact for free): ``(best, best guess, heuristic)``, ``(INF, -1, h)`` if none."""
    n = cands.shape[0]
    nbk, has_green_k, maxb, h = scan(s.MT, cands, rows, s.green, s.est, s.scratch_c, s.scratch_t)
    best = INF
    bestg = -1
    for t in range(rows.shape[0]):
        v = 3 * n - nbk[t] - (1 if has_green_k[t] else 0)  # (lb1 may be a skipped guess's bound)
        if maxb[t] <= 2 and v < best:
            best = v
            bestg = rows[t]
    return best, bestg, h


@njit(cache=CACHE, nogil=True)
def settle(memo, key, best: int, bestg: int, beta: int, soft: int, lb_known: int, exact: int) -> int:
    """A searched position's value, stored: ``best`` when below ``beta``; else a bound."""
    if best < beta:
        _store(memo, key, best, 1, bestg)
        return best
    if exact:
        # fail-soft: no guess beats beta, and each has a lower bound (its bound by bucket
        # counts, its buckets' floors, or the values searched) >= beta; the least of them
        # bounds the position, and can be above beta, so a later visit with a higher beta
        # may stop at the memo. (Width-limited values keep the plain beta below: a
        # fail-soft bound there measured no faster.)
        lb = min(soft, INF)  # (beta <= INF here: with beta = INF + 1, best < beta above)
        if lb_known > lb:
            lb = lb_known
        _store(memo, key, lb, 0, -1)
        return lb
    if best < INF:
        # width-limited: every expanded guess is >= beta; remember the bound only
        _store(memo, key, beta, 0, -1)
        return beta
    _store(memo, key, beta if beta > lb_known else lb_known, 0, -1)
    return beta if beta > lb_known else lb_known


@njit(cache=CACHE, nogil=True)
def solve(s, cands, legal, cg, cn, ub, d, beta):
    """Value of ``cands`` with ``d`` guesses left (exact if ``< beta``, else a bound >= beta):
    the least over the allowed guesses ``legal`` of each one's total, which
    :func:`guess_total` sums over its buckets (the two halves of Alex Selby's wordle.cpp).

    ``s`` (:class:`Search`, :func:`new_search`) is what no node changes. ``s.width``
    guesses (best by the heuristic among the best by bound) are expanded at each node;
    with ``s.exact`` every other guess whose lower bound is below the best total is
    expanded too, so the minimum is over all allowed guesses. Without it the value is
    that of the width-limited search (an upper bound of the optimum, fast). ``s.exact``
    is :data:`WIDTH_LIMITED` (0, false), :data:`EXACT`, or :data:`EXACT_NO_COUNT_BOUNDS`:
    with :data:`EXACT`, a guess that the floors and memo bounds of its buckets do not
    refute has its buckets bounded by their counts (:func:`count_bound`) before any is
    searched. In hard mode ``legal`` (ascending) are the rows allowed by the obligations
    ``cg``/``cn`` (see :func:`set_key`) and ``s.legal_bits[d]`` is their bitset.

    ``ub[row]`` is an upper bound of the number of buckets guess ``row`` makes of
    ``cands`` (its count over a superset: a parent's scan). A guess with
    ``ub + 1 <= 3n - beta`` cannot have a bound below ``beta``, so the scan skips it:
    most cut-off proofs (a child shown to be no better than ``beta``) then read only
    the guesses that split the parent well. ``s.ubs`` row ``d`` holds this node's counts
    at its allowed rows, the children's ``ub`` (a descendant only reads rows it is
    allowed, a subset of those).
    """
    n = cands.shape[0]
    if n == 1:
        return 1
    if d <= 1:
        return INF
    if n == 2:
        return 3
    hard, exact, MT, memo, stats = s.hard, s.exact, s.MT, s.memo, s.stats
    if hard and n > hard_capacity(cg, d):
        return INF  # too many answers left for the known greens: lost
    stats[ST_NODES] += 1
    key = set_key(cands, d, hard, cg, cn)
    lb_known, settled = memo_bound(memo, key, 2 * n - 1, beta, stats)
    if settled or lb_known >= beta:
        return lb_known
    # 1. a candidate that splits the rest into singletons reaches the bound 2n - 1.
    #    (Every candidate is a legal hard-mode guess: it fits all the hints so far.)
    if lb_known == 2 * n - 1:
        pc = perfect_candidate(MT, s.arow, cands, s.seen)
        if pc >= 0:
            _store(memo, key, 2 * n - 1, 1, pc)
            return 2 * n - 1
        lb_known = 2 * n
        if lb_known >= beta:
            _store(memo, key, lb_known, 0, -1)
            return lb_known
    G = legal.shape[0]
    sel = np.empty(G, np.int64)  # the guesses that may beat beta (can_beat), once found
    counted, n_sel = False, -1  # (counted: nb_all / has_green_all hold every guess's count)
    nb_all, has_green_all = np.empty(0, np.int64), np.empty(0, np.bool_)
    if lb_known == 2 * n:  # no candidate splits perfectly; a non-candidate that does costs 2n
        v, counted, n_sel, nb_all, has_green_all = perfect_split(s, cands, legal, ub, beta, key, sel)
        if v >= 0:
            return v
        # (the bound stays 2n: a candidate leaving one pair costs n + 3 + (n - 3) = 2n)
    if d == 2:  # the next guess must leave only singletons: impossible
        _store(memo, key, INF, 1, -1)
        return INF
    # 2. bucket count of every allowed guess (bitsets): the bound of each guess.
    stats[ST_SCANS] += 1
    nb, has_green, n_sel = count_guesses(s, cands, legal, ub, beta, sel, n_sel, counted, nb_all,
                                         has_green_all)
    lb1 = np.empty(G, np.int64)
    minlb = INF
    kmax = np.int64(0)  # most buckets any allowed guess makes of cands (or of any subset of it)
    for i in range(G):
        kmax = max(kmax, nb[i])
        lb1[i] = 3 * n - nb[i] - (1 if has_green[i] else 0)
        minlb = min(minlb, lb1[i])
    lb_known = max(lb_known, minlb)
    if lb_known >= beta:
        _store(memo, key, lb_known, 0, -1)
        return lb_known
    K = min(G, max(8 * s.width, 64))
    if not exact and n_sel < G:
        kmax = width_recount(s, cands, legal, beta, K, kmax, sel, n_sel, nb, has_green, lb1,
                             nb_all if counted else nb_all[:0], has_green_all)
    # all guesses by bound, alphabetical within a bound (lb1 is 2n - 1 .. 3n)
    rest = stable_order(lb1 - (2 * n - 1), n + 2)
    # 3. heuristic and largest bucket of the best guesses by bound
    best, bestg, h = free_exact(s, cands, legal[rest[:K]])
    if best == lb_known:
        _store(memo, key, best, 1, bestg)
        return best
    # 4. expand guesses: the heuristic's top `width` first, then (exact) every other
    #    guess in order of its bound until the bound reaches the best total.
    # the children's bucket bounds: this node's counts (a child is a subset of cands)
    if is_dense(MT, legal) and ub.shape[0] == G:
        child_ub = nb  # every row is allowed, in order: the counts are the bounds
    else:
        child_ub = s.ubs[d]  # (no copy: the other rows of child_ub are never read below this node)
        for i in range(G):
            child_ub[legal[i]] = nb[i]
    top = rest[_top_w(h, s.width)]
    # width-limited: just the top guesses (distinct); exact: then every guess by bound
    tried = np.zeros(G if exact else 0, np.bool_)
    order = np.concatenate((top, rest)) if exact else top
    soft = INF  # the least lower bound of a guess refuted below (a fail-high bound)
    n_local = np.int64(-1)  # guesses of the local scratch (s.local) this node counts over; 0: every guess
    # a large position (exact, normal mode) skips a guess once one that dominates it was
    # tried: that one's value is at most this one's, and was either the best so far or
    # no better than the limit then, so this one cannot be strictly better than the best:
    # the value and the first best guess are those of the full loop. (The fail-soft bound,
    # the least over the guesses tried, stays valid: each skipped guess is worth at least
    # the one that dominates it.)
    dom = s.dom[d]
    skip = exact != WIDTH_LIMITED and not hard and 0 < s.local_state[2] <= n and is_dense(MT, legal)
    if skip:
        nbr = s.neighbours
        dominators(s.codes, s.arow, cands, nbr.grp, nbr.start, nbr.members, s.present, dom)
    node_dom = dom if skip else dom[:0]  # (for localise: the dominators, if found)
    for oi in range(order.shape[0]):
        i = order[oi]
        if exact:
            if tried[i]:
                continue
            tried[i] = True
        limit = best if best < beta else beta
        if lb1[i] >= limit:
            soft = min(soft, lb1[i])
            if oi >= top.shape[0]:
                break  # sorted by bound: nothing later can beat the limit (nor soft)
            continue
        if skip and dom[i] >= 0:  # (dense: position i is row i)
            j = dom[i]
            while not tried[j] and dom[j] >= 0:
                j = dom[j]
            if tried[j]:
                stats[ST_SKIPPED] += 1
                continue
        stats[ST_EVALS] += 1
        nbk, rem = bucket_floors(s, cands, cg, cn, d, legal[i], kmax, limit)
        if n + rem >= limit:  # refuted by its buckets' floors (most guesses tried are)
            soft = min(soft, n + rem)
            continue
        v, cut, n_local = guess_total(s, cands, legal, cg, cn, child_ub, d, legal[i], nbk, rem,
                                      limit, n_local, node_dom)
        soft = min(soft, v)
        if not cut and v < best:
            best = v
            bestg = legal[i]
    if n_local > 0:
        s.local_state[0] = 0  # (the local scratch is free again)
    return settle(memo, key, best, bestg, beta, soft, lb_known, exact)


@njit(cache=CACHE, nogil=True, inline="always")
def guess_total(s, cands, legal, cg, cn, child_ub, d, g, nbk, rem, limit, n_local, dom):
    """The total of guess row ``g`` at :func:`solve`'s node (``cands``, ``d`` left): ``n``
    plus the sum over its ``nbk`` buckets of their values (:func:`solve` of each, one
    guess fewer), summed while it stays below ``limit``. ``(total, cut, n_local)``: ``cut``
    when the sum reached ``limit`` (``total`` is then a lower bound, ``>= limit``: the
    buckets not searched count with their floors). The buckets are in this depth's frame
    with their floors, ``rem`` in all (:func:`bucket_floors`, which did not refute the
    guess); before any is searched, their counts (:func:`count_bounds`) may refute it.
    ``n_local``: the node's local scratch (as :func:`count_bounds` takes and returns it);
    ``dom``: the node's dominators (or empty). Inlined into :func:`solve`, so its
    recursion stays one function's."""
    n = cands.shape[0]
    if s.exact == EXACT and limit < INF // 2 and d - 1 >= 3:
        rem, n_local = count_bounds(s, cands, legal, cg, cn, child_ub, d, g, nbk, rem, limit,
                                    n_local, dom)
    acc = n
    if acc + rem >= limit:
        return acc + rem, True, n_local
    # (this depth's frame of the scratch, filled by bucket_floors: children use the frames below)
    out, starts, sizes, lbs, memo = s.out[d], s.starts[d], s.sizes[d], s.floors[d], s.memo
    hard, pats, greens_k, letters_k = s.hard, s.pats[d], s.bucket_greens[d], s.bucket_letters[d]
    for k in range(nbk):
        m = sizes[k]
        rem -= lbs[k]
        if m <= 2:
            acc += lbs[k]  # 1 or 3: exact
            continue
        if d - 1 <= 1:
            return acc + INF + rem, True, n_local
        sub = out[starts[k]:starts[k] + m]
        cbeta = limit - acc - rem
        if hard:
            ng, nn = greens_k[k], letters_k[k]
            # a memo hit needs no filtering of the allowed rows
            v, settled = memo_bound(memo, set_key(sub, d - 1, hard, ng, nn), np.int64(-1), cbeta, s.stats)
            if not settled:
                nl = hard_filter_bits(s.legal_bits[d], s.codes, g, pats[k], s.rule_green,
                                      s.rule_least, s.rule_scratch, s.legal_bits[d - 1],
                                      s.bucket_legal[d])
                v = solve(s, sub, s.bucket_legal[d][:nl], ng, nn, child_ub, d - 1, cbeta)
        else:
            v = solve(s, sub, legal, cg, cn, child_ub, d - 1, cbeta)
        acc += v
        if acc + rem >= limit:
            return acc + rem, True, n_local
    return acc + rem, False, n_local


@njit(cache=CACHE, nogil=True)
def bucket_floors(s, cands, cg, cn, d, g, kmax, limit):
    """Split ``cands`` by guess row ``g`` into this depth's frame (``s.out[d]`` ...) and
    give each bucket its floor (:func:`set_floor`, or its memo bound when higher; hard
    mode: :data:`INF` when its greens cannot hold it, and its obligations written to
    ``s.bucket_greens[d]``/``s.bucket_letters[d]``), in order until ``n`` plus the sum
    reaches ``limit``. ``(buckets, sum of the floors)``."""
    n = cands.shape[0]
    hard, memo, codes = s.hard, s.memo, s.codes
    out, starts, sizes, pats, lbs = s.out[d], s.starts[d], s.sizes[d], s.pats[d], s.floors[d]
    greens_k, letters_k = s.bucket_greens[d], s.bucket_letters[d]
    nbk = split_into(s.MT, cands, g, s.green, s.counts, s.positions, out, starts, sizes, pats)
    rem = 0
    for k in range(nbk):
        lbs[k] = set_floor(sizes[k], d - 1, kmax)
        if lbs[k] >= INF:
            rem += INF
            break
        if sizes[k] >= 3 and d - 1 >= 2:
            if hard:
                ng = greens_k[k]
                nn = letters_k[k]
                obligations_after(codes, g, pats[k], cg, cn, ng, nn)
                if sizes[k] > hard_capacity(ng, d - 1):
                    lbs[k] = INF  # lost: the guess is refuted without a search
                    rem += INF
                    break
                bucket_key = set_key(out[starts[k]:starts[k] + sizes[k]], d - 1, hard, ng, nn)
            else:
                bucket_key = set_key(out[starts[k]:starts[k] + sizes[k]], d - 1, hard, cg, cn)
            # a bucket met before (under another guess) may have a better bound
            if bucket_key in memo:
                e = memo[bucket_key]
                if e[0] > lbs[k]:
                    lbs[k] = e[0]
        rem += lbs[k]
        if n + rem >= limit:
            break
    return nbk, rem


@njit(cache=CACHE, nogil=True)
def count_bounds(s, cands, legal, cg, cn, child_ub, d, g, nbk, rem, limit, n_local, dom):
    """Not refuted by its buckets' floors (``rem``, :func:`bucket_floors`): before
    searching any bucket of guess row ``g``, bound them by their counts
    (:func:`count_bound`), largest first, until the guess is refuted or every bucket is
    bounded. One count per bucket, where a search of a bucket counts it and then expands
    its guesses: most guesses tried below the first are refuted this way, their buckets
    never searched. ``(rem, n_local)``, the sum of the bounds and the local scratch's
    guesses (:func:`take_local`; -1: not taken yet)."""
    n = cands.shape[0]
    G = legal.shape[0]
    hard, memo, stats = s.hard, s.memo, s.stats
    out, starts, sizes, pats, lbs = s.out[d], s.starts[d], s.sizes[d], s.pats[d], s.floors[d]
    greens_k, letters_k = s.bucket_greens[d], s.bucket_letters[d]
    codes, bits, child_bits, rows_d = s.codes, s.legal_bits[d], s.legal_bits[d - 1], s.bucket_legal[d]
    local = s.local  # (read once: each read counts a reference to every array it holds)
    for k in range(nbk):
        m = sizes[k]
        if m < 3:
            continue
        sub = out[starts[k]:starts[k] + m]
        bucket_key = set_key(sub, d - 1, hard, greens_k[k] if hard else cg,
                             letters_k[k] if hard else cn)
        if bucket_key in memo and (memo[bucket_key][1] == 1 or memo[bucket_key][0] > 2 * m):
            continue  # exact, or bounded by its counts before (lbs[k] holds it)
        cb_beta = limit - n - (rem - lbs[k])
        if hard:  # (the bucket's allowed rows: the rule's filter of this node's)
            nl = hard_filter_bits(bits, codes, g, pats[k], s.rule_green, s.rule_least,
                                  s.rule_scratch, child_bits, rows_d)
            rows_k = rows_d[:nl]
        else:
            rows_k = legal
        whole = rows_k.shape[0] == G  # (it keeps every allowed guess: always in normal mode)
        if n_local < 0 and whole:
            n_local = take_local(s, cands, legal, child_ub, dom)
        if n_local > 0 and whole:
            mt_l, legal_l, ub_l, pairs_l = local_views(local, s.MT, n_local)
            v = count_bound(mt_l, local.arow, sub, legal_l, ub_l, d - 1, cb_beta, s.green,
                            s.n_pat, pairs_l, s.seen, memo, bucket_key, stats, local.rows[:n_local])
        else:
            v = count_bound(s.MT, s.arow, sub, rows_k, child_ub, d - 1, cb_beta, s.green, s.n_pat,
                            s.pairs, s.seen, memo, bucket_key, stats, local.rows[:0])
        if v > lbs[k]:
            rem += v - lbs[k]
            lbs[k] = v
        if n + rem >= limit:
            break
    return rem, n_local


@njit(cache=CACHE, nogil=True)
def take_local(s, cands, legal, child_ub, dom) -> int:
    """A large position bounds many buckets: count those that keep every allowed guess
    over a copy of the guesses' columns, each copied once, most buckets here first: in
    normal mode the guesses no other guess dominates here (about half of them), with a
    pair cache of their own; in hard mode every allowed one, for the buckets whose
    feedback obliges nothing new (often the largest). The scratch (``s.local``) serves
    one node at a time: the first to take it, never a descendant. Returns its guesses
    (0: not taken; :func:`solve` frees it). ``dom``: the node's dominators, if found."""
    st = s.local_state
    n_local = 0
    if st[1] > 0 and cands.shape[0] >= st[1] and st[0] == 0 and (s.hard or is_dense(s.MT, legal)):
        st[0] = 1
        if s.hard:
            n_local = localise_rows(s.MT, s.arow, cands, legal, child_ub, s.local)
        else:  # (the dominators found for skipping, if this node skips)
            n_local = localise(s.MT, s.codes, s.arow, cands, child_ub, s.local, dom)
            s.stats[ST_DROPPED] += legal.shape[0] - n_local
        s.stats[ST_PRUNED] += 1
    return n_local


@njit(cache=CACHE)
def bucket_bounds(MT, codes, lcounts, cands, o, legal, green, n_pat, hard, length, n_sym):
    """Opener row ``o``'s non-green buckets (as :func:`bucket_split`) and a lower bound of
    each bucket's value: ``max(2m - 1, min over guesses of 3m - B - [guess in bucket])``,
    over the guesses allowed after the opener (hard mode: filtered by its feedback).
    """
    out, starts, sizes, pats = bucket_split(MT, cands, o, green, n_pat)
    lbs = np.empty(sizes.shape[0], np.int64)
    for k in range(sizes.shape[0]):
        m = sizes[k]
        lbs[k] = 2 * m - 1
        if m <= 2:
            continue
        sub = out[starts[k]:starts[k] + m].copy()
        rows = hard_filter(legal, codes, lcounts, o, pats[k], length, n_sym) if hard else legal
        nb, has_green = count_buckets(MT, sub, rows, green, n_pat)
        mn = INF
        for i in range(nb.shape[0]):
            v = 3 * m - nb[i] - (1 if has_green[i] else 0)
            if v < mn:
                mn = v
        if mn > lbs[k]:
            lbs[k] = mn
    return out, starts, sizes, pats, lbs


@njit(cache=CACHE, parallel=True)
def opener_bounds(MT, codes, lcounts, cands, openers, legal, green, n_pat, hard, length,
                  n_sym):
    """Lower bound of each opener's total: ``n`` plus the sum of
    :func:`bucket_bounds` (two levels of the ``3n - B`` bound); openers in parallel.
    """
    out_lb = np.empty(openers.shape[0], np.int64)
    for oi in prange(openers.shape[0]):
        _, _, _, _, lbs = bucket_bounds(MT, codes, lcounts, cands, openers[oi], legal, green,
                                        n_pat, hard, length, n_sym)
        out_lb[oi] = cands.shape[0] + lbs.sum()
    return out_lb


@njit(cache=CACHE)
def lookup(memo, cands, d, hard, cg, cn):
    """The memo entry of a position, or (-1, 0, -1)."""
    key = set_key(cands, d, hard, cg, cn)
    if key in memo:
        return memo[key]
    return (-1, 0, -1)


# --- a whole tree of the width-limited search --------------------------------------------


@njit(cache=CACHE, nogil=True)
def rows_bits_into(rows: np.ndarray, out: np.ndarray) -> None:
    """``out``: the bitset of ``rows`` (bit ``r % 64`` of word ``r // 64``), the form of
    :func:`wordle_core.kernels.hard.rows_bitset`."""
    out[:] = 0
    for i in range(rows.shape[0]):
        r = rows[i]
        out[r >> 6] |= np.uint64(1) << np.uint64(r & 63)


@overload(choice, jit_options={"cache": CACHE, "nogil": True})  # type: ignore[typeddict-unknown-key]
def _tree_choice(how, cands, legal, cg, cn, d):
    """The search's best first guess at a position, as
    :func:`wordle_core.kernels.walk.walk_tree` asks for a choice (``how``: the
    :class:`Search` and the root's bucket bounds ``ub``): :func:`solve` as the search
    sets it (width, exact or not; no cut-off), then the guess its memo holds; -1 where
    there is no win within the ``d`` guesses left (or none are left)."""
    if not (isinstance(how, types.BaseTuple) and len(how) == 2 and isinstance(how[0], SearchType)):
        return None

    def impl(how, cands, legal, cg, cn, d):
        s, ub = how
        if d < 1:
            return -1
        if s.hard:  # (the search finds its children's rows from this bitset)
            rows_bits_into(legal, s.legal_bits[d])
        solve(s, cands, legal, cg, cn, ub, d, INF + 1)
        e = lookup(s.memo, cands, d, s.hard, cg, cn)
        if e[1] != 1 or e[2] < 0:
            return -1
        return e[2]
    return impl


def search_tree(mat, fixed, fr, ub, opener, cands0, legal0, cg0, cn0, d0, depth_left):
    """Every game from guess row ``opener`` against ``cands0``, each choice the best first
    guess of the search (:func:`solve` at ``fixed.width``, exact or not, no cut-off) at
    its position: one compiled walk (:func:`wordle_core.kernels.walk.walk_tree`, which
    documents the order, the nodes and ``status``; ``mat`` is guesses x answers). Called
    from Python, so the walk and its chooser are compiled and cached together.

    ``fixed`` (:class:`SearchArgs`) and ``fr`` (:func:`frames`) make the :class:`Search`
    of every choice (:func:`new_search`); ``ub``: the root's bucket bounds (as
    :func:`solve`'s). ``d0``: guesses left at the root. ``status`` is
    :data:`~wordle_core.kernels.walk.TREE_NO_CHOICE` when a position has no win within
    its guesses left (at this width, when not exact): the caller then plays the tree
    position by position, where the ``default`` strategy widens its search. Hard mode:
    ``legal0`` (ascending) and ``(cg0, cn0)`` are the root's allowed rows and obligations.
    """
    how = (new_search(fixed, fr), ub)
    return walk_tree(how, mat, fixed.arow, fixed.codes, fixed.lcounts, opener, cands0, legal0,
                     cg0, cn0, fixed.hard, d0, depth_left, fixed.n_pat)
