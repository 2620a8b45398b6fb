"""Numba kernels of hard mode: the NYT rule in compiled form, and the hard-mode search's
last full level (a node with 3 guesses left).

The rule. :class:`wordle_core.game.rules.HardConstraints` is the one hard-mode
constraint type; its compiled form is two arrays, ``greens[pos]`` (symbol or -1) and
``need[sym]`` (minimum count of each symbol). Every compiled user of the rule (the
exact search, the hard-mode search, ``HardConstraints.legal_rows``) goes through the
three kernels below: :func:`obligations_after` (what one feedback obliges),
:func:`is_legal` (one guess under the obligations) and :func:`hard_filter` /
:func:`legal_subset` (a list of rows filtered). ``tests/test_rules.py`` checks them
against the Python rule on random histories. The exact search, which filters a child's
rows hundreds of thousands of times per opener, uses the same rule as bitsets over the
guess rows (:func:`rule_bitsets`, :func:`hard_filter_bits`): the parent's set AND the
feedback's obligations, checked against :func:`is_legal` in
``tests/test_exact_search.py``.

The search level. Most of the AND-OR search's work is at nodes with three guesses
left: there a guess wins iff every bucket of three or more words can be split into
singletons by one guess that is still legal after that bucket's feedback. Python
pays ~100 µs per guess tried; :func:`solve_three` runs the same exact test in
compiled loops (no allocation per guess), and :func:`solve_four` the level above
(4 left) over it, with caches kept across calls.

The rule kernels take plain arrays: letter codes and counts of the guesses
(``counts[row, sym]``) and the obligations. The search levels take the game as one
:class:`HardGame` (fixed for a search) and their scratch as named tuples
(:class:`Splitters`, :class:`Tally`, :class:`Child`); both levels run one guess loop
(:func:`_guess_order`, then :func:`_guess_buckets` per guess) and differ only in how a
bucket is tested: a perfect splitter (:func:`_splittable`) at 3 left, the 3-left test
at 4 left (:func:`_three_left_cached`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from wordle_core.kernels.buckets import count_block, gather_bucket, stats_block


@njit(cache=True, nogil=True)
def obligations_after(codes, g, p, greens, need, out_greens, out_need):
    """Write into ``out_*`` the obligations ``(greens, need)`` plus guess row ``g`` showing ``p``.

    NYT rule: a green stays in place; every green or yellow letter must be used again,
    as often as it was shown (a repeated letter counts twice); gray letters may be reused.
    ``p`` is the base-3 pattern code, first position the most significant digit.
    """
    L = codes.shape[1]
    A = need.shape[0]
    for pos in range(L):
        out_greens[pos] = greens[pos]
    for a in range(A):
        out_need[a] = 0
    q = p
    for pos in range(L - 1, -1, -1):
        d = q % 3
        q //= 3
        if d == 2:
            out_greens[pos] = codes[g, pos]
        if d > 0:
            out_need[codes[g, pos]] += 1
    for a in range(A):
        if need[a] > out_need[a]:
            out_need[a] = need[a]


@njit(cache=True, nogil=True)
def is_legal(codes, counts, h, greens, need):
    """Is guess row ``h`` allowed under the obligations ``(greens, need)``?"""
    for pos in range(codes.shape[1]):
        if greens[pos] >= 0 and codes[h, pos] != greens[pos]:
            return False
    for sym in range(need.shape[0]):  # noqa: SIM110 (numba: no generator in all())
        if need[sym] > 0 and counts[h, sym] < need[sym]:
            return False
    return True


@njit(cache=True, nogil=True)
def legal_subset_into(rows, codes, counts, greens, need, gpos, nsym, out):
    """Write into ``out`` the rows of ``rows`` allowed under ``(greens, need)`` (order
    kept) and return how many: :func:`legal_subset` without an allocation (``gpos``,
    ``nsym``: scratch of the word length and of the alphabet size).

    The same test as :func:`is_legal`, with the obligations listed once (the green
    positions and the symbols needed), so each row costs a few comparisons rather than
    one per position plus one per symbol of the alphabet.
    """
    L = codes.shape[1]
    ng = 0
    for pos in range(L):
        if greens[pos] >= 0:
            gpos[ng] = pos
            ng += 1
    nn = 0
    for sym in range(need.shape[0]):
        if need[sym] > 0:
            nsym[nn] = sym
            nn += 1
    k = 0
    for j in range(rows.shape[0]):
        h = rows[j]
        ok = True
        for i in range(ng):
            if codes[h, gpos[i]] != greens[gpos[i]]:
                ok = False
                break
        if ok:
            for i in range(nn):
                if counts[h, nsym[i]] < need[nsym[i]]:
                    ok = False
                    break
        if ok:
            out[k] = rows[j]
            k += 1
    return k


@njit(cache=True, nogil=True)
def legal_subset(rows, codes, counts, greens, need):
    """The rows of ``rows`` allowed under ``(greens, need)`` (order kept; a new array)."""
    out = np.empty(rows.shape[0], rows.dtype)
    k = legal_subset_into(rows, codes, counts, greens, need, np.empty(codes.shape[1], np.int64),
                          np.empty(need.shape[0], np.int64), out)
    return out[:k].copy()


@njit(cache=True, nogil=True)
def hard_filter_into(legal, codes, counts, g, p, sc, out):
    """:func:`hard_filter` into ``out`` (returns how many rows); ``sc``: :func:`filter_scratch`."""
    greens0, need0, g2, n2, gpos, nsym = sc
    obligations_after(codes, g, p, greens0, need0, g2, n2)
    return legal_subset_into(legal, codes, counts, g2, n2, gpos, nsym, out)


def mask_bitset(mask: np.ndarray) -> np.ndarray:
    """A boolean mask over the guess rows as a bitset (bit ``r % 64`` of word ``r // 64``
    is row ``r``), the form of :func:`rule_bitsets` and :func:`hard_filter_bits`."""
    full = np.zeros(-(-mask.shape[0] // 64) * 64, np.bool_)
    full[:mask.shape[0]] = mask
    return np.packbits(full, bitorder="little").view("<u8").astype(np.uint64)


def rows_bitset(rows: np.ndarray, n_rows: int) -> np.ndarray:
    """The bitset of ``rows`` (guess rows below ``n_rows``): :func:`mask_bitset`."""
    mask = np.zeros(n_rows, np.bool_)
    mask[rows] = True
    return mask_bitset(mask)


def rule_bitsets(codes: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The NYT rule's obligations as bitsets over the guess rows (:func:`mask_bitset`),
    for :func:`hard_filter_bits`.

    ``green[pos, sym]``: the rows with symbol ``sym`` at ``pos``; ``least[sym, k]``: the
    rows holding ``sym`` at least ``k`` times (``k = 0 .. length``).
    """
    length, n_sym = codes.shape[1], counts.shape[1]
    green = np.stack([np.stack([mask_bitset(codes[:, pos] == sym) for sym in range(n_sym)])
                      for pos in range(length)])
    least = np.stack([np.stack([mask_bitset(counts[:, sym] >= k) for k in range(length + 1)])
                      for sym in range(n_sym)])
    return green, least


