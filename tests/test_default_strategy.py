"""The ``default`` (look-ahead) strategy: beats greedy, deterministic, legal, wins hard mode."""

from __future__ import annotations

import numpy as np
import pytest

from wordle_core.analysis.simulate import simulate
from wordle_core.game.tree import build_tree
from wordle_core.strategies import get_strategy


def test_registered_and_depth_aware() -> None:
    s = get_strategy("default")
    assert s.name == "default"
    assert s.depth_sensitive


def test_small_lexicon_beats_every_greedy(small_lex) -> None:
    opener = "salet" if "salet" in small_lex.guess_index else small_lex.answers[0]
    totals = {}
    for name in ("entropy", "expected-size", "minimax", "partitions", "default"):
        rep, _ = simulate(small_lex, name, opener)
        totals[name] = rep["totalGuesses"]
        assert rep["failures"] == 0
    assert totals["default"] <= min(v for k, v in totals.items() if k != "default")


def test_deterministic_whatever_the_order(small_lex) -> None:
    a, b = small_lex.answers[3], small_lex.answers[40]
    s1 = get_strategy("default")
    t_a1 = build_tree(s1, small_lex, a).rows()
    build_tree(s1, small_lex, b)
    s2 = get_strategy("default")
    build_tree(s2, small_lex, b)
    t_a2 = build_tree(s2, small_lex, a).rows()
    assert t_a1 == t_a2


def test_hard_mode_guesses_are_legal(small_lex) -> None:
    # Tree.build applies every guess through GameState.apply, which raises on an
    # illegal hard-mode guess; so building the tree is the legality check.
    tree = build_tree(get_strategy("default"), small_lex, small_lex.answers[10], hard=True)
    assert len(tree.answers) == len(small_lex.answers)


def test_answers_pool_only_plays_answers(small_lex) -> None:
    tree = build_tree(get_strategy("default", pool="answers"), small_lex, small_lex.answers[0])
    assert all(small_lex.guess_is_answer[g] for g in tree.guess)


@pytest.mark.slow
def test_wordle_salet_targets(wordle) -> None:
    rep, _ = simulate(wordle, "default", "salet")
    assert rep["failures"] == 0 and rep["maxGuesses"] <= 5
    assert rep["meanGuesses"] <= 3.4300
    greedy, _ = simulate(wordle, "entropy", "salet")
    assert rep["totalGuesses"] < greedy["totalGuesses"]
    hard, _ = simulate(wordle, "default", "salet", hard=True)
    assert hard["failures"] == 0 and hard["maxGuesses"] <= 6
    assert np.isclose(hard["meanGuesses"] * 2315, hard["totalGuesses"])


def test_memo_limit_and_reset_change_no_choice(small_lex) -> None:
    """The compiled memo is bounded and resettable; neither changes a tree."""
    opener = small_lex.answers[3]
    free = get_strategy("default")
    want = build_tree(free, small_lex, opener).rows()
    unbounded = free.memo_size()
    tight = get_strategy("default", memo_limit=20)
    assert build_tree(tight, small_lex, opener).rows() == want
    assert unbounded > 40
    assert tight.memo_size() < unbounded
    free.reset()
    assert free.memo_size() == 0
    assert build_tree(free, small_lex, opener).rows() == want
    for hard in (False, True):
        s = get_strategy("default", memo_limit=5)
        t = build_tree(s, small_lex, small_lex.answers[10], hard=hard)
        assert t.rows() == build_tree(get_strategy("default"), small_lex, small_lex.answers[10],
                                      hard=hard).rows()


def test_memo_limit_must_be_positive() -> None:
    from wordle_core.errors import WordleError

    with pytest.raises(WordleError):
        get_strategy("default", memo_limit=0)


def test_known_lost_positions_skip_the_wider_searches_and_change_no_tree(monkeypatch) -> None:
    """In hard mode a position the feasibility search already proved lost (here by the
    opener's verdict, as in the pipeline) is not searched again 4x and 16x wider: every
    tree is the one built with nothing known, and the skip really happens."""
    from conftest import trap_lexicon

    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.search.hard import forget_solvers, hard_verdict
    from wordle_core.strategies import lookahead

    lex = trap_lexicon("traps5", max_guesses=5)  # ?ATCH ...: hard-mode positions that are lost
    mat = pattern_matrix(lex)
    skipped = []
    real = lookahead.known_lost
    monkeypatch.setattr(lookahead, "known_lost",
                        lambda state, cands: skipped.append(real(state, cands)) or skipped[-1])
    openers = list(range(0, len(lex.guesses), 45))
    cold, warm = [], []
    for r in openers:
        forget_solvers()
        cold.append(build_tree(get_strategy("default"), lex, lex.guesses[r], hard=True).rows())
    n_cold = sum(skipped)
    for r in openers:
        forget_solvers()
        hard_verdict(lex, r, mat)
        warm.append(build_tree(get_strategy("default"), lex, lex.guesses[r], hard=True).rows())
    forget_solvers()
    assert warm == cold
    assert sum(skipped) - n_cold > n_cold  # the verdicts' memo proved more positions lost


