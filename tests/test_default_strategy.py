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