@njit(cache=True, nogil=True)
def hard_filter_bits(bits, codes, g, p, green, least, sc, out_bits, out):
    """:func:`hard_filter_into` on bitsets: the rows of ``bits`` (a bitset of allowed
    rows, see :func:`rule_bitsets`) still allowed after guess row ``g`` showed pattern
    ``p``. Writes their bitset into ``out_bits`` and the rows, ascending, into ``out``;
    returns how many. ``sc``: :func:`filter_scratch`.

    The allowed rows after a feedback are those allowed before that also satisfy this
    feedback's obligations (:func:`obligations_after`; the rule's obligations only add
    up), so the child's set is the parent's AND one bitset per green and one per shown
    symbol's least count: a few hundred word operations instead of a test of every
    allowed row. For rows given in ascending order the result is the same list as
    :func:`hard_filter_into`'s.
    """
    greens0, need0, g2, n2 = sc[0], sc[1], sc[2], sc[3]
    obligations_after(codes, g, p, greens0, need0, g2, n2)
    W = bits.shape[0]
    for w in range(W):
        out_bits[w] = bits[w]
    for pos in range(g2.shape[0]):
        if g2[pos] >= 0:
            gb = green[pos, g2[pos]]
            for w in range(W):
                out_bits[w] &= gb[w]
    for sym in range(n2.shape[0]):
        if n2[sym] > 0:
            lb = least[sym, n2[sym]]
            for w in range(W):
                out_bits[w] &= lb[w]
    n = 0
    for w in range(W):
        x = out_bits[w]
        while x != np.uint64(0):
            out[n] = w * 64 + trailing_zeros(x)
            n += 1
            x &= x - np.uint64(1)
    return n


