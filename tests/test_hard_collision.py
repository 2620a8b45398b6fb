"""Seed 000's collision breaker: its published numbers reproduced exactly, the bucket
scores checked against a literal port of the article's map-of-sets code, and the
strategies checked to play only legal hard-mode guesses."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from wordle_core.game.feedback import score
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy
from wordle_core.strategies.collision import collision_sets, shard_text, worst_bucket_collisions


def fracture(word: str) -> list[str]:
    """The article's ``String.fracture()``."""
    return [word[:i] + "*" + word[i + 1:] for i in range(len(word))]


def find_collisions(words: list[str], max_size: int) -> dict[str, set[str]]:
    """The article's ``findCollisions`` (sets of at least ``max_size`` words)."""
    m: dict[str, set[str]] = defaultdict(set)
    for w in words:
        for s in fracture(w):
            m[s].add(w)
    return {k: v for k, v in m.items() if len(v) >= max_size}


def article_score(guess: str, words: list[str], max_size: int) -> int:
    """The article's maxCollisionCount for one guess (match map, then worst bucket)."""
    buckets: dict[str, list[str]] = defaultdict(list)
    for w in words:
        buckets[score(guess, w)].append(w)
    return max(sum(len(v) for v in find_collisions(b, max_size).values()) for b in buckets.values())


def test_initial_collision_map_matches_article(wordle: Lexicon) -> None:
    sets = collision_sets(wordle, np.arange(len(wordle.answers)), 6)
    got = {shard_text(wordle, k): len(v) for k, v in sets.items()}
    assert got == {"GRA*E": 6, "*ATTY": 6, "*AUNT": 6, "S*ORE": 6, "*ASTE": 6, "STA*E": 6,
                   "*ILLY": 6, "*OWER": 7, "*ATCH": 7, "SHA*E": 7, "*OUND": 8, "*IGHT": 9}
    assert sum(got.values()) == 80  # "Sum of all collision set sizes: 80"


def test_attempt3_opener_tie_matches_article(wordle: Lexicon) -> None:
    cands = np.arange(len(wordle.answers))
    sets = list(collision_sets(wordle, cands, 5).values())
    rows = np.arange(len(wordle.guesses))
    sc = worst_bucket_collisions(pattern_matrix(wordle), rows, sets, 5, wordle.n_patterns)
    tied = sorted(wordle.guesses[i] for i in rows[sc == sc.min()])
    article = ("CLITS, DERTH, FACTS, FRITH, HAINS, HANDS, HARDS, HARED, NOAHS, RATHS, ROWTH, SHAND, "
               "SOWTH, THANS, THAWY, THEGN, THRID, WROTH, FORTH, TRASH, FROTH, SLOTH, THIRD, WORTH, "
               "SHORT, BRASH, HEARD")
    assert sc.min() == 7  # "The 'best worst' score that it found was 7"
    assert tied == sorted(article.lower().split(", "))


@pytest.mark.slow
def test_attempt4_recommends_clots_and_colts(wordle: Lexicon) -> None:
    cands = np.arange(len(wordle.answers))
    sets = list(collision_sets(wordle, cands, 4).values())
    rows = np.arange(len(wordle.guesses))
    sc = worst_bucket_collisions(pattern_matrix(wordle), rows, sets, 4, wordle.n_patterns)
    assert sorted(wordle.guesses[i] for i in rows[sc == sc.min()]) == ["clots", "colts"]
    root = GameState.new(wordle, hard=True)
    assert wordle.guesses[get_strategy("collision-breaker").choose(root)] == "clots"


@pytest.mark.parametrize("max_size", [2, 3])
def test_scores_match_article_code(small_lex: Lexicon, max_size: int) -> None:
    words = list(small_lex.answers)
    cands = np.arange(len(words))
    sets = list(collision_sets(small_lex, cands, max_size).values())
    assert sets, "small lexicon must have collision sets for the test to mean anything"
    rows = np.arange(0, len(small_lex.guesses), 7)
    fast = worst_bucket_collisions(pattern_matrix(small_lex), rows, sets, max_size, small_lex.n_patterns)
    ref = [article_score(small_lex.guesses[r], words, max_size) for r in rows]
    assert fast.tolist() == ref
    assert len(set(ref)) > 1


@pytest.mark.parametrize("name", ["collision-breaker", "collision-breaker-3", "collision-filter"])
def test_hard_mode_trees_are_legal_and_complete(small_lex: Lexicon, name: str) -> None:
    state = GameState.new(small_lex, hard=True)
    strat = get_strategy(name)
    tree = Tree.build(strat, state, strat.choose(state))  # apply() rejects illegal guesses
    assert len(tree.answers) == len(small_lex.answers)
    assert tree.lengths().max() <= 12


def test_filter_falls_back_when_everything_is_filtered() -> None:
    words = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]
    lex = Lexicon.build("atch", words, words)
    state = GameState.new(lex, hard=True)
    strat = get_strategy("collision-filter")
    # every word fractures into *ATCH (7 words > 6 guesses left): the filter empties
    g = strat.choose(state)
    assert lex.guesses[g] in words
    tree = Tree.build(strat, state, g)
    assert sorted(tree.lengths().tolist()) == list(range(1, 8))  # one word ruled out per guess
