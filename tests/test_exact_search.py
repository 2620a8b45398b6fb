"""Exact search against an independent brute force, and its trees against replay.

The brute force below shares nothing with :mod:`wordle_core.kernels.exact`: it recurses over
every allowed guess with :class:`GameState` (hard-mode legality from
:mod:`wordle_core.game.rules`) and no bounds, on lexicons small enough to enumerate.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from tests.reference_buckets import distinct_counts_numpy
from wordle_core.analysis.simulate import report_from_tree, simulate
from wordle_core.game.feedback import all_green
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.kernels.buckets import split_by_pattern
from wordle_core.search.exact import INF, ExactSolver, optimal_for_opener


def brute_force_opener(lex: Lexicon, opener: int, hard: bool, pool: str, limit: int) -> int:
    """Minimal total guesses from ``opener`` by plain enumeration (INF if impossible)."""
    root = GameState.new(lex, hard)
    green = all_green(lex.length)
    states: dict[tuple, GameState] = {}

    def rows(st: GameState) -> list[int]:
        r = st.legal_rows
        if pool == "answers":
            r = r[lex.guess_is_answer[r]]
        return [int(x) for x in r]

    @cache
    def value(key: tuple) -> int:
        st = states[key]
        n = st.n_candidates
        if n == 1:
            return 1
        if limit - st.turn <= 1:
            return INF
        best = INF
        for g in rows(st):
            total = n
            parts = split_by_pattern(st.matrix, g, st.candidates)
            if len(parts) == 1 and green not in parts:
                continue  # learns nothing: never part of an optimal tree
            for pat in parts:
                if pat != green:
                    total += child(st, g, pat)
            best = min(best, total)
        return best

    def child(st: GameState, g: int, pat: int) -> int:
        c = st.apply(g, pat)
        key = (c.key(), c.turn)
        states[key] = c
        return value(key)

    total = root.n_candidates
    for pat in split_by_pattern(root.matrix, opener, root.candidates):
        if pat != green:
            total += child(root, opener, pat)
    return min(total, INF)


def tiny_lexicon(seed: int, n_answers: int = 12, n_extra: int = 12) -> Lexicon:
    full = load_lexicon("wordle")
    rng = random.Random(seed)
    # answers from a few shared-letter families, so that sets are hard to split
    pool = [w for w in full.answers if w[1:3] in ("ig", "ou", "ai", "ra", "ea")]
    answers = rng.sample(pool, n_answers)
    extra = rng.sample([w for w in full.guesses if w not in answers], n_extra)
    return Lexicon.build(f"tiny{seed}", answers, answers + extra, max_guesses=6)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("hard", [False, True])
def test_matches_brute_force(seed: int, hard: bool) -> None:
    lex = tiny_lexicon(seed)
    for limit in (2, 3, 4, 6):
        for pool in ("all", "answers"):
            solver = ExactSolver(lex, hard=hard, pool=pool, exact=True, max_guesses=limit, width=2)
            openers = lex.answer_rows if pool == "answers" else range(len(lex.guesses))
            for g in list(openers)[::3]:
                want = brute_force_opener(lex, int(g), hard, pool, limit)
                got = solver.opener_value(int(g))
                assert got == want, (lex.guesses[g], hard, pool, limit)


@pytest.mark.parametrize("seed", range(4))
def test_feasibility_first_gives_the_same_values(seed: int) -> None:
    """Hard mode: asking the feasibility search first only saves work on lost openers;
    with it and without it (the value search alone) every value agrees, lost openers
    occur, and above the lexicon's guess limit too (the capacity table widens)."""
    lex = tiny_lexicon(seed, n_answers=14, n_extra=10)
    lost = 0
    for limit in (3, 4, 8):
        for pool in ("all", "answers"):
            first = ExactSolver(lex, hard=True, pool=pool, max_guesses=limit)
            plain = ExactSolver(lex, hard=True, pool=pool, max_guesses=limit,
                                feasibility_first=False)
            openers = lex.answer_rows if pool == "answers" else range(len(lex.guesses))
            for g in openers:
                v = first.opener_value(int(g))
                assert v == plain.opener_value(int(g)), (lex.guesses[g], pool, limit)
                assert first.opener_wins(int(g)) == (v < INF)
                lost += v >= INF
    assert lost > 0


def test_width_limited_is_an_upper_bound(small_lex: Lexicon) -> None:
    opener = small_lex.guess_id(small_lex.answers[5])
    exact = ExactSolver(small_lex, exact=True).opener_value(opener)
    for w in (1, 3):
        assert ExactSolver(small_lex, exact=False, width=w).opener_value(opener) >= exact
    assert exact >= 2 * len(small_lex.answers) - 1


def test_width_limited_value_does_not_depend_on_beta_or_bucket_bounds(small_lex: Lexicon) -> None:
    """A width-limited value is a function of the position: asked with a cut-off
    ``beta`` and any valid per-guess bucket bounds ``ub`` (which let the search skip
    guesses whose bound reaches ``beta``), it is the value asked without them when below
    ``beta``, and ``>= beta`` otherwise. The bounds here are the loosest that still skip
    every guess allowed to be skipped (``3n - beta - 1``), so the skipped guesses' stand-in
    bounds all tie at ``beta``. Width 1 makes the heuristic's single pick among the
    first K guesses by bound sensitive to which guesses fill those K (it failed on 46
    of these positions before the search counted the skipped guesses whenever fewer than
    K guesses have a bound below ``beta``)."""
    lex = small_lex
    base = ExactSolver(lex, exact=False, width=1)
    legal = base.pool_rows()
    every = np.arange(len(lex.answers), dtype=np.int32)
    rng = np.random.default_rng(1)
    checked = 0
    for opener in rng.integers(len(lex.guesses), size=40):
        for cands in split_by_pattern(base.matrix, int(opener), every).values():
            n = len(cands)
            if n < 6:
                continue
            cands = np.ascontiguousarray(cands, dtype=np.int32)
            counts = np.array([len(split_by_pattern(base.matrix, int(g), cands)) for g in legal])
            for d in (3, 4, 5):
                free = ExactSolver(lex, exact=False, width=1).value(cands, legal, d)
                top = min(free, 3 * n)
                for beta in range(top - 8, top + 2):
                    cap = 3 * n - beta - 1
                    if cap < 1:
                        continue
                    ub = np.full(len(lex.guesses), n, np.int64)
                    ub[legal[counts <= cap]] = cap
                    v = ExactSolver(lex, exact=False, width=1).value(cands, legal, d, beta=beta, ub=ub)
                    if free < beta:
                        assert v == free, (n, d, beta, v, free)
                    else:
                        assert v >= beta, (n, d, beta, v, free)
                    checked += 1
    assert checked > 10_000