@njit(cache=True, nogil=True)
def filter_scratch(length: int, n_sym: int) -> tuple:
    """Work arrays of :func:`hard_filter_into`: no obligations yet (``greens0``,
    ``need0``, never written), the feedback's own, and the listed positions and symbols."""
    return (np.full(length, -1, np.int8), np.zeros(n_sym, np.uint8), np.empty(length, np.int8),
            np.empty(n_sym, np.uint8), np.empty(length, np.int64), np.empty(n_sym, np.int64))


@njit(cache=True, nogil=True)
def hard_filter(legal, codes, counts, g, p, length, n_sym):
    """Rows of ``legal`` still allowed after guess ``g`` showed pattern ``p`` (a new array).

    ``legal`` must already satisfy the earlier obligations: they are the union over
    the history, so only this feedback's obligations need checking.
    """
    out = np.empty(legal.shape[0], legal.dtype)
    k = hard_filter_into(legal, codes, counts, g, p, filter_scratch(length, n_sym), out)
    return out[:k].copy()


def capacity_table(length: int, max_k: int) -> np.ndarray:
    """``cap[f, k]``: most candidates any hard-mode strategy can separate with ``k`` guesses
    when all but ``f`` positions are known green (an exact upper bound, not a heuristic).

    With greens known, every legal guess repeats them and every candidate has them, so
    feedback differs only on the ``f`` free positions, where the answer's unmatched
    letters are its free letters alone. One free position: a guess is green there (a
    win) or gray (a yellow would need the same letter elsewhere unmatched), so a guess
    removes at most one candidate. Two free positions: the non-winning patterns are
    gb, bg, bb, yb, by, yy (6; green and yellow cannot share the pair). More free
    positions: at most ``3**f - 1``. A guess showing ``R`` non-winning patterns leaves
    buckets of at most ``cap[f, k-1]`` each, so ``cap[f, k] = 1 + R * cap[f, k-1]``
    (the guess itself may be the answer). A set larger than this is lost.
    ``tests/test_hard_verdict.py`` checks ``R`` by enumeration.
    """
    cap = np.zeros((length + 1, max_k + 1), np.int64)
    for f in range(length + 1):
        for k in range(1, max_k + 1):
            cap[f, k] = capacity(f, k)
    return cap


CAPACITY_MAX = 1 << 40  # capacities are capped here (more answers than any lexicon has)


@njit(cache=True, nogil=True)
def capacity(free: int, k: int) -> int:
    """One entry of :func:`capacity_table`: ``cap[free, k]`` by its recurrence, capped at
    :data:`CAPACITY_MAX` (compiled, so the exact search asks it at every hard-mode node)."""
    r = 0 if free == 0 else 1 if free == 1 else 6 if free == 2 else 3 ** free - 1
    cap = 0
    for _ in range(k):
        cap = 1 + r * cap
        if cap >= CAPACITY_MAX:
            return CAPACITY_MAX
    return cap


# INLINED: the helpers called once per guess or per bucket take the named tuples below
# whole and are inlined into their callers (``inline="always"``): numba passes a tuple of
# arrays as dozens of scalars, and as real calls they cost the search about 12 % (measured
# by replaying the 4-left calls of three heavy openers on both forms). Hot loops read
# fields into locals first (a field read in a loop counts a reference each time).


