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
compiled loops (no allocation per guess).

Everything is passed as plain arrays: the pattern matrix, letter codes and counts of
the guesses (``counts[row, sym]``), and the obligations.
"""

from __future__ import annotations

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


@njit(cache=True, nogil=True)
def _perfect_splitter(mat, B, legal, codes, counts, greens, need, seen, stamp, start, check):
    """First index ``>= start`` in ``legal`` of a guess giving all of ``B`` distinct patterns
    (legal under ``(greens, need)`` when ``check``), or -1."""
    for hi in range(start, legal.shape[0]):
        h = legal[hi]
        stamp[1] += 1
        if check and not is_legal(codes, counts, h, greens, need):
            continue
        stamp[0] += 1
        st = stamp[0]
        ok = True
        for b in range(B.shape[0]):
            p = mat[h, B[b]]
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


@njit(cache=True, nogil=True)
def _splittable(mat, B, legal, codes, counts, cgreens, cneed, seen, stamp, tk, tv, base):
    """Can one guess legal after this bucket's feedback split ``B`` into singletons?

    ``legal`` are the guesses legal *before* that feedback (a superset), so a bucket
    with no perfect splitter among them has none at all: that fact depends on ``B``
    and ``legal`` only and is cached, as is where the first splitter sits (no earlier
    row splits ``B``, so the search under the tighter obligations starts there). Buckets
    recur across the guesses of one node (a trap such as ``?ATCH`` survives most
    guesses) and across nodes. ``base`` keys ``legal``: 0 when the tables serve one
    ``legal`` only, else a hash of the obligations that ``legal`` is the legal set of.
    """
    h1, h2 = _hash_rows(B, base)
    first = _cache_get(tk, tv, h1, h2)
    if first == -2:
        first = _perfect_splitter(mat, B, legal, codes, counts, cgreens, cneed, seen, stamp, 0, False)
        _cache_put(tk, tv, h1, h2, first)
    if first < 0:
        return False
    if is_legal(codes, counts, legal[first], cgreens, cneed):
        return True
    k1, k2 = _hash_rows(B, base * 1000003 + _salt(cgreens, cneed))
    got = _cache_get(tk, tv, k1, k2)
    if got == -2:
        got = _perfect_splitter(mat, B, legal, codes, counts, cgreens, cneed, seen, stamp, first + 1, True)
        _cache_put(tk, tv, k1, k2, got)
    return got >= 0


_BLK = 64  # guesses per block of the shared bucket primitives


@njit(cache=True, nogil=True)
def _order_guesses(mt, S, legal, is_cand_row, tables):
    """Guess order of a node: smallest largest bucket first, candidates first among equals,
    then row order; returns (order, key) with useless guesses (one bucket equal to ``S``,
    not a candidate) keyed ``>= (1 << 40) * G`` so callers stop there.

    The bucket sizes come from the shared blocked primitives of
    :mod:`wordle_core.kernels.buckets` (``count_block`` / ``stats_block`` over the
    transposed matrix ``mt``; ``tables`` = (counts, firsts, n_first), all-zero counts
    between calls)."""
    counts, firsts, n_first = tables
    n = S.shape[0]
    G = legal.shape[0]
    buckets = np.empty(G, np.int64)
    largest = np.empty(G, np.int64)
    sum_sq = np.empty(G, np.float64)
    sum_xl = np.empty(G, np.float64)
    worst = np.empty(G, np.int64)
    xlogx = np.zeros(n + 1, np.float64)  # entropy terms: not needed for the order
    for lo in range(0, G, _BLK):
        hi = min(lo + _BLK, G)
        count_block(mt, S, legal, False, lo, hi, counts, firsts, n_first)
        stats_block(lo, hi, counts, firsts, n_first, xlogx, buckets, largest, sum_sq, sum_xl, worst)
    key = np.empty(G, np.int64)
    for gi in range(G):
        m = largest[gi]
        k = m * 2
        if is_cand_row[legal[gi]] == 0:
            k += 1
        if m == n and is_cand_row[legal[gi]] == 0:
            k = 1 << 40  # no information: never useful
        key[gi] = k * G + gi
    return np.argsort(key), key


@njit(cache=True, nogil=True)
def _tables(mt, P):
    return (np.zeros((_BLK, P), np.int32), np.zeros((_BLK, P + 1), mt.dtype), np.zeros(_BLK, np.int64))


@njit(cache=True, nogil=True)
def _open_buckets(mat, S, g, cnt, green_code, min_size, done, dstamp):
    """Patterns of ``g``'s distinct non-green buckets over ``S`` of at least ``min_size``
    (first-seen order; ``cnt`` holds the bucket sizes, ``done`` is stamped with ``dstamp``)."""
    pats = np.empty(S.shape[0], np.int64)
    m = 0
    for s in range(S.shape[0]):
        p = mat[g, S[s]]
        if done[p] == dstamp:
            continue
        done[p] = dstamp
        if p == green_code or cnt[p] < min_size:
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


@njit(cache=True, nogil=True)
def _over_capacity(mat, S, g, cnt, greens, digits, green_code, cap_k, min_size, done, dstamp):
    """The pattern of a bucket of guess ``g`` (of at least ``min_size``) larger than
    ``cap_k[free]``, or -1 when none is. ``cnt`` holds the bucket sizes of ``g`` over ``S``."""
    L = greens.shape[0]
    for p in _open_buckets(mat, S, g, cnt, green_code, min_size, done, dstamp):
        if cnt[p] > cap_k[L - _known_greens(greens, digits, p)]:
            return p
    return -1


@njit(cache=True, nogil=True)
def _buckets_to_check(mat, S, g, cnt, greens, digits, green_code, min_size, done, dstamp):
    """Patterns of ``g``'s non-green buckets of at least ``min_size``, trap-like first
    (most known greens, then largest): a failing bucket refutes the guess, and hard-mode
    traps are buckets with many greens."""
    pats = _open_buckets(mat, S, g, cnt, green_code, min_size, done, dstamp)
    keys = np.empty(pats.shape[0], np.int64)
    for i in range(pats.shape[0]):
        keys[i] = -(_known_greens(greens, digits, pats[i]) * (S.shape[0] + 1) + cnt[pats[i]])
    return pats[np.argsort(keys, kind="mergesort")]


@njit(cache=True, nogil=True)
def _three_left(mat, mt, S, legal, scan, codes, counts, greens, need, digits, green_code, is_cand_row, cap,
           seen, stamp, tk, tv, tables, base):
    """The 3-guesses-left test (see :func:`solve_three`); ``scan`` is a superset of
    ``legal`` (the rows every splitter search reads, so the cache stays valid across
    the nodes of one :func:`solve_four` call), keyed in the splitter cache by ``base``
    (see :func:`_splittable`)."""
    n = S.shape[0]
    P = digits.shape[0]
    L = codes.shape[1]
    A = need.shape[0]
    G = legal.shape[0]
    cnt = np.zeros(P, np.int32)
    order, key = _order_guesses(mt, S, legal, is_cand_row, tables)
    cgreens = np.empty(L, greens.dtype)
    cneed = np.empty(A, need.dtype)
    B = np.empty(n, S.dtype)
    done = np.zeros(P, np.int64)
    dstamp = 0
    cap2 = cap[:, 2]
    for oi in range(G):
        if key[order[oi]] >= (1 << 40) * G:
            break
        g = legal[order[oi]]
        stamp[1] += 1
        for s in range(n):
            cnt[mat[g, S[s]]] += 1
        dstamp += 1
        win = _over_capacity(mat, S, g, cnt, greens, digits, green_code, cap2, 3, done, dstamp) < 0
        dstamp += 1
        check = _buckets_to_check(mat, S, g, cnt, greens, digits, green_code, 3, done, dstamp)
        for bi in range(check.shape[0] if win else 0):
            if not win:
                break
            p = check[bi]
            obligations_after(codes, g, p, greens, need, cgreens, cneed)
            nb = gather_bucket(mat, S, g, p, B)
            if not _splittable(mat, B[:nb], scan, codes, counts, cgreens, cneed, seen, stamp, tk, tv, base):
                win = False
        for s in range(n):
            cnt[mat[g, S[s]]] = 0
        if win:
            return g
    return -1


@njit(cache=True, nogil=True)
def solve_three(mat, mt, S, legal, codes, counts, greens, need, digits, green_code, is_cand_row, cap):
    """(guess row winning every answer of ``S`` within 3 guesses or -1, work done) (exact).

    A guess wins iff every bucket of three or more answers can be split into singletons
    by one guess legal after that bucket's feedback. Work is the number of (guess,
    splitter) pairs examined, so that a caller can charge it against a node budget
    deterministically.

    Guesses are tried in order of their largest bucket (smallest first), candidates
    first among equals, so a winning guess is usually found at once; a loss scans
    every legal guess. ``cap``: :func:`capacity_table`; a bucket larger than its
    capacity refutes a guess before any splitter is sought (hard-mode traps such as
    ``?ATCH`` with four greens known). Splitter searches are cached per bucket
    (:func:`_splittable`).
    """
    P = digits.shape[0]
    seen = np.zeros(P, np.int64)
    stamp = np.zeros(2, np.int64)
    tk = np.zeros((1 << 12, 3), np.int64)
    tv = np.zeros(1 << 12, np.int64)
    g = _three_left(mat, mt, S, legal, legal, codes, counts, greens, need, digits, green_code, is_cand_row,
               cap, seen, stamp, tk, tv, _tables(mt, P), 0)
    return g, stamp[1] + legal.shape[0]


CACHE_SLOTS = 1 << 19  # entries of each table of kernel_caches (32 MB in all)


def kernel_caches(slots: int = CACHE_SLOTS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Empty caches for :func:`solve_four`, kept across calls: splitter searches and 3-left
    results, each a direct-mapped table of ``slots`` (a power of two) keyed by two 64-bit
    hashes of the bucket and the obligations (a newer entry replaces an older one)."""
    if slots < 1 or slots & (slots - 1):
        raise ValueError(f"slots must be a power of two, not {slots}")
    return (np.zeros((slots, 3), np.int64), np.zeros(slots, np.int64),
            np.zeros((slots, 3), np.int64), np.zeros(slots, np.int64))