def test_can_beat_keeps_exactly_the_guesses_whose_bound_may_be_below_beta() -> None:
    """The one skip rule of cut-off proofs, against its definition on random bounds.

    A guess making at most ``min(ub, n)`` buckets (plus one if it is an answer) has a bound
    ``3n - buckets - [green] >= beta`` when ``min(ub, n) + 1 <= 3n - beta``: skipped.
    """
    from wordle_core.kernels.exact import can_beat

    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(3, 60))
        beta = int(rng.integers(2 * n - 1, 3 * n + 2))
        ub = rng.integers(0, 80, size=300)
        legal = np.sort(rng.choice(300, size=int(rng.integers(1, 300)), replace=False))
        sel = np.full(legal.shape[0], -1, np.int64)
        k = can_beat(ub, legal, n, 3 * n - beta, sel)
        want = [i for i, r in enumerate(legal) if 3 * n - min(ub[r], n) - 1 < beta]
        assert sel[:k].tolist() == want


def test_guesses_ordered_by_bound_put_what_can_beat_keeps_first() -> None:
    """A position's local guesses are ordered by ``min(ub, n)``, most first and ascending
    within a value (``order_by_bound``); for any subset of its answers (``m <= n``) and
    any ``beta``, the guesses ``can_beat`` keeps are then exactly the first
    ``bound_prefix`` ones, which is what the count bounds count."""
    from wordle_core.kernels.exact import bound_prefix, can_beat, order_by_bound

    rng = np.random.default_rng(8)
    for _ in range(200):
        n = int(rng.integers(3, 300))
        ub = rng.integers(0, 350, size=500)
        rows = np.sort(rng.choice(500, size=int(rng.integers(1, 500)), replace=False)).astype(np.int32)
        before = rows.copy()
        order_by_bound(rows, ub, n)
        want = sorted(before.tolist(), key=lambda r: (-min(ub[r], n), r))
        assert rows.tolist() == want
        m = int(rng.integers(3, n + 1))
        beta = int(rng.integers(2 * m - 1, 3 * m + 2))
        sel = np.full(rows.shape[0], -1, np.int64)
        local = np.arange(rows.shape[0])  # (the local scratch's columns, in that order)
        ub_l = ub[rows]
        k = can_beat(ub_l, local, m, 3 * m - beta, sel)
        assert bound_prefix(ub_l, local, m, 3 * m - beta) == k
        assert sel[:k].tolist() == list(range(k))


def test_hard_cut_off_counts_only_guesses_that_can_beat_beta() -> None:
    """Hard mode, a cut-off proof: the small-set pass (at most 32 answers) and the full
    scan (larger sets) count only the guesses whose bucket bound (``ub``) still allows a
    bound below ``beta`` (``min(ub, n) + 1 > 3n - beta``); the others stand in with their
    bound. With the sets' own counts as ``ub`` (the tightest valid bounds) every value is
    the one found without bounds when below ``beta`` and ``>= beta`` otherwise, and the
    pass reads fewer cells. The trap lexicon's sets rarely split perfectly, so the pass
    counts and its counts are used (mapping them back to the wrong guesses fails here)."""
    from conftest import trap_lexicon

    from wordle_core.kernels.buckets import count_buckets, transposed

    lex = trap_lexicon()
    mt = transposed(ExactSolver(lex, hard=True).matrix)
    green = lex.n_patterns - 1
    root = GameState.new(lex, True)
    rng = np.random.default_rng(5)
    checked = fewer = 0
    for opener in rng.integers(len(lex.guesses), size=6):
        for pat in split_by_pattern(root.matrix, int(opener), root.candidates):
            if pat == green:
                continue
            st = root.apply(int(opener), int(pat))
            n = st.n_candidates
            if not 6 <= n <= 64:
                continue
            base = ExactSolver(lex, hard=True)
            cands = np.ascontiguousarray(st.candidates, dtype=np.int32)
            legal = base.pool_rows(st.legal_rows)
            cons = base.obligations(st)
            d = lex.max_guesses - st.turn
            ub = np.zeros(len(lex.guesses), np.int64)
            ub[legal] = count_buckets(mt, cands, legal, green, lex.n_patterns)[0]
            free = ExactSolver(lex, hard=True).value(cands, legal, d, cons=cons)
            if free >= INF:
                continue
            for beta in range(free - 2, free + 3):
                plain = ExactSolver(lex, hard=True)
                plain.value(cands, legal, d, beta=beta, cons=cons)
                bounded = ExactSolver(lex, hard=True)
                v = bounded.value(cands, legal, d, beta=beta, cons=cons, ub=ub.copy())
                if free < beta:
                    assert v == free, (n, d, beta, v, free)
                else:
                    assert v >= beta, (n, d, beta, v, free)
                fewer += bounded.stats.cells < plain.stats.cells
                checked += 1
    assert checked > 150
    assert fewer > checked // 4

@pytest.mark.parametrize("hard", [False, True])
def test_fail_high_bounds_are_valid_lower_bounds(hard: bool) -> None:
    """A cut-off proof returns a lower bound ``>= beta``: the least bound of the guesses it
    refuted (fail-soft), not ``beta`` itself. It must never exceed the true value, and the
    memo that keeps it must not spoil later searches: one solver per position is asked
    with beta from the value - 6 up to the value + 2, so each later, higher beta meets the
    bounds stored before. Trap-lexicon sets of 6-64 answers after 8 seeded openers.
    (Adding 1 to the bound of a guess refuted by its children's values fails here.)"""
    from conftest import trap_lexicon

    lex = trap_lexicon()
    root = GameState.new(lex, hard)
    green = lex.n_patterns - 1
    rng = np.random.default_rng(11)
    checked = 0
    for opener in rng.integers(len(lex.guesses), size=8):
        for pat in split_by_pattern(root.matrix, int(opener), root.candidates):
            st = root.apply(int(opener), int(pat))
            if pat == green or not 6 <= st.n_candidates <= 64:
                continue
            base = ExactSolver(lex, hard=hard)
            cands = np.ascontiguousarray(st.candidates, dtype=np.int32)
            legal = base.pool_rows(st.legal_rows if hard else None)
            cons = base.obligations(st)
            d = lex.max_guesses - st.turn
            free = base.value(cands, legal, d, cons=cons)
            if free >= INF:
                continue
            shared = ExactSolver(lex, hard=hard)
            for beta in range(free - 6, free + 3):
                v = shared.value(cands, legal, d, beta=beta, cons=cons)
                fresh = ExactSolver(lex, hard=hard).value(cands, legal, d, beta=beta, cons=cons)
                for got in (v, fresh):
                    if free < beta:
                        assert got == free, (st.n_candidates, d, beta, got, free)
                    else:
                        assert beta <= got <= free, (st.n_candidates, d, beta, got, free)
                checked += 1
    assert checked > 700


@pytest.mark.parametrize("hard", [False, True])
def test_tree_total_equals_proven_value_and_replays(small_lex: Lexicon, hard: bool,
                                                    tmp_path) -> None:
    opener = small_lex.answers[20]
    res, tree = optimal_for_opener(small_lex, opener, hard=hard, with_tree=True)
    assert res.proven and tree is not None
    assert int(tree.lengths().sum()) == res.total
    assert int(tree.lengths().max()) <= small_lex.max_guesses
    path = tmp_path / "t.json"
    tree.save_json(path)
    again = Tree.load_json(small_lex, path)
    rep = report_from_tree(again)
    assert rep["totalGuesses"] == res.total and rep["failures"] == 0
    # the optimum is never worse than the look-ahead or a greedy strategy
    for name in ("default", "entropy"):
        other, _ = simulate(small_lex, name, opener, hard)
        assert other["totalGuesses"] >= res.total