class HardGame(NamedTuple):
    """The game as the hard-mode search kernels read it: fixed for a whole search
    (:class:`wordle_core.search.hard.HardSolver` passes its own arrays, no copies)."""

    mat: np.ndarray  # pattern codes, guess rows x answer ids
    mt: np.ndarray  # the same transposed (answers x guesses), for the shared bucket primitives
    codes: np.ndarray  # each guess row's symbol codes (rows x length)
    counts: np.ndarray  # each guess row's letter counts (rows x alphabet)
    digits: np.ndarray  # each pattern's digits (patterns x length: 0 grey, 1 yellow, 2 green)
    green_code: int  # the all-green pattern
    cap: np.ndarray  # capacity_table: cap[free positions, guesses left]
    arow: np.ndarray  # each answer id's guess row


class KernelCaches(NamedTuple):
    """:func:`solve_four`'s caches, kept by the caller across calls (:func:`kernel_caches`):
    direct-mapped tables keyed by two 64-bit hashes of a bucket and its obligations (a
    newer entry replaces an older one)."""

    splitter_keys: np.ndarray  # (slots, 3): hash, hash, in use
    splitter_values: np.ndarray  # index of the first perfect splitter in the scan, or -1
    three_left_keys: np.ndarray  # (slots, 3)
    three_left_values: np.ndarray  # :func:`_three_left`'s result: a winning row or -1


class Splitters(NamedTuple):
    """Scratch of the splitter searches below one kernel call: the pattern stamps of
    :func:`_perfect_splitter`, the work counter and the splitter cache."""

    seen: np.ndarray  # a stamp per pattern
    stamp: np.ndarray  # [the current stamp]
    work: np.ndarray  # [(guess, splitter) pairs examined]: the node budget's unit
    keys: np.ndarray  # the splitter cache (:class:`KernelCaches`)
    values: np.ndarray
    tables: tuple  # count_block's (counts, firsts, n_first), all-zero counts between calls


class Tally(NamedTuple):
    """Scratch of one node's guess loop: bucket sizes and pattern marks."""

    sizes: np.ndarray  # bucket size per pattern, zero between guesses
    marks: np.ndarray  # a stamp per pattern (patterns seen)
    stamp: np.ndarray  # [the current stamp]


class Child(NamedTuple):
    """One bucket of a node, as the level below reads it (scratch, rewritten per bucket)."""

    greens: np.ndarray  # the obligations after the bucket's feedback
    need: np.ndarray
    rows: np.ndarray  # the bucket's answer ids (first ``nb``)
    is_cand_row: np.ndarray  # 1 on the bucket's answers' guess rows, else 0


@njit(cache=True, nogil=True)
def _perfect_splitter(game, B, scan, greens, need, sp, start, check):
    """First index ``>= start`` in ``scan`` of a guess giving all of ``B`` distinct patterns
    (legal under ``(greens, need)`` when ``check``), or -1."""
    mt, seen, stamp, work = game.mt, sp.seen, sp.stamp, sp.work  # (locals: no reference count per read)
    for hi in range(start, scan.shape[0]):
        h = scan[hi]
        work[0] += 1
        if check and not is_legal(game.codes, game.counts, h, greens, need):
            continue
        stamp[0] += 1
        st = stamp[0]
        ok = True
        for b in range(B.shape[0]):
            p = mt[B[b], h]
            if seen[p] == st:
                ok = False
                break
            seen[p] = st
        if ok:
            return hi
    return -1


@njit(cache=True, nogil=True)
def _hash_rows(B, salt):
    """Two 64-bit hashes of a sorted id list (for the per-call splitter cache)."""
    h1 = np.uint64(0xCBF29CE484222325) ^ np.uint64(salt)
    h2 = np.uint64(0x9E3779B97F4A7C15) + np.uint64(salt)
    for i in range(B.shape[0]):
        x = np.uint64(B[i]) + np.uint64(1)
        h1 = (h1 ^ x) * np.uint64(0x100000001B3)
        h2 = (h2 + x * np.uint64(0x94D049BB133111EB)) * np.uint64(0xBF58476D1CE4E5B9)
        h2 ^= h2 >> np.uint64(31)
    return np.int64(h1), np.int64(h2)


@njit(cache=True, nogil=True)
def _cache_get(tk, tv, h1, h2):
    """Cached value for key (h1, h2), or -2 when absent."""
    slot = h1 & (tk.shape[0] - 1)
    if tk[slot, 0] == h1 and tk[slot, 1] == h2 and tk[slot, 2] == 1:
        return tv[slot]
    return -2


