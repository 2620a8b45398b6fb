"""review: best guess = the registry strategy's choice, skill/luck formulas vs brute force."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from wordle_core.analysis.review import luck_score, review_game, skill_score
from wordle_core.cli import main
from wordle_core.errors import WordleError
from wordle_core.game.feedback import parse_feedback, score
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.strategies import get_strategy


def _strategy_game(lex, answer: str, strategy: str = "entropy") -> list[tuple[str, str]]:
    """The game the strategy itself plays for ``answer`` from the empty board."""
    strat = get_strategy(strategy)
    st = GameState.new(lex, False, pattern_matrix(lex))
    hist = []
    while not st.solved:
        g = strat.choose(st)
        word = lex.guesses[g]
        hist.append((word, score(word, answer)))
        st = st.play(g, lex.answer_id(answer))
    return hist


def test_best_guess_is_the_strategy_choice_at_every_step(small_lex):
    ans = small_lex.answers[17]
    hist = [(small_lex.guesses[5], score(small_lex.guesses[5], ans)),
            (small_lex.guesses[250], score(small_lex.guesses[250], ans))]
    if hist[-1][1] != "ggggg":
        hist.append((ans, "ggggg"))
    rev = review_game(small_lex, hist, "entropy")
    strat = get_strategy("entropy")
    for i, step in enumerate(rev["steps"]):
        st = GameState.from_history(small_lex, hist[:i])
        assert step["best_guess"] == small_lex.guesses[strat.choose(st)]
        assert step["candidates_before"] == st.n_candidates


def test_playing_the_best_guess_scores_99_everywhere(small_lex):
    for ans in small_lex.answers[::60]:
        hist = _strategy_game(small_lex, ans)
        rev = review_game(small_lex, hist, "entropy")
        assert all(s["skill"] == 99 for s in rev["steps"])
        assert all(s["guess"] == s["best_guess"] for s in rev["steps"])
        # The best strategy from the position before guess t needs exactly the rest of its own game.
        assert [s["best_would_need"] for s in rev["steps"]] == [len(hist) - t for t in range(len(hist))]
        assert rev["solved"] and rev["answer"] == ans


def test_expected_remaining_entropy_and_luck_match_brute_force(small_lex):
    ans = small_lex.answers[101]
    words = [small_lex.guesses[40], small_lex.guesses[400], ans]
    hist = [(w, score(w, ans)) for w in words]
    rev = review_game(small_lex, hist, "entropy")
    cands = list(small_lex.answers)
    for step, (w, fb) in zip(rev["steps"], hist, strict=True):
        buckets = Counter(score(w, c) for c in cands)
        n = len(cands)
        exp = sum(s * s for s in buckets.values()) / n
        ent = -sum(s / n * np.log2(s / n) for s in buckets.values())
        assert step["candidates_before"] == n
        assert step["your_expected_remaining"] == pytest.approx(exp, abs=1e-4)
        assert step["your_entropy"] == pytest.approx(ent, abs=1e-4)
        if fb == "ggggg":  # solving counts as landing in a bucket of size 0
            larger, equal = n - 1, 1
        else:
            larger = sum(1 for c in cands if buckets[score(w, c)] > buckets[fb])
            equal = sum(1 for c in cands if buckets[score(w, c)] == buckets[fb])
        assert step["luck"] == round(99 * (larger + equal / 2) / n)
        cands = [c for c in cands if score(w, c) == fb]
        assert step["candidates_after"] == (0 if fb == "ggggg" else len(cands))


def test_a_useless_guess_scores_zero_skill(wordle):
    # After SALET all gray, SALET again reveals nothing and cannot be the answer.
    rev = review_game(wordle, [("salet", "bbbbb"), ("salet", "bbbbb")], "entropy")
    second = rev["steps"][1]
    assert second["skill"] == 0
    assert second["your_entropy"] == 0.0
    assert second["your_expected_remaining"] == second["candidates_before"]
    assert not rev["solved"] and rev["answer"] is None


def test_skill_and_luck_formulas_bounds():
    assert skill_score(1.0, 2.0, False) == 49
    assert skill_score(3.0, 2.0, False) == 99
    assert skill_score(0.0, 2.0, True) == 99
    sizes = np.array([5, 1, 0, 4])
    assert luck_score(sizes, 1, False) == round(99 * (9 + 0.5) / 10)
    assert luck_score(sizes, 5, False) == round(99 * 2.5 / 10)


def test_review_rejects_guesses_after_a_win_and_bad_histories(wordle):
    with pytest.raises(WordleError):
        review_game(wordle, [("salet", "ggggg"), ("crane", "bbbbb")], "entropy")
    with pytest.raises(WordleError):
        review_game(wordle, [], "entropy")


def test_review_cli_text_json_and_errors(small_lex, tmp_path, capsys):
    ans = small_lex.answers[3]
    hist = _strategy_game(small_lex, ans)
    a = tmp_path / "a.txt"
    g = tmp_path / "g.txt"
    a.write_text("\n".join(small_lex.answers))
    g.write_text("\n".join(small_lex.guesses))
    text = ",".join(f"{w}:{f}" for w, f in hist)
    assert main(["review", "--answers", str(a), "--guesses", str(g), "--strategy", "entropy",
                 "--history", text, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["answer"] == ans and out["skill"] == 99
    assert main(["review", "--answers", str(a), "--guesses", str(g), "--strategy", "entropy",
                 "--history", text]) == 0
    assert f"solved {ans.upper()} in {len(hist)}" in capsys.readouterr().out
    assert main(["review", "--history", "salet:bbxq"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_best_guess_equals_suggest_command(wordle, capsys):
    """``suggest``'s pick equals review's best guess at the same position."""
    first = [("salet", "bybgb")]
    answer = GameState.from_history(wordle, first).candidate_words()[0]
    assert main(["suggest", "--lexicon", "wordle", "--history", "salet:bybgb", "--strategy", "entropy",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    picks = [o["word"] for o in out["options"] if o["is_pick"]]
    assert len(picks) == 1
    rev = review_game(wordle, [*first, (answer, "ggggg")], "entropy")
    assert picks[0] == rev["steps"][1]["best_guess"]


def test_hard_mode_review_uses_legal_best_guesses(wordle, capsys):
    hist = [(w, score(w, "shake")) for w in ("crane", "shale", "shake")]
    rev = review_game(wordle, hist, "entropy", hard=True)
    st = GameState.new(wordle, True)
    for step, (w, fb) in zip(rev["steps"], hist, strict=True):
        assert st.constraints.violation(wordle, wordle.guess_id(step["best_guess"])) is None
        st = st.apply(wordle.guess_id(w), parse_feedback(fb, 5))
    # PILOT after CRANE:bbgbg drops the green A and the green E: illegal in hard mode.
    assert main(["review", "--hard", "--strategy", "entropy", "--history", "crane:bbgbg,pilot:bbbbb"]) == 2
    assert "hard mode" in capsys.readouterr().err