def test_guess_limit_is_respected(small_lex: Lexicon) -> None:
    opener = small_lex.guess_id(small_lex.answers[20])
    free = ExactSolver(small_lex, max_guesses=10).opener_value(opener)
    tight = ExactSolver(small_lex, max_guesses=4).opener_value(opener)
    assert tight >= free
    res, tree = optimal_for_opener(small_lex, small_lex.answers[20], max_guesses=4, with_tree=True)
    if res.total < INF:
        assert int(tree.lengths().max()) <= 4
    assert ExactSolver(small_lex, max_guesses=2).opener_value(opener) == INF


def test_each_result_counts_its_own_proof_when_openers_share_a_solver(small_lex: Lexicon) -> None:
    """A pipeline worker proves many openers with one solver (one memo): each result's
    search figures are its own proof's, so they add up to the solver's, and the first
    opener's equal a fresh solver's (the figures used to be the solver's running total)."""
    shared = ExactSolver(small_lex)
    openers = small_lex.answers[3:9]
    results = [optimal_for_opener(small_lex, w, solver=shared)[0] for w in openers]
    for key in ("nodes", "scans", "scan_cells"):
        assert sum(r.stats[key] for r in results) == shared.stats.as_dict()[key]
    alone = optimal_for_opener(small_lex, openers[0])[0]
    assert results[0].stats == alone.stats and results[0].stats["nodes"] > 0


def test_answers_pool_tree_uses_answers_only(small_lex: Lexicon) -> None:
    res, tree = optimal_for_opener(small_lex, small_lex.answers[7], pool="answers", with_tree=True)
    assert all(small_lex.guess_is_answer[g] for g in tree.guess)
    full = ExactSolver(small_lex).opener_value(small_lex.guess_id(small_lex.answers[7]))
    assert res.total >= full


def test_hard_mode_filter_matches_rules(small_lex: Lexicon) -> None:
    """The numba hard-mode filter equals GameState.legal_rows along random games."""
    rng = np.random.default_rng(3)
    s = ExactSolver(small_lex, hard=True)
    for _ in range(40):
        st = GameState.new(small_lex, hard=True)
        legal = s.pool_rows(st.legal_rows)
        ans = int(rng.integers(len(small_lex.answers)))
        for _ in range(3):
            g = int(rng.choice(st.legal_rows))
            pat = int(st.matrix[g, ans])
            legal = s.child_rows(legal, g, pat)
            st = st.apply(g, pat)
            assert np.array_equal(legal, st.legal_rows)
            if st.solved:
                break