@njit(cache=True, nogil=True)
def _cache_put(tk, tv, h1, h2, v):
    slot = h1 & (tk.shape[0] - 1)
    tk[slot, 0] = h1
    tk[slot, 1] = h2
    tk[slot, 2] = 1
    tv[slot] = v


@njit(cache=True, nogil=True)
def _salt(greens, need):
    """A hash of the obligations ``(greens, need)``, to key a bucket under them."""
    salt = 1
    for pos in range(greens.shape[0]):
        salt = salt * 31 + greens[pos] + 2
    for a in range(need.shape[0]):
        salt = salt * 7 + need[a]
    return salt


@njit(cache=True, nogil=True, inline="always")  # per guess or bucket: see INLINED
def _splittable(game, B, scan, greens, need, sp, base):
    """Can one guess legal under ``(greens, need)`` (a bucket's obligations) split ``B``
    into singletons?

    ``scan`` are the guesses legal *before* that feedback (a superset), so a bucket
    with no perfect splitter among them has none at all: that fact depends on ``B``
    and ``scan`` only and is cached, as is where the first splitter sits (no earlier
    row splits ``B``, so the search under the tighter obligations starts there). Buckets
    recur across the guesses of one node (a trap such as ``?ATCH`` survives most
    guesses) and across nodes. ``base`` keys ``scan``: 0 when the cache serves one
    ``scan`` only, else a hash of the obligations that ``scan`` is the legal set of.
    """
    h1, h2 = _hash_rows(B, base)
    first = _cache_get(sp.keys, sp.values, h1, h2)
    if first == -2:
        first = _perfect_splitter(game, B, scan, greens, need, sp, 0, False)
        _cache_put(sp.keys, sp.values, h1, h2, first)
    if first < 0:
        return False
    if is_legal(game.codes, game.counts, scan[first], greens, need):
        return True
    k1, k2 = _hash_rows(B, base * 1000003 + _salt(greens, need))
    got = _cache_get(sp.keys, sp.values, k1, k2)
    if got == -2:
        got = _perfect_splitter(game, B, scan, greens, need, sp, first + 1, True)
        _cache_put(sp.keys, sp.values, k1, k2, got)
    return got >= 0


_BLK = 64  # guesses per block of the shared bucket primitives
USELESS = 1 << 40  # the order key of a guess that tells nothing (times the number of guesses)


@njit(cache=True, nogil=True)
def _guess_order(game, S, tries, is_cand_row, tables):
    """The rows of ``tries`` worth trying at a node of answers ``S``, in the search's order:
    smallest largest bucket first, candidates first among equals, then row order; a
    guess with one bucket equal to ``S`` that is no candidate tells nothing and is left out.

    The bucket sizes come from the shared blocked primitives of
    :mod:`wordle_core.kernels.buckets` (``count_block`` / ``stats_block`` over the
    transposed matrix; ``tables`` = (counts, firsts, n_first), all-zero counts
    between calls)."""
    counts, firsts, n_first = tables
    n = S.shape[0]
    G = tries.shape[0]
    buckets = np.empty(G, np.int64)
    largest = np.empty(G, np.int64)
    sum_sq = np.empty(G, np.float64)
    sum_xl = np.empty(G, np.float64)
    worst = np.empty(G, np.int64)
    xlogx = np.zeros(n + 1, np.float64)  # entropy terms: not needed for the order
    for lo in range(0, G, _BLK):
        hi = min(lo + _BLK, G)
        count_block(game.mt, S, tries, False, lo, hi, counts, firsts, n_first)
        stats_block(lo, hi, counts, firsts, n_first, xlogx, buckets, largest, sum_sq, sum_xl, worst)
    key = np.empty(G, np.int64)
    for gi in range(G):
        m = largest[gi]
        k = m * 2
        if is_cand_row[tries[gi]] == 0:
            k += 1
        if m == n and is_cand_row[tries[gi]] == 0:
            k = USELESS
        key[gi] = k * G + gi
    order = np.argsort(key)
    m = 0
    while m < G and key[order[m]] < USELESS * G:
        m += 1
    return tries[order[:m]]