def _nodes(tree):
    return (tree.guess, tree.parent, tree.pattern_in, tree.depth, tree.solved_at.tolist(),
            tree.children)


@pytest.mark.parametrize("hard", [False, True])
def test_the_compiled_walk_builds_the_trees_of_choosing_position_by_position(small_lex, hard):
    """Untimed (as the pipelines build), a tree is one compiled walk of the search: the
    nodes of the per-position walk, in the same order, from the first guess and from a
    mid-game position, with a cold memo or one that other trees filled. Where a position
    has no win within its guesses left at the strategy's width (width 1 in hard mode), the
    walk steps aside and the strategy's wider searches build the same tree as before
    (trap words, where hard mode loses games)."""
    from conftest import trap_lexicon

    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree

    mat = pattern_matrix(small_lex)
    root = GameState.new(small_lex, hard, mat)
    mid = root.play(small_lex.guess_id("salet") if "salet" in small_lex.guess_index else 0, 17)
    traps = trap_lexicon("traps5", max_guesses=5)
    trap_root = GameState.new(traps, hard, pattern_matrix(traps))
    walked = stepped_aside = 0
    for width in (16, 2, 1):
        shared = get_strategy("default", width=width)
        for state, rows in ((root, (0, 5, 333, len(small_lex.guesses) - 1)),
                            (mid, tuple(int(r) for r in mid.legal_rows[::97][:4])),
                            (trap_root, tuple(range(0, len(traps.guesses), 45)))):
            if state is trap_root:  # (another lexicon: its own strategy)
                shared = get_strategy("default", width=width)
            for row in rows:
                want = Tree.build(get_strategy("default", width=width), state, row)
                cold = get_strategy("default", width=width)
                arrays = cold.tree_arrays(state, row)
                walked += arrays is not None
                stepped_aside += arrays is None
                assert _nodes(Tree.build(cold, state, row, timed=False)) == _nodes(want)
                assert _nodes(Tree.build(shared, state, row, timed=False)) == _nodes(want)
    assert walked >= 14
    assert stepped_aside >= (3 if hard else 0)


@pytest.mark.parametrize("hard", [False, True])
def test_the_compiled_walk_on_the_full_lexicon(wordle, hard):
    """Full size: whole wordle trees of the compiled walk equal the per-position walk's,
    from a good opener, a poor one, and a mid-game position; in hard mode TITER has a
    position that width 16 cannot win, where the walk steps aside."""
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree

    root = GameState.new(wordle, hard)
    mid = root.play(wordle.guess_id("fuzzy"), wordle.answer_id("buxom"))
    cases = [(root, "salet"), (root, "jumpy"), (mid, "bumph" if hard else "crate")]
    if hard:
        cases.append((root, "titer"))
    for state, opener in cases:
        strat = get_strategy("default")
        arrays = strat.tree_arrays(state, wordle.guess_id(opener))
        assert (arrays is None) == (opener == "titer")
        want = Tree.build(get_strategy("default"), state, opener)
        got = Tree.build(strat, state, opener, timed=False)
        assert _nodes(got) == _nodes(want) and len(got.guess) > 100
        assert (got.seconds == [0.0] * len(got.guess)) == (arrays is not None)


@pytest.mark.parametrize("hard", [False, True])
def test_an_exact_solvers_walk_is_its_optimal_tree(small_lex, hard):
    """The walk asks the solver it belongs to: an exact solver's walk is its optimal tree
    (:meth:`ExactSolver.tree`, position by position), a width-limited solver's is its
    own. At width 1 the two differ from CHIEF (914 and 916 guesses in normal mode), so a
    walk that ignored ``exact`` would show it."""
    from wordle_core.game.state import GameState
    from wordle_core.search.exact import ExactSolver

    state = GameState.new(small_lex, hard)
    opener = small_lex.guess_id("chief")
    totals = {}
    for exact in (True, False):
        want = ExactSolver(small_lex, hard=hard, exact=exact, width=1).tree(opener)
        solver = ExactSolver(small_lex, hard=hard, exact=exact, width=1)
        assert solver.tree_arrays(state, opener) is not None
        got = ExactSolver(small_lex, hard=hard, exact=exact, width=1).tree(opener, timed=False)
        assert _nodes(got) == _nodes(want)
        assert got.seconds == [0.0] * len(got.guess) and sum(want.seconds) > 0
        totals[exact] = int(got.lengths().sum())
    if not hard:
        assert totals == {True: 914, False: 916}
