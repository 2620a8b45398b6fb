"""Every bucket-based strategy chooses exactly as full numpy scoring does.

The reference is rebuilt independently of the compiled kernels: numpy bucket
statistics (``tests/reference_buckets.py``), the four measures' keys written out in
numpy here, ``np.lexsort`` for the tie rule, every guess of the pool scored (no
perfect-split shortcut, no ruling out by bucket count). Both are asked on hundreds of
random positions (random games of random guesses, normal and hard mode) and must
agree on every one; whole trees of the compiled walk must equal the per-position walk.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.reference_buckets import bucket_stats_numpy
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.kernels import greedy as kernel
from wordle_core.strategies import collision, get_strategy, greedy, hard_safe

MEASURES = [("entropy", {}), ("expected-size", {}), ("minimax", {}), ("partitions", {}),
            ("entropy", {"pool": "answers"}), ("minimax", {"pool": "candidates"})]
OTHERS = [("test-all-full", {}), ("balanced", {}), ("collision-breaker", {}), ("collision-filter", {})]


def _ref_pick(keys, is_cand):
    return int(np.lexsort([np.arange(len(is_cand)), ~is_cand, *keys[::-1]])[0])


def _ref_keys(name, st, is_cand):
    n = st.n
    if name == "entropy":
        return [np.round(-((np.log2(n) - st.sum_xlogx / n) + is_cand / n), 9)]
    if name == "expected-size":
        return [st.sum_sq, st.largest]
    if name == "minimax":
        return [st.largest, st.sum_sq]
    return [-st.buckets, st.sum_sq]


def _ref_choose(name, opts, state):
    """Full scoring of the pool: the measure's keys, then a candidate, then the first row."""
    if state.n_candidates <= 2:
        return int(state.candidate_rows[0])
    rows = greedy.guess_pool(state, opts.get("pool", "all"))
    st = bucket_stats_numpy(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
    is_cand = np.isin(rows, state.candidate_rows)
    return int(rows[_ref_pick(_ref_keys(name, st, is_cand), is_cand)])


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


@pytest.fixture(scope="module")
def positions(small_lex):
    mat = pattern_matrix(small_lex)
    return _positions(small_lex, mat, False, 150, 1) + _positions(small_lex, mat, True, 150, 2)


def _is_perfect(state, row):
    pats = np.asarray(state.matrix[row, state.candidates])
    return np.unique(pats).shape[0] == pats.shape[0]


def test_measures_choose_as_full_numpy_scoring(positions):
    compared = diffs = 0
    for name, opts in MEASURES:
        strat = get_strategy(name, **opts)
        for st in positions:
            compared += 1
            diffs += int(strat.choose(st) != _ref_choose(name, opts, st))
    assert compared == len(MEASURES) * 300 and diffs == 0
    # the shortcuts fired on some positions, so the comparison covered them: a perfect
    # candidate (n <= 64), and a perfect non-candidate of the pool only (n <= 15)
    assert any(any(_is_perfect(st, r) for r in st.candidate_rows) for st in positions
               if st.n_candidates <= kernel.PERFECT_CHECK_MAX)
    assert any(not any(_is_perfect(st, r) for r in st.candidate_rows)
               and any(_is_perfect(st, r) for r in st.legal_rows)
               for st in positions if st.n_candidates <= kernel.PERFECT_POOL_MAX)


def test_ruling_out_by_bucket_count_scores_few_guesses(positions):
    """The full statistics read under half the cells of scoring every guess at most of the
    larger positions (the rest only had their buckets counted), and the choice is the same."""
    lex = positions[0].lexicon
    mat = np.asarray(positions[0].matrix)
    from wordle_core.kernels.buckets import transposed, xlogx_table

    mt = transposed(positions[0].matrix)
    arow = lex.answer_rows.astype(np.int64)
    log2n = kernel.log2_table(len(lex.answers))
    big = [st for st in positions if st.n_candidates > kernel.PERFECT_CHECK_MAX]
    assert len(big) > 20
    shares = []
    for st in big:
        rows = st.legal_rows.astype(np.int64)
        cands = st.candidates.astype(np.int64)
        picks = []
        for rule_out in (True, False):
            sc = kernel.scratch(len(lex.guesses), lex.n_patterns, mt.dtype)
            picks.append(kernel.choose(mat, mt, True, arow, rows, rows.shape[0] == mat.shape[0], cands,
                                       kernel.ENTROPY, log2n, xlogx_table(len(lex.answers)), rule_out, sc))
            if rule_out:
                shares.append(sc[8][0] / (rows.shape[0] * cands.shape[0]))
        assert picks[0] == picks[1]
    assert sum(s < 0.5 for s in shares) > 0.75 * len(shares), shares


def test_other_strategies_choose_as_with_the_reference_kernels(positions, monkeypatch):
    new = {(name, i): get_strategy(name, **opts).choose(st)
           for name, opts in OTHERS for i, st in enumerate(positions)}
    import wordle_core.kernels.buckets as buckets  # (the strategies import it where they use it)

    monkeypatch.setattr(buckets, "bucket_stats", bucket_stats_numpy)
    for mod in (collision, hard_safe):
        monkeypatch.setattr(mod, "pick_lexicographic", _ref_pick)
    diffs = sum(int(get_strategy(name, **opts).choose(st) != new[name, i])
                for name, opts in OTHERS for i, st in enumerate(positions))
    assert len(new) == len(OTHERS) * 300 and diffs == 0


def test_the_kernels_log2_and_xlogx_tables_are_numpys():
    """The compiled keys read tables; they hold exactly numpy's scalar values."""
    from wordle_core.kernels.buckets import xlogx_table

    n_max = 2315
    table = kernel.log2_table(n_max)
    assert all(table[n] == np.log2(n) for n in range(1, n_max + 1))
    big = xlogx_table(n_max)
    assert all(np.array_equal(big[: n + 1], xlogx_table(n)) for n in range(0, n_max + 1, 7))


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


def _same_tree(a, b):
    return ((a.guess, a.parent, a.pattern_in, a.depth) == (b.guess, b.parent, b.pattern_in, b.depth)
            and np.array_equal(a.solved_at, b.solved_at) and a.children == b.children)


@pytest.mark.parametrize("hard", [False, True])
def test_whole_trees_unchanged(small_lex, hard):
    """The per-position walk and the compiled walk (untimed) both build the reference tree."""
    from wordle_core.game.tree import Tree

    mat = pattern_matrix(small_lex)
    root = GameState.new(small_lex, hard, mat)
    for name in ("entropy", "minimax", "partitions", "expected-size", "prior-entropy"):
        for row in (small_lex.guess_id("trace"), 0, 333, len(small_lex.guesses) - 1):
            b = _reference_tree(get_strategy(name), root, row)
            assert _same_tree(Tree.build(get_strategy(name), root, row), b)
            assert _same_tree(Tree.build(get_strategy(name), root, row, timed=False), b)


@pytest.mark.parametrize("hard", [False, True])
def test_compiled_walk_on_the_full_lexicon(wordle, hard):
    """Full size: whole wordle trees of the compiled walk equal the per-position walk's,
    from a hard opener and an easy one, for every measure; also from a mid-game state."""
    from wordle_core.game.tree import Tree

    root = GameState.new(wordle, hard)
    mid = root.play(wordle.guess_id("fuzzy"), wordle.answer_id("buxom"))  # a green and a gray
    assert hard is False or not mid.constraints.empty
    for name in ("entropy", "expected-size", "minimax", "partitions"):
        for state, opener in ((root, "qajaq"), (root, "trace"), (mid, "crate" if not hard else "bumph")):
            a = Tree.build(get_strategy(name), state, opener)
            b = Tree.build(get_strategy(name), state, opener, timed=False)
            assert _same_tree(a, b) and len(a.guess) > 100
            assert b.seconds == [0.0] * len(b.guess) and sum(a.seconds) > 0


def test_a_matrix_read_row_by_row_gives_the_same_choices(positions):
    """A matrix too big for a transposed copy (Nerdle's) is read row by row: same choices."""
    from wordle_core.kernels.buckets import transposed, xlogx_table

    lex = positions[0].lexicon
    mat = np.asarray(positions[0].matrix)
    mt = transposed(positions[0].matrix)
    arow = lex.answer_rows.astype(np.int64)
    log2n = kernel.log2_table(len(lex.answers))
    xlogx = xlogx_table(len(lex.answers))
    for kind in (kernel.ENTROPY, kernel.EXPECTED_SIZE, kernel.MINIMAX, kernel.PARTITIONS):
        for st in positions[::3]:
            rows = st.legal_rows.astype(np.int64)
            cands = st.candidates.astype(np.int64)
            dense = rows.shape[0] == mat.shape[0]
            picks = [kernel.choose(mat, m, has, arow, rows, dense, cands, kind, log2n, xlogx, True,
                                   kernel.scratch(len(lex.guesses), lex.n_patterns, mat.dtype))
                     for m, has in ((mt, True), (np.zeros((1, 1), mat.dtype), False))]
            assert picks[0] == picks[1]