@njit(cache=True, nogil=True)
def solve_four(mat, mt, S, legal, codes, counts, greens, need, digits, green_code, is_cand_row, cap, arow,
               core, tries, caches):
    """(guess row winning every answer of ``S`` within 4 guesses or -1, work done) (exact).

    A guess wins iff every bucket of four or more answers passes :func:`_three_left` with the
    obligations after its feedback (smaller buckets are won by guessing their words in
    turn). One splitter cache serves every 3-left node below, which is where a lost
    4-left node spends its time: the same trap buckets come back under most guesses.
    ``arow``: guess row of each answer id; ``tries``: the guesses to try (``legal``, or
    fewer to ask why particular guesses lose).

    ``caches`` = :func:`kernel_caches`, kept by the caller across calls. ``legal`` must
    be exactly the guess rows allowed by ``(greens, need)`` (as the search's are): then
    both what a splitter search finds and a 3-left node's result are functions of the
    bucket and the obligations alone, so every later call, for any node or opener,
    reuses them (a hit saves the work, never changes a result).

    ``core`` (zeros on entry, one entry per answer of ``S``) is scratch: the answers of the
    buckets that refuted the guesses tried so far are marked in it, and for each later
    guess the buckets already marked are checked first (move ordering: a bucket that
    refuted one guess is likely to refute the next). On a loss it holds a subset of
    ``S`` that is lost on its own (every guess leaves one of those buckets, whole).
    """
    n = S.shape[0]
    P = digits.shape[0]
    L = codes.shape[1]
    A = need.shape[0]
    G = tries.shape[0]
    seen = np.zeros(P, np.int64)
    stamp = np.zeros(2, np.int64)
    tk, tv, rk, rv = caches
    base = _salt(greens, need)  # this node's obligations decide ``legal``, the splitters' scan
    cnt = np.zeros(P, np.int32)
    tables = _tables(mt, P)
    order, key = _order_guesses(mt, S, tries, is_cand_row, tables)
    cgreens = np.empty(L, greens.dtype)
    cneed = np.empty(A, need.dtype)
    B = np.empty(n, S.dtype)
    done = np.zeros(P, np.int64)
    dstamp = 0
    cap3 = cap[:, 3]
    sub_cand = np.zeros(is_cand_row.shape[0], np.uint8)
    # 3-left results by (bucket, obligations): the obligations decide its legal guesses, so
    # the result; the same bucket under the same obligations recurs across guesses and nodes
    for oi in range(G):
        if key[order[oi]] >= (1 << 40) * G:
            break
        g = tries[order[oi]]
        stamp[1] += 1
        for s in range(n):
            cnt[mat[g, S[s]]] += 1
        dstamp += 1
        bad = _over_capacity(mat, S, g, cnt, greens, digits, green_code, cap3, 4, done, dstamp)
        win = bad < 0
        if not win:
            for t in range(n):
                if mat[g, S[t]] == bad:
                    core[t] = 1
        dstamp += 1
        check = _buckets_to_check(mat, S, g, cnt, greens, digits, green_code, 4, done, dstamp)
        if win and check.shape[0] > 1:
            # buckets already inside the core first: refuting with one keeps the core small
            dstamp += 1
            for t in range(n):
                if core[t] == 0:
                    done[mat[g, S[t]]] = dstamp
            inside = np.empty(check.shape[0], np.int64)
            for bi in range(check.shape[0]):
                inside[bi] = 1 if done[check[bi]] == dstamp else 0
            check = check[np.argsort(inside, kind="mergesort")]
        for bi in range(check.shape[0] if win else 0):
            if not win:
                break
            p = check[bi]
            obligations_after(codes, g, p, greens, need, cgreens, cneed)
            nb = gather_bucket(mat, S, g, p, B)
            r1, r2 = _hash_rows(B[:nb], _salt(cgreens, cneed))
            res3 = _cache_get(rk, rv, r1, r2)
            if res3 == -2:
                sub_legal = legal_subset(legal, codes, counts, cgreens, cneed)
                for t in range(nb):
                    sub_cand[arow[B[t]]] = 1
                res3 = _three_left(mat, mt, B[:nb].copy(), sub_legal, legal, codes, counts, cgreens.copy(),
                              cneed.copy(), digits, green_code, sub_cand, cap, seen, stamp, tk, tv, tables,
                              base)
                for t in range(nb):
                    sub_cand[arow[B[t]]] = 0
                _cache_put(rk, rv, r1, r2, res3)
            if res3 < 0:
                win = False
                for t in range(n):
                    if mat[g, S[t]] == p:
                        core[t] = 1
        for s in range(n):
            cnt[mat[g, S[s]]] = 0
        if win:
            return g, stamp[1] + G
    return -1, stamp[1] + G
