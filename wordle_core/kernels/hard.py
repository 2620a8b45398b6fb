"""Numba kernels of hard mode: the NYT rule in compiled form, and the hard-mode search's
last full level (a node with 3 guesses left).

The rule. :class:`wordle_core.game.rules.HardConstraints` is the one hard-mode
constraint type; its compiled form is two arrays, ``greens[pos]`` (symbol or -1) and
``need[sym]`` (minimum count of each symbol). Every compiled user of the rule (the
exact search, the hard-mode search, ``HardConstraints.legal_rows``) goes through the
three kernels below: :func:`obligations_after` (what one feedback obliges),
:func:`is_legal` (one guess under the obligations) and :func:`hard_filter` /
:func:`legal_subset` (a list of rows filtered). ``tests/test_rules.py`` checks them
against the Python rule on random histories.

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
def legal_subset(rows, codes, counts, greens, need):
    """The rows of ``rows`` allowed under ``(greens, need)`` (order kept)."""
    out = np.empty(rows.shape[0], rows.dtype)
    k = 0
    for j in range(rows.shape[0]):
        if is_legal(codes, counts, rows[j], greens, need):
            out[k] = rows[j]
            k += 1
    return out[:k].copy()


@njit(cache=True, nogil=True)
def hard_filter(legal, codes, counts, g, p, length, n_sym):
    """Rows of ``legal`` still allowed after guess ``g`` showed pattern ``p``.

    ``legal`` must already satisfy the earlier obligations: they are the union over
    the history, so only this feedback's obligations need checking.
    """
    greens = np.full(length, -1, np.int8)
    need = np.zeros(n_sym, np.uint8)
    g2 = np.empty(length, np.int8)
    n2 = np.empty(n_sym, np.uint8)
    obligations_after(codes, g, p, greens, need, g2, n2)
    return legal_subset(legal, codes, counts, g2, n2)


@njit(cache=True, nogil=True)
def _perfect_splitter(mat, B, legal, codes, counts, greens, need, seen, stamp):
    """Index in ``legal`` of a guess legal under (greens, need) giving all of ``B`` distinct patterns."""
    for hi in range(legal.shape[0]):
        h = legal[hi]
        stamp[1] += 1
        if not is_legal(codes, counts, h, greens, need):
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
def solve_three(mat, S, legal, codes, counts, greens, need, digits, green_code, is_cand_row):
    """(guess row winning every answer of ``S`` within 3 guesses or -1, work done) (exact).

    Work is the number of (guess, splitter) pairs examined, so that a caller can
    charge it against a node budget deterministically.

    Guesses are tried in order of their largest bucket (smallest first), candidates
    first among equals, so a winning guess is usually found at once; a loss scans
    every legal guess.
    """
    n = S.shape[0]
    P = digits.shape[0]
    L = codes.shape[1]
    A = need.shape[0]
    G = legal.shape[0]
    cnt = np.zeros(P, np.int32)
    largest = np.empty(G, np.int64)
    for gi in range(G):
        g = legal[gi]
        for s in range(n):
            cnt[mat[g, S[s]]] += 1
        m = 0
        for s in range(n):
            p = mat[g, S[s]]
            if cnt[p] > m:
                m = cnt[p]
        for s in range(n):
            cnt[mat[g, S[s]]] = 0
        key = m * 2
        if is_cand_row[g] == 0:
            key += 1
        if m == n and is_cand_row[g] == 0:
            key = 1 << 40  # no information: never useful
        largest[gi] = key * G + gi
    order = np.argsort(largest)
    seen = np.zeros(P, np.int64)
    stamp = np.zeros(2, np.int64)
    cgreens = np.empty(L, greens.dtype)
    cneed = np.empty(A, need.dtype)
    B = np.empty(n, S.dtype)
    done = np.zeros(P, np.int64)
    dstamp = 0
    for oi in range(G):
        if largest[order[oi]] >= (1 << 40) * G:
            break
        g = legal[order[oi]]
        for s in range(n):
            cnt[mat[g, S[s]]] += 1
        win = True
        dstamp += 1
        for s in range(n):
            p = mat[g, S[s]]
            if done[p] == dstamp:
                continue
            done[p] = dstamp
            if p == green_code or cnt[p] <= 2:
                continue
            obligations_after(codes, g, p, greens, need, cgreens, cneed)
            nb = 0
            for t in range(n):
                if mat[g, S[t]] == p:
                    B[nb] = S[t]
                    nb += 1
            if _perfect_splitter(mat, B[:nb], legal, codes, counts, cgreens, cneed, seen, stamp) < 0:
                win = False
                break
        for s in range(n):
            cnt[mat[g, S[s]]] = 0
        if win:
            return g, stamp[1] + G
    return -1, stamp[1] + G


@njit(cache=True, nogil=True)
def bucket_stats(mat, S, legal):
    """Largest bucket and sum of squared bucket sizes of every legal guess over ``S``.

    The two numbers the search orders guesses by, computed without materialising the
    (guesses x candidates) block: one pass per guess with a reused counter array.
    """
    n = S.shape[0]
    G = legal.shape[0]
    cnt = np.zeros(65536, np.int32)  # any pattern code (uint8 or uint16 matrices)
    largest = np.empty(G, np.int32)
    sum_sq = np.empty(G, np.int64)
    for gi in range(G):
        row = mat[legal[gi]]
        m = 0
        sq = 0
        for s in range(n):
            p = row[S[s]]
            c = cnt[p] + 1
            cnt[p] = c
            sq += 2 * c - 1
            if c > m:
                m = c
        for s in range(n):
            cnt[row[S[s]]] = 0
        largest[gi] = m
        sum_sq[gi] = sq
    return largest, sum_sq
