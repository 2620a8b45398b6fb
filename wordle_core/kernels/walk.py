"""A whole decision tree in one compiled walk, whatever makes the choice at each position.

:meth:`wordle_core.game.tree.Tree.build` plays a strategy from an opener against every
candidate, position by position, with a Python call per position. A strategy whose
choice is compiled can hand the whole tree to :func:`walk_tree` instead: the same
nodes in the same order, without Python between them. The greedy measures
(:func:`wordle_core.kernels.greedy.greedy_tree`) and the ``default`` strategy's
width-limited search (:func:`wordle_core.kernels.exact.search_tree`) are two such
choices; the walk is written once, here.

The chooser is :func:`choice`, which each kind of choice implements for its own ``how``
(a tuple of that choice's arrays and settings) with numba's ``overload``: the walk is
compiled once per kind, and cached like any other kernel (a jitted function passed as
an argument would be compiled again in every process).

The order is :meth:`Tree.build`'s: depth first, a node's buckets by ascending pattern,
the all-green bucket solved at the node, a bucket of one or two answers played by
guessing its first answer (then the second, if any: the tree's "small bucket" rule),
and every other bucket a position whose guess the chooser makes. In hard mode each
child's obligations and allowed rows are its parent's after the feedback, by the
compiled NYT rule (:mod:`wordle_core.kernels.hard`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from wordle_core.kernels.buckets import split_codes
from wordle_core.kernels.buckets.vector import CACHE  # (False with the plain twins: nothing cached)
from wordle_core.kernels.hard import legal_subset, obligations_after

TREE_OK, TREE_NO_CHOICE, TREE_NO_PROGRESS = 0, 1, 2


@njit(cache=CACHE, nogil=True)
def grow(a, size):
    """A copy of ``a`` with room for at least ``size`` entries (twice as many or more)."""
    b = np.empty(max(2 * a.shape[0], size), a.dtype)
    b[:a.shape[0]] = a
    return b


def choice(how, cands, legal, greens, need, d):
    """The guess row at a position (its candidates, allowed rows, hard-mode obligations
    and guesses left), or -1 where the chooser has none. Compiled only: each chooser
    registers its implementation for its ``how`` with ``numba.extending.overload``
    (:mod:`wordle_core.kernels.greedy`: a tuple of 9; :mod:`wordle_core.kernels.exact`:
    a tuple of 22)."""
    raise NotImplementedError("choice is compiled only: call walk_tree")


@njit(cache=CACHE, nogil=True)
def walk_tree(how, mat, arow, codes, counts, opener, cands0, legal0, greens0, need0,
              hard, d0, depth_left, n_pat):
    """Every game from guess row ``opener`` against ``cands0``.

    ``how``: the chooser's arguments (:func:`choice`, which makes every choice). ``mat``:
    guesses x answers patterns (``mat[g, answer]``); ``arow``: each answer's guess row.
    ``legal0`` and ``(greens0, need0)``: the root's allowed rows and obligations (hard
    mode; normal mode: every row, and they stay as they are). ``d0``: guesses left at
    the root, so a child of a node at depth ``k`` has ``d0 - k`` left.

    Returns ``((guess, parent, pattern_in, depth, solved_at), status)``: per node its
    guess row, parent node (-1: the root), pattern from the parent (-1: the root) and
    depth (1: the root); ``solved_at[answer]``: the node whose guess is that answer (-1:
    not among ``cands0``). ``status``: :data:`TREE_OK`; :data:`TREE_NO_CHOICE` when the
    chooser had no guess for a position (the nodes so far are returned);
    :data:`TREE_NO_PROGRESS` when a node is deeper than ``depth_left``.
    """
    cap = 2 * cands0.shape[0] + 16
    guess = np.empty(cap, np.int64)
    parent = np.empty(cap, np.int64)
    pat_in = np.empty(cap, np.int64)
    depth = np.empty(cap, np.int64)
    solved = np.full(mat.shape[1], -1, np.int64)
    green = n_pat - 1
    n_nodes = 0
    # the stack: candidates, allowed rows, obligations, (guess, parent, pattern, depth, small)
    s_c = [cands0]
    s_l = [legal0]
    s_g = [greens0]
    s_n = [need0]
    s_i = [(np.int64(opener), np.int64(-1), np.int64(-1), np.int64(1), False)]
    status = TREE_OK
    while len(s_i) > 0:
        cands = s_c.pop()
        legal = s_l.pop()
        greens = s_g.pop()
        need = s_n.pop()
        g, par, pat, k, small = s_i.pop()
        if n_nodes == guess.shape[0]:
            guess = grow(guess, n_nodes + 1)
            parent = grow(parent, n_nodes + 1)
            pat_in = grow(pat_in, n_nodes + 1)
            depth = grow(depth, n_nodes + 1)
        node = n_nodes
        guess[node] = g
        parent[node] = par
        pat_in[node] = pat
        depth[node] = k
        n_nodes += 1
        if k > depth_left:
            status = TREE_NO_PROGRESS
            break
        if small:  # g is cands[0], a candidate: it solves it; cands[1] (if any) comes next
            solved[cands[0]] = node
            if cands.shape[0] == 2:
                s_c.append(cands[1:])
                s_l.append(legal)
                s_g.append(greens)
                s_n.append(need)
                s_i.append((np.int64(arow[cands[1]]), np.int64(node), np.int64(mat[g, cands[1]]),
                            k + 1, True))
            continue
        pc = np.empty(cands.shape[0], mat.dtype)  # the matrix's codes, as split_by_pattern's:
        for j in range(cands.shape[0]):             # split_codes is compiled once
            pc[j] = mat[g, cands[j]]
        grouped, starts, sizes, pats = split_codes(pc, cands, n_pat)
        for b in range(pats.shape[0] - 1, -1, -1):
            p = pats[b]
            bucket = grouped[starts[b]:starts[b] + sizes[b]]
            if p == green:
                for j in range(bucket.shape[0]):
                    solved[bucket[j]] = node
                continue
            if bucket.shape[0] <= 2:
                s_c.append(bucket)
                s_l.append(legal)
                s_g.append(greens)
                s_n.append(need)
                s_i.append((np.int64(arow[bucket[0]]), np.int64(node), p, k + 1, True))
                continue
            if hard:
                cg = np.empty_like(greens)
                cn = np.empty_like(need)
                # the guess row as the choosers' index arrays hold it (int32), as the
                # exact search passes it: obligations_after is compiled once
                obligations_after(codes, np.int32(g), p, greens, need, cg, cn)
                child_legal = legal_subset(legal, codes, counts, cg, cn)
            else:
                cg, cn, child_legal = greens, need, legal
            nxt = choice(how, bucket, child_legal, cg, cn, d0 - k)
            if nxt < 0:
                status = TREE_NO_CHOICE
                break
            s_c.append(bucket)
            s_l.append(child_legal)
            s_g.append(cg)
            s_n.append(cn)
            s_i.append((np.int64(nxt), np.int64(node), p, k + 1, False))
        if status != TREE_OK:
            break
    return (guess[:n_nodes], parent[:n_nodes], pat_in[:n_nodes], depth[:n_nodes], solved), status
