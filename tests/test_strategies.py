"""Strategies: legal, deterministic, solve everything, and score as an independent brute force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference import reference_buckets, reference_entropy
from tests.reference_buckets import bucket_stats_numpy
from wordle_core.engine import GameState
from wordle_core.errors import UnknownStrategyError
from wordle_core.game.tree import Tree
from wordle_core.kernels.buckets import bucket_stats
from wordle_core.strategies import get_strategy, list_strategies
from wordle_core.strategies.eliminated import SCORED_ABOVE, SIMPLE_ABOVE, Balanced
from wordle_core.strategies.letters import letter_split_scores

ALL = [s["name"] for s in list_strategies()]
FAST = [n for n in ALL if n not in ("default",)]


def test_registry_lists_the_seed_strategies() -> None:
    expected = {"entropy", "expected-size", "minimax", "partitions", "letter-split", "simple",
                "test-all-scored", "test-all-full", "balanced", "random", "worst"}
    assert expected <= set(ALL)
    with pytest.raises(UnknownStrategyError):
        get_strategy("oracle")


def test_catalogue_is_the_registry() -> None:
    """The static list ``wordle-lab strategies`` prints (no strategy imported) is what the
    registry describes, entry by entry: a strategy added or re-described must be listed."""
    from wordle_core.api.strategy_catalogue import list_strategies as catalogue

    assert [s.to_dict() for s in catalogue()] == list_strategies()


def test_kernels_match_brute_force(small_lex) -> None:
    """Compiled and numpy kernels, on a small set (sort path) and the full set (bincount)."""
    state = GameState.new(small_lex)
    rows = np.arange(0, len(small_lex.guesses), 37)
    for cset in (np.arange(5, 45), np.arange(len(small_lex.answers))):
        words = [small_lex.answers[i] for i in cset]
        for kernel in (bucket_stats, bucket_stats_numpy):
            check_kernel(kernel(state.matrix, rows, cset, 243), rows, words, small_lex)


def check_kernel(stats, rows, words, small_lex) -> None:
    for k, r in enumerate(rows):
        b = reference_buckets(small_lex.guesses[r], words)
        assert stats.buckets[k] == len(b)
        assert stats.largest[k] == max(b.values())
        assert stats.sum_sq[k] == sum(v * v for v in b.values())
        assert stats.entropy[k] == pytest.approx(reference_entropy(small_lex.guesses[r], words))


@pytest.mark.parametrize("name", ["entropy", "expected-size", "minimax", "partitions"])
def test_greedy_choice_is_optimal_for_its_measure(small_lex, name) -> None:
    """The chosen guess scores best under a brute-force evaluation of the same measure."""
    state = GameState.new(small_lex).play(small_lex.guess_id(small_lex.answers[5]), 100)
    words = state.candidate_words()
    pick = get_strategy(name).choose(state)

    def measure(g: str) -> float:
        b = list(reference_buckets(g, words).values())
        n = len(words)
        return {"entropy": reference_entropy(g, words) + (g in words) / n,
                "expected-size": -sum(v * v for v in b) / n,
                "minimax": -max(b), "partitions": len(b)}[name]

    best = max(measure(g) for g in small_lex.guesses)
    assert measure(small_lex.guesses[pick]) == pytest.approx(best)


@pytest.mark.parametrize("name", FAST)
@pytest.mark.parametrize("hard", [False, True])
def test_every_strategy_solves_every_answer_legally(small_lex, name, hard) -> None:
    state = GameState.new(small_lex, hard)
    tree = Tree.build(get_strategy(name), state, small_lex.guesses[0])
    assert len(tree.answers) == len(small_lex.answers)
    for a in range(0, len(small_lex.answers), 13):
        st_ = GameState.new(small_lex, hard)
        path = tree.path(a)
        for g, pat in path:
            assert g in st_.legal_rows  # hard mode: every guess legal when played
            st_ = st_.apply(g, pat)
        assert small_lex.guesses[path[-1][0]] == small_lex.answers[a]
    again = Tree.build(get_strategy(name), GameState.new(small_lex, hard), small_lex.guesses[0])
    assert again.guess == tree.guess  # deterministic (random is seeded per position)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_hard_mode_guesses_are_always_legal(small_lex, data) -> None:
    name = data.draw(st.sampled_from(FAST))
    answer = data.draw(st.integers(0, len(small_lex.answers) - 1))
    strat = get_strategy(name)
    state = GameState.new(small_lex, hard=True)
    state = state.play(int(data.draw(st.integers(0, len(small_lex.guesses) - 1))), answer)
    while not state.solved and state.turn < 15:
        g = strat.choose(state)
        assert state.constraints.violation(small_lex, g) is None
        state = state.play(g, answer)
    assert state.solved


def test_letter_split_scores_match_seed_001_by_hand(wordle) -> None:
    state = GameState.from_history(wordle, [("salet", "bbbgg"), ("crony", "bbbbb")])
    words = state.candidate_words()
    scores = letter_split_scores(state)
    open_pos = [0, 1, 2]
    n = len(words)
    frac = {c: sum(c in {w[p] for p in open_pos} for w in words) / n for c in "abcdefghijklmnopqrstuvwxyz"}
    for w, s in zip(words, scores, strict=True):
        seen, total = set(), 0.0
        for p in open_pos:
            if w[p] not in seen:
                total += 1 - abs(2 * frac[w[p]] - 1)
                seen.add(w[p])
        assert s == pytest.approx(total)


def test_balanced_thresholds(wordle, monkeypatch) -> None:
    calls = []
    for kind in ("simple", "scored", "full"):
        monkeypatch.setattr(Balanced, kind, staticmethod(lambda s, k=kind: calls.append(k) or 0))
    b = Balanced(variety=False)
    b.pick(GameState.new(wordle))  # 2,315 > 269
    b.pick(GameState.from_history(wordle, [("salet", "bbbbb")]))  # 65 available
    b.pick(GameState.from_history(wordle, [("salet", "bbbbb"), ("crony", "bbbbb")]))
    sizes = [GameState.from_history(wordle, h).n_candidates for h in
             ([("salet", "bbbbb")], [("salet", "bbbbb"), ("crony", "bbbbb")])]
    assert sizes[0] > SCORED_ABOVE and sizes[0] <= SIMPLE_ABOVE and sizes[1] <= SCORED_ABOVE
    assert calls == ["simple", "scored", "full"]


@pytest.mark.parametrize("name", ["entropy", "minimax", "simple"])
def test_cache_contract_bounded_resettable_and_choice_neutral(small_lex, name) -> None:
    """memo_size() counts, reset() empties, memo_limit bounds; none of it changes a tree."""
    from wordle_core.errors import WordleError
    from wordle_core.strategies import get_strategy

    opener = small_lex.guesses[5]
    free = get_strategy(name)
    want = Tree.build(free, GameState.new(small_lex), opener).rows()
    assert free.memo_size() > 10
    tight = get_strategy(name, memo_limit=3)
    assert Tree.build(tight, GameState.new(small_lex), opener).rows() == want
    assert 0 < tight.memo_size() <= 3
    free.reset()
    assert free.memo_size() == 0
    assert Tree.build(free, GameState.new(small_lex), opener).rows() == want
    with pytest.raises(WordleError, match="memo_limit"):
        get_strategy(name, memo_limit=0)