@njit(cache=True, nogil=True, inline="always")  # per guess or bucket: see INLINED
def _open_buckets(game, S, g, tally, min_size):
    """Patterns of ``g``'s distinct non-green buckets over ``S`` of at least ``min_size``
    (first-seen order; ``tally.sizes`` holds the bucket sizes)."""
    mat, sizes, marks, green_code = game.mat, tally.sizes, tally.marks, game.green_code
    tally.stamp[0] += 1
    st = tally.stamp[0]
    pats = np.empty(S.shape[0], np.int64)
    m = 0
    for s in range(S.shape[0]):
        p = mat[g, S[s]]
        if marks[p] == st:
            continue
        marks[p] = st
        if p == green_code or sizes[p] < min_size:
            continue
        pats[m] = p
        m += 1
    return pats[:m]


@njit(cache=True, nogil=True)
def _known_greens(greens, digits, p):
    """Positions whose letter is known after pattern ``p``: earlier greens and ``p``'s own."""
    ng = 0
    for pos in range(greens.shape[0]):
        if greens[pos] >= 0 or digits[p, pos] == 2:
            ng += 1
    return ng


@njit(cache=True, nogil=True, inline="always")  # per guess or bucket: see INLINED
def _guess_buckets(game, S, g, greens, left, tally):
    """The buckets of guess row ``g`` at a node of answers ``S`` with ``left`` guesses left
    that a search must look into: ``(over, check)``.

    ``over`` is the pattern of a bucket (of ``left`` or more answers) larger than its
    capacity (:func:`capacity_table`), which refutes ``g`` at once, or -1; then ``check``
    lists the non-green buckets of ``left`` or more answers (smaller ones are won by
    guessing their words in turn), trap-like first (most known greens, then largest): a
    failing bucket refutes the guess, and hard-mode traps are buckets with many greens.
    """
    n = S.shape[0]
    L = greens.shape[0]
    mat, digits, sizes = game.mat, game.digits, tally.sizes
    for s in range(n):
        sizes[mat[g, S[s]]] += 1
    over = -1
    for p in _open_buckets(game, S, g, tally, left):
        if sizes[p] > game.cap[L - _known_greens(greens, digits, p), left - 1]:
            over = p
            break
    check = _open_buckets(game, S, g, tally, left) if over < 0 else np.empty(0, np.int64)
    keys = np.empty(check.shape[0], np.int64)
    for i in range(check.shape[0]):
        keys[i] = -(_known_greens(greens, digits, check[i]) * (n + 1) + sizes[check[i]])
    for s in range(n):
        sizes[mat[g, S[s]]] = 0
    return over, check[np.argsort(keys, kind="mergesort")]


@njit(cache=True, nogil=True)
def _new_tally(n_patterns):
    return Tally(np.zeros(n_patterns, np.int32), np.zeros(n_patterns, np.int64), np.zeros(1, np.int64))


@njit(cache=True, nogil=True)
def _new_child(S, greens, need, n_rows):
    return Child(np.empty_like(greens), np.empty_like(need), np.empty_like(S), np.zeros(n_rows, np.uint8))


@njit(cache=True, nogil=True)
def _three_left(game, S, legal, scan, greens, need, is_cand_row, sp, base):
    """The 3-guesses-left test (see :func:`solve_three`): a guess row of ``legal`` winning
    every answer of ``S``, or -1. ``scan`` is a superset of ``legal`` (the rows every
    splitter search reads, so the cache stays valid across the nodes of one
    :func:`solve_four` call), keyed in the splitter cache by ``base`` (see
    :func:`_splittable`)."""
    tally = _new_tally(game.digits.shape[0])
    child = _new_child(S, greens, need, 0)
    for g in _guess_order(game, S, legal, is_cand_row, sp.tables):
        sp.work[0] += 1
        over, check = _guess_buckets(game, S, g, greens, 3, tally)
        win = over < 0
        for p in check:
            obligations_after(game.codes, g, p, greens, need, child.greens, child.need)
            nb = gather_bucket(game.mat, S, g, p, child.rows)
            if not _splittable(game, child.rows[:nb], scan, child.greens, child.need, sp, base):
                win = False
                break
        if win:
            return g
    return -1


