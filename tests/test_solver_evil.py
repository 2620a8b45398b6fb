"""The evil host never lies and keeps the most words; evil-solve is optimal (brute force)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from wordle_core.analysis.evil import EvilHost, evil_reply, evil_solve
from wordle_core.errors import HardModeViolation
from wordle_core.game.feedback import digits_to_int, pattern_to_str, score, score_digits
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix


def _reference_reply(guess: str, words: list[str]) -> tuple[int, list[str]]:
    """Host rule from scratch: group by scored feedback, largest group, lowest code on ties."""
    groups: dict[int, list[str]] = {}
    for w in words:
        groups.setdefault(digits_to_int(score_digits(guess, w)), []).append(w)
    best = min(groups, key=lambda code: (-len(groups[code]), code))
    return best, groups[best]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hst.data())
def test_host_never_contradicts_itself(small_lex, data):
    mat = pattern_matrix(small_lex)
    hard = data.draw(hst.booleans())
    host = EvilHost.new(small_lex, hard, mat)
    said: list[tuple[str, str]] = []
    words = list(small_lex.answers)
    for _ in range(data.draw(hst.integers(1, 7))):
        legal = host.state.legal_rows
        row = int(legal[data.draw(hst.integers(0, len(legal) - 1))])
        guess = small_lex.guesses[row]
        ref_code, ref_words = _reference_reply(guess, words)
        pat = host.guess(row)
        assert pat == ref_code  # the documented rule, recomputed from the scoring function
        said.append((guess, pattern_to_str(pat, 5)))
        words = ref_words
        # some word fits every reply so far, and the host's words are exactly those
        fits = [a for a in small_lex.answers if all(score(g, a) == fb for g, fb in said)]
        assert fits and fits == host.state.candidate_words()
        if host.solved:
            assert fits == [guess]
            break


def test_host_says_solved_only_for_its_last_word(small_lex):
    mat = pattern_matrix(small_lex)
    cands = np.arange(len(small_lex.answers))
    green = 3**5 - 1
    for a in range(0, 50):
        assert evil_reply(mat, cands, int(small_lex.answer_rows[a]), 243) != green
    one = np.array([7])
    assert evil_reply(mat, one, int(small_lex.answer_rows[7]), 243) == green


def test_host_enforces_hard_mode(small_lex):
    host = EvilHost.new(small_lex, True, pattern_matrix(small_lex))
    row = next(r for r in range(len(small_lex.guesses)) if host.reply_to(r) != 0)
    host.guess(row)
    bad = next(r for r in range(len(small_lex.guesses))
               if host.state.constraints.violation(small_lex, r) is not None)
    with pytest.raises(HardModeViolation):
        host.guess(bad)


def _brute_force_evil(lex: Lexicon, hard: bool = False, limit: int = 8) -> int | None:
    """Shortest win by breadth-first search over every guess sequence (no pruning)."""
    from wordle_core.game.state import GameState

    frontier = [GameState.new(lex, hard, pattern_matrix(lex))]
    for depth in range(1, limit + 1):
        nxt, seen = [], set()
        for st in frontier:
            for g in st.legal_rows:
                pat = evil_reply(st.matrix, st.candidates, int(g), lex.n_patterns)
                child = st.apply(int(g), pat)
                if child.solved:
                    return depth
                if child.key() not in seen:
                    seen.add(child.key())
                    nxt.append(child)
        frontier = nxt
    return None


def _family(wordle: Lexicon, pattern: str, n_extra: int) -> Lexicon:
    """Answers sharing most letters (the host's best weapon) plus a few outside guesses."""
    answers = [w for w in wordle.answers if re.fullmatch(pattern, w)]
    extra = [w for w in wordle.guesses[::997] if w not in answers][:n_extra]
    return Lexicon.build(f"family-{pattern}-{n_extra}", answers, answers + extra)


@pytest.mark.parametrize("pattern, n_extra, hard, expected", [
    (".ight", 6, False, 6), (".ound", 0, False, 8), (".ound", 6, True, 5),
    ("..ill", 0, False, 4), ("s..e.", 6, True, 4), (".ight", 0, True, 9),
])
def test_evil_solve_is_optimal_on_tiny_lexicons(wordle, pattern, n_extra, hard, expected):
    lex = _family(wordle, pattern, n_extra)
    res = evil_solve(lex, hard, pattern_matrix(lex))
    assert res.length == _brute_force_evil(lex, hard, limit=10) == expected
    assert res.proven_lower_bound == res.length
    # replay the reported sequence against a fresh host: it must end all-green
    host = EvilHost.new(lex, hard, pattern_matrix(lex))
    replies = [pattern_to_str(host.guess(lex.guess_index[g]), lex.length) for g in res.guesses]
    assert replies == res.replies and replies[-1] == "ggggg"


@pytest.mark.slow
def test_evil_solve_wordle_is_four(wordle):
    """Published best against this kind of host on the original lists: 4 guesses."""
    res = evil_solve(wordle, False, pattern_matrix(wordle))
    assert res.length == 4 and res.proven_lower_bound == 4
    assert res.depths[0]["result"].startswith("impossible")
    assert res.replies[-1] == "ggggg"