def test_bucket_split_matches_split_by_pattern(wordle: Lexicon) -> None:
    """The search's allocation-free split (``split_into``, reusing one frame) against the
    engine's dict-of-buckets reference: the same non-green buckets with the same members
    in order, largest first and lower pattern first among equal sizes."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.kernels import exact as kx
    from wordle_core.search.exact import transposed

    mt = transposed(wordle)
    mat = np.asarray(pattern_matrix(wordle))
    green = wordle.n_patterns - 1
    fr = kx.frames(2, len(wordle.answers), len(wordle.guesses), wordle.n_patterns, wordle.length,
                   len(wordle.alphabet))
    out, starts, sizes, pats = fr.out[1], fr.starts[1], fr.sizes[1], fr.pats[1]
    rng = np.random.default_rng(21)
    for n in (1, 2, 3, 7, 40, 300, len(wordle.answers)):
        for _ in range(5):
            cands = np.sort(rng.choice(len(wordle.answers), n, replace=False)).astype(np.int32)
            g = int(rng.integers(len(wordle.guesses))) if n > 3 else wordle.answer_rows[cands[0]]
            k = kx.split_into(mt, cands, g, green, fr.counts, fr.positions, out, starts, sizes, pats)
            ref = {p: b for p, b in split_by_pattern(mat, g, cands).items() if p != green}
            order = sorted(ref, key=lambda p: (-len(ref[p]), p))
            assert pats[:k].tolist() == order
            for i, p in enumerate(order):
                assert out[starts[i]:starts[i] + sizes[i]].tolist() == ref[p].tolist()
            assert not fr.counts.any()  # the counters are left zero for the next split


def test_allocation_free_hard_filter_matches_the_rule(small_lex: Lexicon) -> None:
    """``hard_filter_into`` (the search's, into a frame, its scratch reused) keeps exactly
    the rows that the one-row rule ``is_legal`` allows after the feedback, in order."""
    from wordle_core.game.rules import letter_counts
    from wordle_core.kernels.hard import filter_scratch, hard_filter_into, is_legal, obligations_after

    lex = small_lex
    codes = np.ascontiguousarray(lex.guess_codes)
    counts = np.ascontiguousarray(letter_counts(lex))
    sc = filter_scratch(lex.length, len(lex.alphabet))
    out = np.empty(len(lex.guesses), np.int32)
    rng = np.random.default_rng(4)
    legal = np.arange(len(lex.guesses), dtype=np.int32)
    greens, need = np.full(lex.length, -1, np.int8), np.zeros(len(lex.alphabet), np.uint8)
    g2, n2 = np.empty_like(greens), np.empty_like(need)
    for _ in range(200):
        g = int(rng.integers(len(lex.guesses)))
        p = int(rng.integers(lex.n_patterns))
        obligations_after(codes, g, p, greens, need, g2, n2)
        ref = [h for h in legal.tolist() if is_legal(codes, counts, h, g2, n2)]
        k = hard_filter_into(legal, codes, counts, g, p, sc, out)
        assert out[:k].tolist() == ref


@pytest.mark.parametrize("name", ["small", "wordle"])
def test_bitset_hard_filter_matches_the_rule(small_lex: Lexicon, wordle: Lexicon, name: str) -> None:
    """``hard_filter_bits`` (the exact search's: the parent's bitset AND the feedback's
    obligations) gives the same rows, ascending, as the row-by-row filter and the one-row
    rule ``is_legal``, over two feedbacks in a row (so the parent is a scattered subset),
    and its output bitset is the bitset of those rows (the child's, for its children)."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.rules import letter_counts
    from wordle_core.kernels import exact as kn
    from wordle_core.kernels.hard import (
        filter_scratch,
        hard_filter_bits,
        hard_filter_into,
        is_legal,
        obligations_after,
        rows_bitset,
        rule_bitsets,
    )

    lex = small_lex if name == "small" else wordle
    G = len(lex.guesses)
    codes = np.ascontiguousarray(lex.guess_codes)
    counts = np.ascontiguousarray(letter_counts(lex))
    green, least = rule_bitsets(codes, counts)
    sc = filter_scratch(lex.length, len(lex.alphabet))
    out, out2 = np.empty(G, np.int32), np.empty(G, np.int32)
    bits = np.empty((G + 63) // 64, np.uint64)
    rng = np.random.default_rng(8)
    everyone = np.arange(G, dtype=np.int32)
    none_g, none_n = np.full(lex.length, -1, np.int8), np.zeros(len(lex.alphabet), np.uint8)
    g1, n1 = np.empty_like(none_g), np.empty_like(none_n)
    g2, n2 = np.empty_like(none_g), np.empty_like(none_n)
    matrix = pattern_matrix(lex)
    checked = 0
    for _ in range(400):
        a = int(rng.integers(G))
        pa = int(matrix[a, rng.integers(len(lex.answers))])  # a feedback that happens
        obligations_after(codes, a, pa, none_g, none_n, g1, n1)
        parent = np.array([h for h in everyone.tolist() if is_legal(codes, counts, h, g1, n1)],
                          np.int32)
        if parent.size == 0:
            continue
        b = int(rng.choice(parent))
        pb = int(rng.integers(lex.n_patterns))
        obligations_after(codes, b, pb, g1, n1, g2, n2)
        ref = [h for h in parent.tolist() if is_legal(codes, counts, h, g2, n2)]
        k = hard_filter_bits(rows_bitset(parent, G), codes, b, pb, green, least, sc, bits, out)
        assert out[:k].tolist() == ref
        assert np.array_equal(bits, rows_bitset(out[:k], G))
        compiled = np.full_like(bits, 7)  # (stale words must be cleared)
        kn.rows_bits_into(out[:k], compiled)  # the solver's compiled form of rows_bitset
        assert np.array_equal(compiled, bits)
        assert hard_filter_into(parent, codes, counts, b, pb, sc, out2) == k
        assert out2[:k].tolist() == ref
        checked += bool(ref)
    assert checked > 20


@pytest.mark.parametrize("gather", [False, True])
def test_bucket_counts_match_numpy_for_every_set_size(wordle: Lexicon, gather: bool) -> None:
    """``count_buckets`` (pairwise SIMD path up to PAIRS_MAX candidates, byte flags above)
    against a sort-based numpy count, on every size around the switch, for all 12,972
    guesses in order (normal mode) or a scattered subset (hard mode's gather)."""
    from wordle_core.kernels import buckets as kn
    from wordle_core.search.exact import transposed

    mt = transposed(wordle)
    green = wordle.n_patterns - 1
    rng = np.random.default_rng(5)
    all_rows = np.arange(len(wordle.guesses), dtype=np.int32)
    for n in [1, 2, 3, 5, 17, kn.PAIRS_MAX, kn.PAIRS_MAX + 1, 90, 400]:
        rows = np.sort(rng.choice(all_rows, 3000, replace=False)).astype(np.int32) if gather \
            else all_rows
        # similar words (a bucket of one guess) as well as random ones
        near = np.flatnonzero(mt[:, int(rng.integers(len(wordle.guesses)))] == 0)
        for pool in (near, np.arange(len(wordle.answers))):
            if len(pool) < n:
                continue
            cands = np.sort(rng.choice(pool, n, replace=False)).astype(np.int32)
            nb, has_green = kn.count_buckets(mt, cands, rows, green, wordle.n_patterns)
            ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows, green)
            assert np.array_equal(nb, ref_nb) and np.array_equal(has_green, ref_g), (n, gather)


def test_bucket_counts_match_numpy_beyond_243_patterns() -> None:
    """``count_buckets``' flags per pattern for longer words: Mini Nerdle's 729 patterns
    and Nerdle's 6,561 (a block of two guesses), all guesses and a gathered subset."""
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.kernels import buckets as kn
    from wordle_core.search.exact import transposed

    rng = np.random.default_rng(8)
    for name in ("mini-nerdle", "nerdle"):
        lex = load_lexicon(name)
        mt = transposed(lex)
        green = lex.n_patterns - 1
        G = len(lex.guesses)
        for rows in (np.arange(G, dtype=np.int32),
                     np.sort(rng.choice(G, G // 3, replace=False)).astype(np.int32)):
            for n in (kn.PAIRS_MAX + 1, 150):
                cands = np.sort(rng.choice(len(lex.answers), n, replace=False)).astype(np.int32)
                nb, has_green = kn.count_buckets(mt, cands, rows, green, lex.n_patterns)
                ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows, green)
                assert np.array_equal(nb, ref_nb) and np.array_equal(has_green, ref_g), (name, n)


def test_pair_counts_match_numpy_while_the_cache_forgets_pairs(wordle: Lexicon) -> None:
    """``pair_counts`` (the answers' pairwise collision bitsets, made once per pair and
    kept in a first-in-first-out cache) against a sort-based numpy count of every guess,
    for sets of 1..PAIRS_MAX answers, similar ones (a bucket of one guess) and random
    ones. The cache has far fewer rows than the pairs asked for, so rows are reused for
    other pairs all along: a pair whose row was given away must not be read from it."""
    from wordle_core.kernels import buckets as kn
    from wordle_core.search.exact import transposed

    mt = transposed(wordle)
    green = wordle.n_patterns - 1
    arow = np.asarray(wordle.answer_rows, dtype=np.int32)
    rows = np.arange(len(wordle.guesses), dtype=np.int32)
    cache = kn.pair_cache(len(wordle.answers), len(wordle.guesses), slots=300)
    assert kn.pair_cache(kn.PAIR_ANSWERS_MAX + 1, 10)[0].shape[0] == 0  # (too many answers)
    rng = np.random.default_rng(17)
    near = np.flatnonzero(mt[:, wordle.guesses.index("salet")] == 0)  # 221 similar answers
    asked = firsts = sets = 0
    for n in [1, 2, 3, 9, 31, 32, 33, 40, kn.PAIRS_MAX]:
        for pool in (near, near[:50], np.arange(len(wordle.answers))):
            if len(pool) < n:
                continue
            for _ in range(2):
                cands = np.sort(rng.choice(pool, n, replace=False)).astype(np.int32)
                nb, has_green = kn.pair_counts(mt, cands, arow, green, cache)
                ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows, green)
                assert np.array_equal(nb, ref_nb) and np.array_equal(has_green, ref_g), n
                # the extremes read from the bit planes (no guess past the last one), over
                # every guess and over a prefix of them (a word's worth or not)
                for k in (len(rows), 1, 64, 65, int(rng.integers(2, len(rows)))):
                    most, most_green, first = kn.pair_count_extremes(mt, cands, arow, green,
                                                                     cache, k)
                    perfect = np.flatnonzero(ref_nb[:k] == n)
                    assert most == ref_nb[:k].max(), (n, k)
                    assert most_green == (ref_nb[:k] + ref_g[:k]).max(), (n, k)
                    assert first == (perfect[0] if len(perfect) else -1), (n, k)
                    if k == len(rows):
                        firsts += first >= 0
                sets += 1
                asked += 6 * (n * (n - 1) // 2)  # (each set's pairs asked for six times)
    made, replaced = (int(x) for x in cache[3])
    assert 0 < firsts < sets  # sets with a perfect guess, and sets without
    assert replaced > 0 and 300 < made < asked  # rows made over older pairs, and rows reused
    slot, owner = cache[1], cache[2]
    held = np.flatnonzero(slot >= 0)
    assert len(held) == 300  # every row holds exactly one pair, which points back to it
    assert sorted(slot[held].tolist()) == list(range(300))
    assert all(owner[slot[k]] == k for k in held)
    a, b = 3, 1000  # pair_index numbers the pairs a < b without gaps: b (b - 1) / 2 + a
    assert kn.pair_index(a, b) == sum(range(b)) + a and kn.pair_index(0, 1) == 0


@pytest.mark.parametrize("pool", ["all", "answers"])
@pytest.mark.parametrize("hard", [False, True])
def test_count_bounds_give_the_same_values_and_trees(hard: bool, pool: str) -> None:
    """Bounding a guess's buckets by their counts before searching them (the default,
    ``count_bounds=True``) refutes guesses without a search below them; it must never
    change a value or a best guess. Every third opener of the trap lexicon (hard-mode
    losses among them), with and without, each solver's memo shared by its openers: the
    same totals, the same optimal trees (every guess of every game), the count bounds in
    use (probes) and fewer positions searched; with every guess and with the answers
    only (whose rows are gathered). (A count bound one too high fails here.)"""
    from conftest import trap_lexicon

    lex = trap_lexicon()
    with_bounds = ExactSolver(lex, hard=hard, pool=pool)
    without = ExactSolver(lex, hard=hard, pool=pool, count_bounds=False)
    openers = range(0, len(lex.guesses), 3) if pool == "all" else lex.answer_rows[::2]
    values = []
    for g in openers:
        v = with_bounds.opener_value(int(g))
        assert v == without.opener_value(int(g)), lex.guesses[g]
        values.append(v)
    assert with_bounds.stats.probes > 100 and without.stats.probes == 0
    assert with_bounds.stats.nodes < without.stats.nodes
    if hard:
        assert INF in values  # lost openers are among them
    won = [int(g) for g, v in zip(openers, values, strict=True) if v < INF]
    for g in won[::10]:
        assert with_bounds.tree(g).to_dict() == without.tree(g).to_dict(), lex.guesses[g]


def _distinct_per_row(codes: np.ndarray) -> np.ndarray:
    """How many distinct values each row of a 2-D integer array holds."""
    srt = np.sort(codes, axis=1)
    return 1 + (np.diff(srt, axis=1) != 0).sum(axis=1)


def test_undominated_rows_leave_out_only_dominated_guesses(wordle: Lexicon) -> None:
    """``undominated_rows`` against a brute-force refinement check, over first buckets of
    a weak and a strong opener: every guess left out is refined over the set by a kept
    guess (each class of the kept guess's patterns lies in one class of its own: the
    number of distinct pattern pairs equals the kept guess's number of patterns), so
    over any subset it makes no more buckets; no candidate is left out; and over random
    subsets the most buckets and the least bound ``3n - B - [guess in set]`` are the same
    over the kept guesses as over all. It must leave out a good share: about half over
    JAUPS's largest bucket."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.kernels import exact as kx
    from wordle_core.kernels.buckets import count_buckets
    from wordle_core.search.exact import transposed

    lex = wordle
    mat = np.asarray(pattern_matrix(lex)).astype(np.int32)
    mt = transposed(lex)
    codes = np.ascontiguousarray(lex.guess_codes)
    arow = np.ascontiguousarray(lex.answer_rows, dtype=np.int32)
    grp, start, members = kx.neighbour_groups(codes)
    green = lex.n_patterns - 1
    every = np.arange(len(lex.answers), dtype=np.int32)
    legal = np.arange(len(lex.guesses), dtype=np.int32)
    rng = np.random.default_rng(5)
    shares = {}
    for opener in ("jaups", "salet"):
        buckets = sorted(split_by_pattern(mat, lex.guesses.index(opener), every).values(), key=len)
        for cands in (buckets[-1], buckets[-4]):
            cands = np.ascontiguousarray(cands, dtype=np.int32)
            out = np.empty(len(lex.guesses), np.int32)
            k = kx.undominated_rows(codes, arow, cands, grp, start, members,
                                    np.zeros(len(lex.alphabet), np.bool_), out)
            kept = out[:k]
            assert np.all(np.diff(kept) > 0)
            left_out = np.setdiff1d(legal, kept)
            assert not np.isin(arow[cands], left_out).any()
            shares[(opener, len(cands))] = len(left_out) / len(legal)
            pk = mat[kept][:, cands]
            own = _distinct_per_row(pk)
            for h in rng.choice(left_out, 12, replace=False):
                joint = _distinct_per_row(pk * lex.n_patterns + mat[h, cands])
                assert (joint == own).any(), lex.guesses[h]
            for m in (5, 20, 60):
                sub = np.sort(rng.choice(cands, min(m, len(cands)), replace=False)).astype(np.int32)
                nb, has_green = count_buckets(mt, sub, legal, green, lex.n_patterns)
                bound = 3 * len(sub) - nb - has_green
                assert nb[kept].max() == nb.max() and bound[kept].min() == bound.min()
    assert shares[("jaups", max(n for o, n in shares if o == "jaups"))] > 0.4, shares


@pytest.mark.parametrize("hard", [False, True])
def test_pruned_counts_give_the_same_values_and_trees(hard: bool) -> None:
    """Counting the buckets of large positions over a copy of their guesses' columns
    (``prune_from``: in normal mode the undominated guesses, in hard mode every allowed
    one, for a bucket that keeps them all) must never change a value or a best guess:
    every third opener of the trap lexicon with the threshold low enough that most first
    buckets use it, against ``prune_from=0``: the same totals, the same optimal trees,
    and the copies in use (positions, and in normal mode the guesses left out)."""
    from conftest import trap_lexicon

    lex = trap_lexicon()
    pruned = ExactSolver(lex, hard=hard, prune_from=6)
    plain = ExactSolver(lex, hard=hard, prune_from=0)
    openers = range(0, len(lex.guesses), 3)
    won = []
    for g in openers:
        v = pruned.opener_value(int(g))
        assert v == plain.opener_value(int(g)), lex.guesses[g]
        won += [int(g)] if v < INF else []
    assert pruned.stats.pruned > 20
    assert pruned.stats.pruned_guesses > 20 * 40 if not hard else pruned.stats.pruned_guesses == 0
    assert plain.stats.pruned == 0 and plain.stats.pruned_guesses == 0
    assert len(won) > 10
    for g in won[::6]:  # (a hard-mode loss has no tree)
        assert pruned.tree(g).to_dict() == plain.tree(g).to_dict(), lex.guesses[g]
    if not hard:  # (normal mode copies only with every guess allowed)
        other = ExactSolver(lex, pool="answers", prune_from=6)
        other.opener_value(lex.answer_rows[0])
        assert other.stats.probes > 0 and other.stats.pruned == 0


def test_skipped_dominated_guesses_give_the_same_values_and_trees() -> None:
    """Skipping a guess once one that dominates it was tried (``skip_from``, on by
    default in normal mode) must never change a value or a best guess: every third
    opener of the trap lexicon with the threshold low enough that most positions skip,
    against ``skip_from=0``: the same totals and optimal trees, the same values under
    cut-offs (bounds may differ, never crossing the value), and guesses skipped."""
    from conftest import trap_lexicon

    lex = trap_lexicon()
    skipping = ExactSolver(lex, skip_from=3, prune_from=0)
    plain = ExactSolver(lex, skip_from=0, prune_from=0)
    openers = range(0, len(lex.guesses), 3)
    for g in openers:
        assert skipping.opener_value(int(g)) == plain.opener_value(int(g)), lex.guesses[g]
    assert skipping.stats.skipped > 40 and plain.stats.skipped == 0
    assert skipping.stats.evals < plain.stats.evals
    for g in list(openers)[::4]:
        assert skipping.tree(int(g)).to_dict() == plain.tree(int(g)).to_dict(), lex.guesses[g]
    rows = plain.pool_rows()
    everyone = np.arange(len(lex.answers), dtype=np.int32)
    rng = np.random.default_rng(3)
    for _ in range(12):  # fresh memos: bounds at random cut-offs, then the values
        sub = np.sort(rng.choice(everyone, int(rng.integers(8, 20)), replace=False)).astype(np.int32)
        a, b = ExactSolver(lex, skip_from=3), ExactSolver(lex, skip_from=0)
        exact = b.value(sub, rows, 4)
        beta = int(rng.integers(2 * len(sub), exact + 3))
        for s in (a, b):
            v = s.value(sub, rows, 4, beta=beta)
            assert (v == exact) if exact < beta else (beta <= v <= exact)
        assert a.value(sub, rows, 4) == exact
    for other in (ExactSolver(lex, hard=True, skip_from=6), ExactSolver(lex, pool="answers",
                                                                        skip_from=6)):
        other.opener_value(lex.answer_rows[0])  # (normal mode with every guess only)
        assert other.stats.evals > 0 and other.stats.skipped == 0


def test_skipped_dominated_guesses_keep_the_first_best_guess(wordle: Lexicon) -> None:
    """Where a dominated guess ties with the guess that dominates it and comes first in
    the search's order, it is the best guess, and skipping must not pass it over: the
    best guesses of 1,405 buckets (4-40 answers) of 40 random openers on ``wordle``, 4
    and 5 guesses left, with and without skipping. (Skipping every dominated guess,
    tried or not, changes two of them.)"""
    from wordle_core.search.exact import transposed

    skipping = ExactSolver(wordle, skip_from=3, prune_from=0)
    plain = ExactSolver(wordle, skip_from=0, prune_from=0)
    rows = plain.pool_rows()
    mt = transposed(wordle)
    rng = np.random.default_rng(1)
    positions = 0
    for opener in rng.choice(len(wordle.guesses), 40, replace=False):
        col = mt[:, opener]
        for p in np.unique(col):
            sub = np.flatnonzero(col == p).astype(np.int32)
            if not 4 <= len(sub) <= 40:
                continue
            positions += 1
            for d in (4, 5):
                assert skipping.best_guess(sub, rows, d) == plain.best_guess(sub, rows, d)
    assert positions == 1405 and skipping.stats.skipped > 500


def test_pair_counts_give_the_same_search(wordle: Lexicon) -> None:
    """The exact search with small sets counted by pair bitsets (the normal-mode
    default) and by pairwise compares (``pair_slots=0``): the same values, best guesses
    and nodes, on real positions (the buckets of a weak and a strong opener, and the
    second guesses of the best), the cache reused across them."""
    from wordle_core.search.exact import ExactSolver

    lex = wordle
    g = lex.guesses.index
    with_pairs = ExactSolver(lex)
    without = ExactSolver(lex, pair_slots=0)
    assert with_pairs.pair_slots > 0 and without.pair_slots == 0
    rows = with_pairs.pool_rows()
    everyone = np.arange(len(lex.answers), dtype=np.int32)
    checked = 0
    for opener in ("fuzzy", "salet"):
        for pat, sub in split_by_pattern(with_pairs.matrix, g(opener), everyone).items():
            if not 3 <= len(sub) <= 120 or pat == lex.n_patterns - 1:
                continue
            sub = np.ascontiguousarray(sub, dtype=np.int32)
            for d in (3, 4):
                v = with_pairs.value(sub, rows, d)
                assert v == without.value(sub, rows, d)
                if v < INF:
                    assert with_pairs.best_guess(sub, rows, d) == without.best_guess(sub, rows, d)
                checked += 1
    assert checked > 100
    assert with_pairs.stats.nodes == without.stats.nodes
    assert with_pairs.pair_cache_stats()["made"] > 0 and without.pair_cache_stats()["made"] == 0
    assert ExactSolver(lex, hard=True).pair_slots == 0  # (hard mode counts gathered rows)
    assert ExactSolver(lex, pool="answers").pair_slots == 0  # (so does the answers pool)


def test_pairs_count_stops_after_the_first_perfect_split(wordle: Lexicon) -> None:
    """The perfect-split pass returns the first guess (in row order) that splits the set
    into singletons, with correct counts for every guess up to its block's end."""
    from wordle_core.kernels.buckets import distinct_pairs
    from wordle_core.search.exact import transposed

    mt = transposed(wordle)
    green = wordle.n_patterns - 1
    rows = np.arange(len(wordle.guesses), dtype=np.int32)
    rng = np.random.default_rng(8)
    for n in (3, 8, 20):
        cands = np.sort(rng.choice(len(wordle.answers), n, replace=False)).astype(np.int32)
        ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows, green)
        nb, has_green, first, done = distinct_pairs(mt, cands, rows, True, green, True, 0)
        perfect = np.flatnonzero(ref_nb == n)
        assert first == (perfect[0] if len(perfect) else -1)
        assert done >= (first + 1 if first >= 0 else len(rows))
        assert np.array_equal(nb[:done], ref_nb[:done]) and np.array_equal(has_green[:done], ref_g[:done])


@pytest.mark.parametrize("dense", [True, False])
def test_pruned_pairs_count_keeps_every_guess_that_can_reach_the_floor(wordle: Lexicon, dense: bool) -> None:
    """With a ``floor`` the pairwise count drops, a few candidates at a time, each guess
    that can no longer score ``nb + has_green > floor``: every guess that does has its exact
    count; a dropped one gets an upper bound of it, ``has_green`` set and ``nb + 1 <= floor``. With
    ``floor = n`` (a guess dropped at its first repeated pattern) it finds the same first
    perfect split as a full count, for sets beyond PAIRS_MAX too. The sets are real
    positions (the buckets of five openers), so perfect splits occur at many sizes."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.kernels.buckets import PAIRS_MAX, distinct_pairs
    from wordle_core.search.exact import transposed

    mt = transposed(wordle)
    green = wordle.n_patterns - 1
    rng = np.random.default_rng(11)
    rows = np.arange(len(wordle.guesses), dtype=np.int32)
    splitters = [wordle.guess_id(w) for w in ("trace", "lingo", "dumpy")]
    if not dense:  # a scattered subset, as hard mode's allowed rows (with the splitters)
        rows = np.union1d(rng.choice(len(wordle.guesses), 3_000, replace=False), splitters)
        rows = rows.astype(np.int32)
    mat = pattern_matrix(wordle)
    found = {"small": 0, "large": 0, "none": 0}
    pruned = 0
    sets = []
    for opener in ("salet", "crane", "fuzzy", "mommy", "qajaq"):
        pats = mat[wordle.guess_id(opener)]
        sets += [np.flatnonzero(pats == p).astype(np.int32) for p in np.unique(pats)]
    for splitter in splitters:  # one answer per pattern of a guess: a perfect split exists
        pats = mat[splitter]
        firsts = np.unique(pats, return_index=True)[1]
        for n in (33, 48, len(firsts)):
            sets.append(np.sort(rng.choice(firsts, n, replace=False)).astype(np.int32))
    for cands in sets:
        n = len(cands)
        if n < 3 or n > wordle.n_patterns:
            continue
        ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows, green)
        perfect = np.flatnonzero(ref_nb == n)
        first = distinct_pairs(mt, cands, rows, dense, green, True, n)[2]
        assert first == (perfect[0] if len(perfect) else -1), n
        found["none" if first < 0 else "small" if n <= PAIRS_MAX else "large"] += 1
        if n > PAIRS_MAX:
            continue
        for floor in (n - 3, n - 1, n):
            nb, has_green, _, _ = distinct_pairs(mt, cands, rows, dense, green, False, floor)
            exact = (nb == ref_nb) & (has_green == ref_g)
            assert exact[nb + 1 > floor].all()
            assert exact[ref_nb + ref_g > floor].all()  # no guess that reaches it is lost
            assert (nb >= ref_nb).all() and has_green[~exact].all() and (nb[~exact] + 1 <= floor).all()
            pruned += int((~exact).sum())
    assert min(found.values()) > 0 and pruned > 0, (found, pruned)


@pytest.mark.slow
def test_salet_published_optimum(wordle: Lexicon) -> None:
    """Published (Selby): SALET 7,920 normal (never more than 5), 8,122 hard."""
    res, tree = optimal_for_opener(wordle, "salet", with_tree=True)
    assert (res.total, res.proven, res.max_guesses) == (7920, True, 5)
    assert report_from_tree(tree)["totalGuesses"] == 7920
    hard, _ = optimal_for_opener(wordle, "salet", hard=True)
    assert (hard.total, hard.proven) == (8122, True)


@pytest.mark.parametrize(("pool", "hard"), [("answers", False), ("all", False), ("all", True)])
def test_prove_best_opener_matches_exhaustive(small_lex: Lexicon, pool: str, hard: bool) -> None:
    """The bound-pruned best-opener proof equals evaluating every opener in full."""
    from wordle_core.search.exact import prove_best_opener

    rows = small_lex.answer_rows if pool == "answers" else np.arange(len(small_lex.guesses))
    rows = np.sort(rows)[::4]
    full = ExactSolver(small_lex, pool=pool, hard=hard)
    values = {int(r): full.opener_value(int(r)) for r in rows}
    best = min(values.values())
    solver = ExactSolver(small_lex, pool=pool, hard=hard)
    bounds = solver.opener_bounds(rows)
    assert all(bounds[i] <= values[int(r)] for i, r in enumerate(rows))
    res = prove_best_opener(solver, rows)
    assert res.total == best
    assert res.best == sorted(small_lex.guesses[r] for r, v in values.items() if v == best)
    assert res.evaluated <= len(rows)


@pytest.mark.parametrize("hard", [False, True])
def test_rank_openers_matches_exhaustive(small_lex: Lexicon, hard: bool) -> None:
    """The k best by exact total equal a full evaluation; every other opener is proven worse."""
    from wordle_core.search.exact import rank_openers

    rows = np.arange(len(small_lex.guesses))[::5]
    full = ExactSolver(small_lex, hard=hard)
    values = {small_lex.guesses[r]: full.opener_value(int(r)) for r in rows}
    k = 7
    want = sorted((v, w) for w, v in values.items() if v < INF)[:k]
    res = rank_openers(ExactSolver(small_lex, hard=hard), k, rows)
    assert [(o.total, o.opener) for o in res.top] == want
    assert [o.rank for o in res.top] == list(range(1, k + 1))
    assert res.kth_total == want[-1][0]
    assert len(res.openers) == len(rows)
    for o in res.openers:
        if o.total is not None:
            assert o.total == values[o.opener] and o.lower_bound == o.total
        else:
            assert o.proof == "bound"
            assert res.kth_total < o.lower_bound <= values[o.opener]
    assert res.exact_searches < len(rows)  # some openers fell to a bound


def test_rank_openers_no_win_rows_skip_the_search(small_lex: Lexicon) -> None:
    """Rows given as proven no-win (the role of the shipped hard verdicts) are recorded
    as 'no-win' without a search, and the top k is unchanged (4 guesses: 8 of 120 lose)."""
    from wordle_core.search.exact import rank_openers

    rows = np.arange(len(small_lex.guesses))[::5]
    full = ExactSolver(small_lex, hard=True, max_guesses=4)
    values = {int(r): full.opener_value(int(r)) for r in rows}
    no_win = frozenset(r for r, v in values.items() if v >= INF)
    assert no_win, "the fixture should have hard-mode openers without a guaranteed win"
    plain = rank_openers(ExactSolver(small_lex, hard=True, max_guesses=4), 5, rows)
    told = rank_openers(ExactSolver(small_lex, hard=True, max_guesses=4), 5, rows, no_win=no_win)
    assert [(o.opener, o.total) for o in told.top] == [(o.opener, o.total) for o in plain.top]
    by = {o.opener: o for o in told.openers}
    for r in no_win:
        o = by[small_lex.guesses[r]]
        assert o.proof == "no-win" and o.cpu_seconds == 0.0


def test_rank_openers_verdicts_first_skip_the_search_of_lost_openers(small_lex: Lexicon) -> None:
    """With ``verdicts_first`` (hard mode, no shipped verdicts) every lost opener reached
    is recorded as 'no-win' with no value search, the won ones are searched as before, and
    the ranking is the plain one's (k = 5, and every opener ranked); the plain ranking
    records the lost openers its searches proved (INF) as 'no-win' too, never as a bound."""
    from wordle_core.search.exact import rank_openers

    rows = np.arange(len(small_lex.guesses))[::5]
    full = ExactSolver(small_lex, hard=True, max_guesses=4)
    values = {int(r): full.opener_value(int(r)) for r in rows}
    lost = {small_lex.guesses[r] for r, v in values.items() if v >= INF}
    assert lost, "the fixture should have hard-mode openers without a guaranteed win"
    for k in (5, len(rows)):
        plain = rank_openers(ExactSolver(small_lex, hard=True, max_guesses=4), k, rows)
        solver = ExactSolver(small_lex, hard=True, max_guesses=4)
        searched: list[str] = []
        value = solver.opener_value

        def recorded(opener: int, *args, _value=value, _searched=searched, **kwargs) -> int:
            _searched.append(small_lex.guesses[opener])
            return _value(opener, *args, **kwargs)

        solver.opener_value = recorded  # type: ignore[method-assign]
        first = rank_openers(solver, k, rows, verdicts_first=True)
        assert [(o.opener, o.total) for o in first.top] == [(o.opener, o.total) for o in plain.top]
        assert searched and not lost & set(searched)
        by = {o.opener: o for o in first.openers}
        # a lost opener is no-win, or never reached (its two-level bound beat the k-th total)
        assert all(by[w].proof == "no-win" or by[w].cpu_seconds == 0.0 for w in lost)
        assert all(o.proof != "bound" or o.lower_bound < INF for o in plain.openers)
    assert all(by[w].proof == "no-win" for w in lost)  # (every opener ranked: all reached)


def test_hard_capacity_is_the_verdict_searchs_bound() -> None:
    """The exact search's hard-mode capacity bound is the feasibility search's table
    (:func:`wordle_core.kernels.hard.capacity_table`, checked by enumeration there)."""
    from wordle_core.kernels.exact import hard_capacity
    from wordle_core.kernels.hard import capacity_table

    cap = capacity_table(5, 8)
    for free in range(6):
        cg = np.array([-1] * free + [3] * (5 - free), np.int8)
        for d in range(9):
            assert hard_capacity(cg, d) == min(int(cap[free, d]), INF), (free, d)
    # e.g. four greens known (?ATCH): one candidate ruled out per guess
    assert hard_capacity(np.array([-1, 0, 19, 2, 7], np.int8), 5) == 5


def test_one_transposed_matrix_per_process(wordle: Lexicon) -> None:
    """The exact search reads the engine's one cached ``MT`` (no second 30 MB copy in a
    worker that also plays the greedy strategies), and it is the transpose, read-only."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.kernels import buckets
    from wordle_core.search.exact import transposed

    mat = pattern_matrix(wordle)
    mt = transposed(wordle)
    assert mt is buckets.transposed(mat) and mt is transposed(wordle, mat)
    assert not mt.flags.writeable and np.array_equal(mt[:50, :70], mat[:70, :50].T)


def test_set_floor_is_a_lower_bound_and_often_tight(wordle: Lexicon) -> None:
    """``set_floor`` (the bound of a bucket not searched yet, from the most buckets any
    guess makes of its parent) never exceeds the searched value of the set, and equals it
    on some sets: both of its rules, the lost sets (``m > kmax ** (d - 1)``) and
    ``3m - kmax - 1``, are met at their edges, so an off-by-one in either fails here.
    """
    from wordle_core.kernels.buckets import count_buckets, transposed
    from wordle_core.kernels.exact import set_floor

    solver = ExactSolver(wordle)
    rows = solver.pool_rows()
    mt = transposed(solver.matrix)
    green = wordle.n_patterns - 1
    rng = np.random.default_rng(5)
    tight_reach = tight_floor = 0
    everyone = np.arange(len(wordle.answers), dtype=np.int32)
    for opener in ("fuzzy", "qajaq", "xylyl", "mamma", "jujus"):
        o = wordle.guess_id(opener)
        for cands in split_by_pattern(solver.matrix, o, everyone).values():
            if len(cands) < 3:
                continue
            for m in sorted({3, 6, 12, 24, len(cands)}):
                if m > min(len(cands), 60):
                    continue
                sub = np.sort(rng.choice(cands, m, replace=False)).astype(np.int32)
                nb, _ = count_buckets(mt, sub, rows, green, wordle.n_patterns)
                kmax = int(nb.max())
                for d in (2, 3, 4):
                    want = solver.value(sub, rows, d)
                    got = set_floor(m, d, kmax)
                    assert got <= want, (opener, m, d, kmax, got, want)
                    if got == want and m > kmax and got < INF:
                        tight_floor += 1
                    if d == 2 and m == kmax and want < INF:
                        tight_reach += 1  # the most answers d guesses can separate, reached
    assert tight_floor > 0 and tight_reach > 0, (tight_floor, tight_reach)
    # the reach rule's edge deeper down, where real sets seldom go: with at most 3 buckets
    # per guess, three guesses separate 9 answers (3 + 3 + 3 pairs and singletons), not 10
    assert set_floor(9, 3, 3) == 3 * 9 - 3 - 1 and set_floor(10, 3, 3) == INF
    assert set_floor(27, 4, 3) < INF and set_floor(28, 4, 3) == INF


def test_perfect_split_pass_reads_only_guesses_whose_bound_allows_it(wordle: Lexicon) -> None:
    """Sets of PAIRS_MAX + 1 (65)..255 answers in normal mode (33..255 in hard mode)
    look for a perfect split only among the guesses whose upper
    bound (``ub``: bucket count over a superset) is at least the set's size. With valid
    bounds the pass finds the same first perfect guess as without bounds (a set is its own
    superset, so bounds equal to the counts are the edge: ``>`` instead of ``>=`` fails
    here); with the perfect guesses' bounds pushed below ``n`` the pass skips them and the
    full scan has to find the value, which shows the filter is what the pass reads.
    """
    from wordle_core.kernels.buckets import PAIRS_MAX, count_buckets, transposed

    base = ExactSolver(wordle)
    rows = base.pool_rows()
    mt = transposed(base.matrix)
    green = wordle.n_patterns - 1
    rng = np.random.default_rng(3)
    everyone = np.arange(len(wordle.answers), dtype=np.int32)
    checked = 0
    for _ in range(200):
        if checked == 6:
            break
        # one answer from each of n buckets of some guess: that guess splits them perfectly
        g = int(rng.integers(len(wordle.guesses)))
        parts = [p for pat, p in split_by_pattern(base.matrix, g, everyone).items() if pat != green]
        n = int(rng.integers(PAIRS_MAX + 1, 90))  # (smaller sets: pair_counts counts all)
        if len(parts) < n:
            continue
        picked = rng.choice(len(parts), n, replace=False)
        cands = np.sort([int(rng.choice(parts[k])) for k in picked]).astype(np.int32)
        extra = rng.choice(np.setdiff1d(everyone, cands), 2 * n, replace=False)
        parent = np.sort(np.concatenate((cands, extra))).astype(np.int32)
        nb, has_green = count_buckets(mt, cands, rows, green, wordle.n_patterns)
        perfect = rows[nb == n]
        if perfect.size == 0 or has_green[nb == n].any():
            continue  # (a perfect candidate is found before this pass)
        nb_parent = count_buckets(mt, parent, rows, green, wordle.n_patterns)[0]
        want = None
        for ub in (None, nb_parent, nb):
            solver = ExactSolver(wordle)
            ub_full = None if ub is None else np.asarray(ub, np.int64)
            assert solver.value(cands, rows, 3, ub=ub_full) == 2 * n
            got = solver.best_guess(cands, rows, 3)
            assert solver.stats.scans == 0  # the pass found it: no full scan
            want = got if want is None else want
            assert got == want == (2 * n, int(perfect[0]))
        low = nb.astype(np.int64).copy()
        low[nb == n] = n - 1  # not a valid bound: the pass must skip those guesses
        solver = ExactSolver(wordle)
        assert solver.value(cands, rows, 3, ub=low) == 2 * n
        assert solver.stats.scans == 1
        checked += 1
    assert checked == 6
