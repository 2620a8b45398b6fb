"""``hard-safe`` wins every hard-mode game from an opener the exact search calls feasible,
and cannot do so from one it proves infeasible (a consistency check of both)."""

from __future__ import annotations

import pytest

from wordle_core.analysis.simulate import simulate
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.search.hard import FEASIBLE, INFEASIBLE, hard_verdict


def test_wins_exactly_from_feasible_openers(small_lex: Lexicon) -> None:
    lex = Lexicon.build("small4", small_lex.answers, small_lex.guesses, max_guesses=4)
    mat = pattern_matrix(lex)
    seen = set()
    for row in range(0, len(lex.guesses), 41):
        verdict = hard_verdict(lex, row, mat)["verdict"]
        report, _ = simulate(lex, "hard-safe", lex.guesses[row], hard=True, matrix=mat)
        # feasible <=> the strategy (which plays only proved-safe guesses) loses nothing
        assert (report["failures"] == 0) == (verdict == FEASIBLE), lex.guesses[row]
        seen.add(verdict)
    assert seen == {FEASIBLE, INFEASIBLE}


@pytest.mark.slow
def test_salet_wins_all_wordle_games_in_hard_mode() -> None:
    lex = load_lexicon("wordle")
    report, _ = simulate(lex, "hard-safe", "salet", hard=True)
    assert report["totalCount"] == 2315 and report["failures"] == 0 and report["maxGuesses"] == 6
    # plain entropy from SALET loses 5 hard-mode games at mean 3.5214; safety costs ~nothing
    assert report["meanGuesses"] < 3.53