@njit(cache=True, nogil=True)
def _splitters(game, keys, values):
    P = game.digits.shape[0]
    tables = (np.zeros((_BLK, P), np.int32), np.zeros((_BLK, P + 1), game.mt.dtype), np.zeros(_BLK, np.int64))
    seen, stamp, work = np.zeros(P, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64)
    return Splitters(seen, stamp, work, keys, values, tables)


@njit(cache=True, nogil=True)
def solve_three(game, S, legal, greens, need, is_cand_row):
    """(guess row winning every answer of ``S`` within 3 guesses or -1, work done) (exact).

    A guess wins iff every bucket of three or more answers can be split into singletons
    by one guess legal after that bucket's feedback. Work is the number of (guess,
    splitter) pairs examined, so that a caller can charge it against a node budget
    deterministically.

    Guesses are tried in order of their largest bucket (smallest first), candidates
    first among equals, so a winning guess is usually found at once; a loss scans
    every legal guess. ``game``: :class:`HardGame`; a bucket larger than its capacity
    refutes a guess before any splitter is sought (hard-mode traps such as ``?ATCH``
    with four greens known). Splitter searches are cached per bucket
    (:func:`_splittable`).
    """
    sp = _splitters(game, np.zeros((1 << 12, 3), np.int64), np.zeros(1 << 12, np.int64))
    g = _three_left(game, S, legal, legal, greens, need, is_cand_row, sp, 0)
    return g, sp.work[0] + legal.shape[0]


UNDECIDED = -2  # solve_four's guess when its work limit ran out first
NO_LIMIT = 1 << 62  # solve_four's work limit that never runs out
CACHE_SLOTS = 1 << 19  # entries of each table of kernel_caches (32 MB in all)


def kernel_caches(slots: int = CACHE_SLOTS) -> KernelCaches:
    """Empty caches for :func:`solve_four`, kept across calls: splitter searches and 3-left
    results, each a direct-mapped table of ``slots`` (a power of two) keyed by two 64-bit
    hashes of the bucket and the obligations (a newer entry replaces an older one)."""
    if slots < 1 or slots & (slots - 1):
        raise ValueError(f"slots must be a power of two, not {slots}")
    return KernelCaches(np.zeros((slots, 3), np.int64), np.zeros(slots, np.int64),
                        np.zeros((slots, 3), np.int64), np.zeros(slots, np.int64))


@njit(cache=True, nogil=True, inline="always")  # per guess or bucket: see INLINED
def _three_left_cached(game, child, nb, legal, sp, caches, base):
    """:func:`_three_left` of the bucket ``child.rows[:nb]`` under the obligations
    ``child.greens``, ``child.need`` (the rows of ``legal`` allowed by them), from the
    3-left cache when it holds the result; ``legal`` is the parent's legal set, the
    splitters' scan, keyed by ``base``."""
    B = child.rows[:nb]
    r1, r2 = _hash_rows(B, _salt(child.greens, child.need))
    res = _cache_get(caches.three_left_keys, caches.three_left_values, r1, r2)
    if res != -2:
        return res
    sub_legal = legal_subset(legal, game.codes, game.counts, child.greens, child.need)
    for t in range(nb):
        child.is_cand_row[game.arow[B[t]]] = 1
    res = _three_left(game, B.copy(), sub_legal, legal, child.greens.copy(), child.need.copy(),
                      child.is_cand_row, sp, base)
    for t in range(nb):
        child.is_cand_row[game.arow[B[t]]] = 0
    _cache_put(caches.three_left_keys, caches.three_left_values, r1, r2, res)
    return res


@njit(cache=True, nogil=True)
def _mark_bucket(mat, S, g, p, core):
    """Mark in ``core`` the answers of ``S`` that guess row ``g`` answers with ``p``."""
    for t in range(S.shape[0]):
        if mat[g, S[t]] == p:
            core[t] = 1


@njit(cache=True, nogil=True)
def _gather_marked(mat, S, g, p, core, out):
    """Write the answers of ``S`` marked in ``core`` that guess row ``g`` answers with
    ``p`` into ``out`` (in ``S``'s order); return how many, and how many answers the
    whole bucket holds."""
    m = 0
    size = 0
    for t in range(S.shape[0]):
        if mat[g, S[t]] == p:
            size += 1
            if core[t] != 0:
                out[m] = S[t]
                m += 1
    return m, size


