"""Every bucket-based strategy chooses exactly as before the compiled, blocked kernel.

The reference is the pre-kernel path, rebuilt independently: numpy bucket statistics
(``tests/reference_buckets.py``), the perfect-split check as a sort of the n x n
block, ``np.lexsort`` for the tie rule, and no perfect-split shortcut over the whole
guess pool. Both are asked on hundreds of random positions (random games of random
guesses, normal and hard mode) and must agree on every one.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.reference_buckets import bucket_stats_numpy
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.strategies import collision, eliminated, get_strategy, greedy, hard_safe

STRATEGIES = [("entropy", {}), ("expected-size", {}), ("minimax", {}), ("partitions", {}),
              ("entropy", {"pool": "answers"}), ("minimax", {"pool": "candidates"}),
              ("test-all-full", {}), ("balanced", {}), ("collision-breaker", {}),
              ("collision-filter", {})]


def _ref_first_perfect(matrix, rows, cands, n_patterns):
    block = np.sort(np.asarray(matrix[np.asarray(rows)][:, cands]), axis=1)
    hit = np.flatnonzero((block[:, 1:] != block[:, :-1]).all(axis=1))
    return int(hit[0]) if hit.size else -1


def _ref_pick(keys, is_cand):
    return int(np.lexsort([np.arange(len(is_cand)), ~is_cand, *keys[::-1]])[0])


@pytest.fixture
def reference_kernels(monkeypatch):
    """A context that swaps every strategy module onto the reference path."""

    def use() -> None:
        for mod in (greedy, eliminated, collision, hard_safe):
            monkeypatch.setattr(mod, "bucket_stats", bucket_stats_numpy)
        monkeypatch.setattr(greedy, "first_perfect_split", _ref_first_perfect)
        for mod in (greedy, collision, hard_safe):
            monkeypatch.setattr(mod, "pick_lexicographic", _ref_pick)
        monkeypatch.setattr(greedy.PartitionStrategy, "perfect_is_best", False)
        # and every guess scored in full (no ruling out by bucket count first)
        monkeypatch.setattr(greedy.PartitionStrategy, "promising_rows", lambda self, state, rows: rows)

    return use


def _positions(lex, mat, hard, count, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        st = GameState.new(lex, hard, mat)
        answer = int(rng.integers(len(lex.answers)))
        for _ in range(int(rng.integers(1, 4))):
            rows = st.legal_rows
            st = st.play(int(rows[rng.integers(len(rows))]), answer)
            if st.solved:
                break
            if st.n_candidates > 2:
                out.append(st)
    return out


def test_same_choices_as_the_reference_path(small_lex, reference_kernels, monkeypatch):
    mat = pattern_matrix(small_lex)
    positions = _positions(small_lex, mat, False, 150, 1) + _positions(small_lex, mat, True, 150, 2)
    new = {}
    for name, opts in STRATEGIES:
        for i, st in enumerate(positions):
            new[name, str(opts), i] = get_strategy(name, **opts).choose(st)
    reference_kernels()
    compared = diffs = 0
    for name, opts in STRATEGIES:
        for i, st in enumerate(positions):
            ref = get_strategy(name, **opts).choose(st)
            compared += 1
            diffs += int(ref != new[name, str(opts), i])
    assert compared == len(STRATEGIES) * 300 and diffs == 0
    # the shortcut fired on some positions, so the comparison covered it
    monkeypatch.undo()
    assert any(greedy.first_perfect_candidate(st) is None and st.n_candidates <= greedy.PERFECT_POOL_MAX
               and greedy.first_perfect_split(mat, st.legal_rows, st.candidates, small_lex.n_patterns) >= 0
               for st in positions)
    # ... and the ruling out by bucket count did rule out most guesses at most positions
    entropy = get_strategy("entropy")
    kept = [len(entropy.promising_rows(st, st.legal_rows)) / len(st.legal_rows) for st in positions[:150]]
    assert sum(k < 0.5 for k in kept) > 75, kept


def test_fast_tie_rule_is_lexsort(small_lex):
    rng = np.random.default_rng(9)
    for _ in range(500):
        n = int(rng.integers(1, 40))
        keys = [rng.integers(0, 3, n).astype(float) for _ in range(int(rng.integers(1, 4)))]
        is_cand = rng.random(n) < 0.3
        assert greedy.pick_lexicographic(keys, is_cand) == _ref_pick(keys, is_cand)


def _reference_tree(strategy, state, opener):
    """The tree builder before the small-bucket fast path: a state and a choice per bucket."""
    from wordle_core.game.feedback import all_green
    from wordle_core.game.tree import Tree

    tree = Tree(state.lexicon, strategy.name, opener, state.hard)
    tree.solved_at = np.full(len(state.lexicon.answers), -1, dtype=np.int32)
    green = all_green(state.lexicon.length)
    stack = [(state, opener, -1, -1)]
    while stack:
        st, guess, parent, pat_in = stack.pop()
        node = tree._add(guess, parent, pat_in, 0.0)
        pats = np.asarray(st.matrix[guess, st.candidates])
        for pat in sorted(set(pats.tolist()), reverse=True):
            bucket = st.candidates[pats == pat]
            if pat == green:
                tree.solved_at[bucket] = node
                continue
            child = st.apply(guess, pat)
            stack.append((child, strategy.choose(child), node, pat))
    return tree


@pytest.mark.parametrize("hard", [False, True])
def test_whole_trees_unchanged(small_lex, hard):
    from wordle_core.game.tree import Tree

    mat = pattern_matrix(small_lex)
    root = GameState.new(small_lex, hard, mat)
    for name in ("entropy", "minimax", "partitions", "expected-size", "prior-entropy"):
        for row in (small_lex.guess_id("trace"), 0, 333, len(small_lex.guesses) - 1):
            a = Tree.build(get_strategy(name), root, row)
            b = _reference_tree(get_strategy(name), root, row)
            assert (a.guess, a.parent, a.pattern_in, a.depth) == (b.guess, b.parent, b.pattern_in, b.depth)
            assert np.array_equal(a.solved_at, b.solved_at) and a.children == b.children
