"""Rules: candidate filtering and the NYT's hard-mode rules (seed 000)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference import reference_score
from wordle_core import score
from wordle_core.engine import GameState
from wordle_core.errors import HardModeViolation, InconsistentHistoryError


def _state(lex, history, hard=False):
    return GameState.from_history(lex, history, hard)


def test_filtering_matches_brute_force(wordle) -> None:
    history = [("salet", "bybbb"), ("crony", "bbbyb")]
    got = _state(wordle, history).candidate_words()
    expect = [a for a in wordle.answers if all(reference_score(g, a) == f for g, f in history)]
    assert got == expect and len(got) > 0


def test_inconsistent_history(wordle) -> None:
    with pytest.raises(InconsistentHistoryError):
        _state(wordle, [("salet", "ggggb"), ("crane", "ggggg")])


def test_green_must_stay(wordle) -> None:
    st_ = _state(wordle, [("heart", "bbbbg")], hard=True)
    with pytest.raises(HardModeViolation, match="5th letter must be T"):
        st_.apply(wordle.guess_id("hears"), 0)


def test_yellow_must_be_reused_but_may_stay(wordle) -> None:
    st_ = _state(wordle, [("heart", "bybbb")], hard=True)
    legal = set(st_.legal_rows.tolist())
    assert wordle.guess_id("hears") in legal  # E stays in place: allowed (seed 000)
    assert wordle.guess_id("could") not in legal
    assert wordle.guess_id("heart") in legal  # gray letters may be reused


def test_two_yellow_es_need_two_es(wordle) -> None:
    # EERIE vs THERE: first E yellow, last E green -> later guesses need two E's.
    fb = score("eerie", "there")
    st_ = _state(wordle, [("eerie", fb)], hard=True)
    words = [wordle.guesses[r] for r in st_.legal_rows]
    assert words and all(w.count("e") >= 2 and w[4] == "e" for w in words)
    assert "there" in words
    with pytest.raises(HardModeViolation, match="E 2 times"):
        st_.apply(wordle.guess_id("spine"), 0)


def test_hard_legal_mask_matches_brute_force(small_lex) -> None:
    hist = [(small_lex.guesses[3], score(small_lex.guesses[3], small_lex.answers[10]))]
    st_ = GameState.from_history(small_lex, hist, hard=True)
    g0, f0 = hist[0]
    need = {}
    for c, f in zip(g0, f0, strict=True):
        if f in "gy":
            need[c] = need.get(c, 0) + 1
    brute = [
        i for i, w in enumerate(small_lex.guesses)
        if all(w[p] == c for p, (c, f) in enumerate(zip(g0, f0, strict=True)) if f == "g")
        and all(w.count(c) >= n for c, n in need.items())
    ]
    assert st_.legal_rows.tolist() == brute


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_answer_always_survives_filtering(small_lex, data) -> None:
    answer = data.draw(st.integers(0, len(small_lex.answers) - 1))
    hard = data.draw(st.booleans())
    state = GameState.new(small_lex, hard)
    for _ in range(data.draw(st.integers(1, 5))):
        rows = state.legal_rows
        guess = int(rows[data.draw(st.integers(0, len(rows) - 1))])
        state = state.play(guess, answer)
        assert answer in state.candidates.tolist()
        assert np.all(np.diff(state.candidates) > 0)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_compiled_hard_filter_agrees_with_python_rule(small_lex, data) -> None:
    """One NYT rule: the compiled kernels (used by the exact and the hard-mode searches)
    allow exactly the guesses the Python rule (``HardConstraints.violation``) allows, on
    random histories; the hard-mode search's ``child`` gives the same rows too."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.rules import HardConstraints, letter_counts
    from wordle_core.kernels.hard import hard_filter
    from wordle_core.search.hard import HardSolver

    lex = small_lex
    codes = np.ascontiguousarray(lex.guess_codes)
    counts = letter_counts(lex)
    solver = HardSolver(lex, pattern_matrix(lex))
    answer = data.draw(st.integers(0, len(lex.answers) - 1))
    state = GameState.new(lex, hard=True)
    chained = np.arange(len(lex.guesses), dtype=np.int32)
    child_rows = chained
    child_cons = HardConstraints()
    for _ in range(data.draw(st.integers(1, 4))):
        rows = state.legal_rows
        g = int(rows[data.draw(st.integers(0, len(rows) - 1))])
        state = state.play(g, answer)
        p = state.history[-1][1]
        cons = state.constraints
        python = [r for r in range(len(lex.guesses)) if cons.violation(lex, r) is None]
        chained = hard_filter(chained, codes, counts, g, p, lex.length, len(lex.alphabet))
        child_cons, child_rows = solver.child(child_cons, child_rows, g, p)
        assert chained.tolist() == python
        assert child_rows.tolist() == python and child_cons == cons
        assert cons.legal_rows(lex).tolist() == python == np.flatnonzero(cons.legal_mask(lex)).tolist()
        assert HardConstraints.from_arrays(*cons.arrays(lex.length, len(lex.alphabet))) == cons
        assert cons == HardConstraints.from_history(codes, state.history)
        # monotonicity, which the search's memo relies on: looser obligations allow more
        before = HardConstraints.from_history(codes, state.history[:-1])
        assert before.looser_or_equal(cons)
        if before.looser_or_equal(cons) and not cons.looser_or_equal(before):
            assert set(python) <= set(before.legal_rows(lex).tolist())
        assert answer in state.candidates.tolist()
        assert lex.answer_rows[answer] in python  # the answer is always a legal guess


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_legal_rows_filtered_from_the_parents_equal_a_fresh_filter(small_lex, data) -> None:
    """A child state filters its parent's legal rows (obligations only tighten): the rows
    are those of the rule applied to every guess, and of the Python rule."""
    answer = data.draw(st.integers(0, len(small_lex.answers) - 1))
    state = GameState.new(small_lex, hard=True)
    for _ in range(data.draw(st.integers(1, 5))):
        rows = state.legal_rows  # computed: the child gets it as legal_within
        state = state.play(int(rows[data.draw(st.integers(0, len(rows) - 1))]), answer)
        assert state.legal_within is not None
        fresh = state.constraints.legal_rows(small_lex)
        assert state.legal_rows.tolist() == fresh.tolist()
        assert fresh.tolist() == np.flatnonzero(state.constraints.legal_mask(small_lex)).tolist()
