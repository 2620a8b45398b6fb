"""Decision trees: games read off the tree equal games played one by one; serialisation."""

from __future__ import annotations

import json
import subprocess
import sys

from wordle_core.engine import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy


def test_tree_games_equal_played_games(small_lex) -> None:
    strat = get_strategy("entropy")
    tree = Tree.build(strat, GameState.new(small_lex), "crane" if "crane" in small_lex.guess_index
                      else small_lex.guesses[0])
    player = get_strategy("entropy")  # a second instance: its own memo, played game by game
    for a in range(len(small_lex.answers)):
        st = GameState.new(small_lex)
        g = tree.opener
        played = []
        while True:
            st = st.play(g, a)
            played.append(st.history[-1])
            if st.solved:
                break
            g = player.choose(st)
        assert played == tree.path(a)
    assert tree.lengths().sum() == sum(len(tree.path(a)) for a in tree.answers)


def test_json_round_trip(small_lex, tmp_path) -> None:
    tree = Tree.build(get_strategy("minimax"), GameState.new(small_lex), small_lex.guesses[1])
    path = tmp_path / "t.json"
    tree.save_json(path)
    back = Tree.load_json(small_lex, path)
    assert sorted(back.rows()) == sorted(tree.rows())
    assert (back.lengths() == tree.lengths()).all()
    for a in range(0, len(small_lex.answers), 17):
        patterns = [p for _, p in tree.path(a)][:-1]
        assert back.next_guess(patterns[:1]) == tree.next_guess(patterns[:1])


def test_simulate_from_saved_tree(tmp_path) -> None:
    out = tmp_path / "salet.json"
    base = [sys.executable, "-m", "wordle_core", "simulate", "--strategy", "entropy", "--json"]
    first = json.loads(subprocess.run([*base, "--save-tree", str(out)], capture_output=True,
                                      text=True, check=True).stdout)
    again = json.loads(subprocess.run([*base, "--tree", str(out)], capture_output=True,
                                      text=True, check=True).stdout)
    assert again["guessDistribution"] == first["guessDistribution"]
    assert again["totalGuesses"] == first["totalGuesses"]
    assert not list(tmp_path.glob("*.tmp"))


def test_longest_games_order(small_lex) -> None:
    """Longest first, ties alphabetical: the same order as sorting every game by hand."""
    tree = Tree.build(get_strategy("minimax"), GameState.new(small_lex), small_lex.guesses[0])
    by_hand = sorted(tree.answers.tolist(), key=lambda a: (-len(tree.path(a)), small_lex.answers[a]))
    assert tree.longest_games(len(by_hand)) == by_hand
    assert tree.longest_games(3) == by_hand[:3]
