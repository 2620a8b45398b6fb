"""Multi-board play: rules, the summed-entropy choice vs a second kernel, seeded simulation."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.reference_buckets import bucket_stats_numpy
from wordle_core.analysis.multiboard import (
    MultiEntropy,
    MultiState,
    default_limit,
    parse_multi_history,
    play_game,
    replay,
    seeded_answer_sets,
    simulate_multi,
)
from wordle_core.cli import main
from wordle_core.errors import WordleError
from wordle_core.game.feedback import score
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy


def test_one_board_plays_exactly_the_entropy_tree(small_lex):
    """N = 1 must reduce to the single-board entropy strategy (another kernel, same rule)."""
    mat = pattern_matrix(small_lex)
    opener = small_lex.guesses[get_strategy("entropy").choose(GameState.new(small_lex, False, mat))]
    tree = Tree.build(get_strategy("entropy"), GameState.new(small_lex, False, mat), opener)
    strat = MultiEntropy()
    lengths = tree.lengths()
    for i, a in enumerate(tree.answers):
        game = play_game(strat, small_lex, [int(a)], opener, mat)
        assert [g for g, _ in tree.path(int(a))] == game.guesses
        assert game.length == lengths[i]


def test_choice_maximises_summed_entropy_by_brute_force(small_lex):
    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(3)
    strat = MultiEntropy()
    for _ in range(5):
        answers = [int(x) for x in rng.choice(len(small_lex.answers), 3, replace=False)]
        st = MultiState.new(small_lex, 3, mat).play(small_lex.guess_id(small_lex.guesses[7]), answers)
        if any(c.shape[0] == 1 for c in st.candidates):
            continue
        total = np.zeros(len(small_lex.guesses))
        for c in st.candidates:
            s = bucket_stats_numpy(mat, None, c, small_lex.n_patterns)
            total += s.entropy
            total[small_lex.answer_rows[c]] += 1.0 / c.shape[0]
        g = strat.choose(st)
        assert total[g] == pytest.approx(total.max(), abs=1e-9)


def test_a_board_down_to_one_candidate_is_finished_first(small_lex):
    mat = pattern_matrix(small_lex)
    full = np.arange(len(small_lex.answers), dtype=np.int32)
    one = lambda a: np.array([a], dtype=np.int32)
    st = MultiState(small_lex, mat, (full, one(1), full, full), (False,) * 4)
    assert MultiEntropy().choose(st) == int(small_lex.answer_rows[1])
    # Two boards known: the first in board order is finished first.
    st = MultiState(small_lex, mat, (full, one(9), full, one(4)), (False,) * 4)
    assert MultiEntropy().choose(st) == int(small_lex.answer_rows[9])
    # A solved board with one candidate left is not played again.
    st = MultiState(small_lex, mat, (one(2), full, full, full), (True, False, False, False))
    assert MultiEntropy().choose(st) != int(small_lex.answer_rows[2])


def test_games_are_consistent_and_end_when_every_board_is_solved(small_lex):
    mat = pattern_matrix(small_lex)
    sets = seeded_answer_sets(small_lex, 4, 20, seed=5)
    strat = MultiEntropy()
    for answers in sets:
        game = play_game(strat, small_lex, [int(a) for a in answers], None, mat)
        rows = [int(small_lex.answer_rows[a]) for a in answers]
        for b, r in enumerate(rows):
            t = game.solved_turn[b]
            assert game.guesses[t - 1] == r  # a board is solved by guessing its answer
            assert r not in game.guesses[: t - 1]
        assert game.length == len(game.guesses) == max(game.solved_turn)
        assert len(set(game.guesses)) == len(game.guesses)  # never the same guess twice


def test_seeded_answer_sets_are_reproducible_and_distinct(wordle):
    a = seeded_answer_sets(wordle, 8, 50, seed=1)
    b = seeded_answer_sets(wordle, 8, 50, seed=1)
    c = seeded_answer_sets(wordle, 8, 50, seed=2)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert all(len(set(row)) == 8 for row in a.tolist())
    with pytest.raises(WordleError):
        seeded_answer_sets(wordle, 3000, 1, 0)


def test_simulate_multi_is_deterministic_and_counts_failures(small_lex):
    r1 = simulate_multi(small_lex, 4, games=30, seed=9, opener=None)
    r2 = simulate_multi(small_lex, 4, games=30, seed=9, opener=None)
    for k in ("mean_guesses", "guess_distribution", "failures", "worst_game"):
        assert r1[k] == r2[k]
    dist = {int(k): v for k, v in r1["guess_distribution"].items()}
    assert sum(dist.values()) == 30
    assert r1["failures"] == sum(v for k, v in dist.items() if k > default_limit(4))
    assert r1["mean_guesses"] == pytest.approx(sum(k * v for k, v in dist.items()) / 30)
    assert min(dist) >= 4  # four different answers need four guesses at least
    tight = simulate_multi(small_lex, 4, games=30, seed=9, opener=None, limit=min(dist))
    assert tight["failures"] == 30 - dist[min(dist)]


def test_history_parsing_replay_and_assist(wordle, capsys):
    ans = ["crane", "pilot"]
    text = ",".join(f"{w}:{score(w, ans[0])}/{score(w, ans[1])}" for w in ("salet", "crane"))
    text += f",pilot:-/{score('pilot', ans[1])}"
    hist = parse_multi_history(text, wordle, 2)
    st = replay(wordle, 2, hist)
    assert st.done
    with pytest.raises(WordleError):
        parse_multi_history("salet:bbbbb", wordle, 2)
    half = ",".join(f"{w}:{score(w, ans[0])}/{score(w, ans[1])}" for w in ("salet", "crane"))
    assert main(["multi-assist", "--lexicon", "wordle", "--boards", "2", "--history", half, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["boards"][0]["solved"] is True
    expected = MultiEntropy().choose(replay(wordle, 2, parse_multi_history(half, wordle, 2)))
    assert out["next"] == wordle.guesses[expected]
    assert main(["multi-assist", "--boards", "2", "--history", "salet:bbbbb/bbbqq"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_multi_solve_and_simulate_cli(wordle, capsys):
    assert main(["multi-solve", "crane", "pilot", "rebus", "humor", "--lexicon", "wordle", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["answers"] == ["crane", "pilot", "rebus", "humor"]
    assert out["steps"][0]["guess"] == "salet"
    assert sorted(out["solved_at"])[-1] == out["guesses"]
    assert main(["multi-simulate", "--lexicon", "wordle", "--boards", "2", "--games", "5", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["games"] == 5 and rep["limit"] == 7
    assert main(["multi-solve", "crane", "--boards", "2"]) == 2


def test_boards_hook_for_the_single_board_commands(capsys):
    """What the lead wires into solve/simulate/assist: add_boards_arg + run_boards."""
    import argparse

    from wordle_core.cli.commands.analyses import add_boards_arg, run_boards
    from wordle_core.cli.common import add_hard_arg, add_json_arg, add_lexicon_args

    p = argparse.ArgumentParser()
    p.add_argument("--opener")
    p.add_argument("answer", nargs="?")
    add_lexicon_args(p)
    add_hard_arg(p)
    add_json_arg(p)
    add_boards_arg(p)
    assert run_boards("simulate", p.parse_args(["--boards", "2", "--games", "3", "--json"])) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["boards"] == 2 and rep["games"] == 3 and rep["opener"] == "salet"
    assert run_boards("solve", p.parse_args(["crane,pilot", "--boards", "2", "--json"])) == 0
    assert json.loads(capsys.readouterr().out)["answers"] == ["crane", "pilot"]
    with pytest.raises(WordleError):
        run_boards("simulate", p.parse_args(["--boards", "2", "--hard"]))


def test_interactive_multi_assist_plays_a_whole_game(wordle, monkeypatch, capsys):
    """Type the colours the real game shows; the loop follows until every board is solved."""
    import io

    answers = ["crane", "pilot"]
    mat = pattern_matrix(wordle)
    ids = [wordle.answer_id(a) for a in answers]
    game = play_game(MultiEntropy(), wordle, ids, "salet", mat)
    lines = []
    for t, g in enumerate(game.guesses, 1):
        fbs = [score(wordle.guesses[g], a) for b, a in enumerate(answers)
               if not (game.solved_turn[b] and game.solved_turn[b] < t)]
        # First turn: feedbacks only (for the suggested word); later: the word too.
        lines.append(" ".join(fbs) if t == 1 else " ".join([wordle.guesses[g], *fbs]))
    lines.insert(1, "salet qqqqq qqqqq")  # a typo is reported and asked again, not fatal
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["multi-assist", "--lexicon", "wordle", "--boards", "2", "-i"]) == 0
    out, err = capsys.readouterr()
    assert "all boards solved" in out
    suggested = [line.split(": ")[1].lower() for line in out.splitlines() if line.startswith("next guess")]
    expected = [wordle.guesses[g] for g in game.guesses]
    expected.insert(1, expected[1])  # after the typo the same suggestion is shown again
    assert suggested == expected
    assert err.count("error") == 1