@njit(cache=True, nogil=True)
def _core_first(mat, S, g, check, core, tally):
    """``check`` (buckets of guess row ``g``) with those holding an answer marked in
    ``core`` first, order kept otherwise: refuting with one keeps the core small."""
    marks = tally.marks
    tally.stamp[0] += 1
    st = tally.stamp[0]
    for t in range(S.shape[0]):
        if core[t] == 0:
            marks[mat[g, S[t]]] = st
    inside = np.empty(check.shape[0], np.int64)
    for bi in range(check.shape[0]):
        inside[bi] = 1 if marks[check[bi]] == st else 0
    return check[np.argsort(inside, kind="mergesort")]


@njit(cache=True, nogil=True)
def solve_four(game, S, legal, greens, need, is_cand_row, tries, core, caches, limit):
    """(guess row winning every answer of ``S`` within 4 guesses or -1, work done) (exact),
    or (:data:`UNDECIDED`, work done) when the work passed ``limit`` first.

    A guess wins iff every bucket of four or more answers passes :func:`_three_left` with the
    obligations after its feedback (smaller buckets are won by guessing their words in
    turn). One splitter cache serves every 3-left node below, which is where a lost
    4-left node spends its time: the same trap buckets come back under most guesses.
    ``game``: :class:`HardGame`; ``tries``: the guesses to try (``legal``, or fewer to ask
    why particular guesses lose).

    ``caches`` = :func:`kernel_caches`, kept by the caller across calls. ``legal`` must
    be exactly the guess rows allowed by ``(greens, need)`` (as the search's are): then
    both what a splitter search finds and a 3-left node's result are functions of the
    bucket and the obligations alone, so every later call, for any node or opener,
    reuses them (a hit saves the work, never changes a result).

    ``core`` (zeros on entry, one entry per answer of ``S``) is scratch: the answers of the
    buckets that refuted the guesses tried so far are marked in it, and for each later
    guess the buckets already marked are checked first (move ordering: a bucket that
    refuted one guess is likely to refute the next), each by its marked answers alone
    before the whole bucket (if they are lost, so is the bucket, and the core does not
    grow). On a loss it holds a subset of ``S`` that is lost on its own (every guess
    leaves one of those sets whole).
    """
    sp = _splitters(game, caches.splitter_keys, caches.splitter_values)
    base = _salt(greens, need)  # this node's obligations decide ``legal``, the splitters' scan
    tally = _new_tally(game.digits.shape[0])
    child = _new_child(S, greens, need, is_cand_row.shape[0])
    for g in _guess_order(game, S, tries, is_cand_row, sp.tables):
        if sp.work[0] > limit:  # (what was cached so far is exact: buckets searched to the end)
            return UNDECIDED, sp.work[0] + tries.shape[0]
        sp.work[0] += 1
        over, check = _guess_buckets(game, S, g, greens, 4, tally)
        if over >= 0:
            _mark_bucket(game.mat, S, g, over, core)
            continue
        if check.shape[0] > 1:
            check = _core_first(game.mat, S, g, check, core, tally)
        lost = -1
        grew = True
        for p in check:
            obligations_after(game.codes, g, p, greens, need, child.greens, child.need)
            # the bucket's marked answers alone first: if they are lost, so is the bucket,
            # and the core does not grow (a part of three or fewer is always won)
            nm, nb = _gather_marked(game.mat, S, g, p, core, child.rows)
            if 3 < nm < nb and _three_left_cached(game, child, nm, legal, sp, caches, base) < 0:
                lost, grew = p, False
                break
            nb = gather_bucket(game.mat, S, g, p, child.rows)
            if _three_left_cached(game, child, nb, legal, sp, caches, base) < 0:
                lost = p
                break
        if lost < 0:
            return g, sp.work[0] + tries.shape[0]
        if grew:
            _mark_bucket(game.mat, S, g, lost, core)
    return -1, sp.work[0] + tries.shape[0]
