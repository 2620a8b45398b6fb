"""Solve-all reports: play every answer from an opener and summarise ("Wordle Solver KT"'s format).

The report has "Wordle Solver KT"'s keys (``totalCount``, ``guessDistribution``,
``averageTime``, ``minTime``, ``maxTime``, ``timeDistribution``, ``maxGuessWords``)
plus ``meanGuesses``, ``maxGuesses`` and ``failures`` (games over the guess limit).

Times: the tree computes each position once, and a game's time is the decision time
summed along its path, i.e. what solving that one game alone would cost a solver
that keeps nothing between games but the opener. Times are in milliseconds; the
time histogram uses "Wordle Solver KT"'s 10 ms bins.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import numpy as np

from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.search.openers import OpenerScores, top_openers
from wordle_core.strategies import get_strategy


def default_opener(lexicon: Lexicon, hard: bool = False, scores: OpenerScores | None = None) -> str:
    """The best first guess by entropy (ties: alphabetical), from the lexicon's words alone.

    Commands and the Python API play :func:`wordle_core.tables.exact.recommended_opener`,
    which prefers the proven best opener where a proven ranking ships. ``hard`` is
    accepted for symmetry (the first guess is free in both modes). ``scores``: the
    lexicon's opener table when the caller has one (else computed).
    """
    return top_openers(lexicon, 1, by="entropy", scores=scores)[0]


def simulate(
    lexicon: Lexicon,
    strategy: str = "default",
    opener: str | None = None,
    hard: bool = False,
    matrix: np.ndarray | None = None,
    tree: Tree | None = None,
    max_guess_words: int = 14,
    **options: object,
) -> tuple[dict[str, Any], Tree]:
    """Play every answer; return (report, tree).

    ``options`` go to the strategy (:func:`~wordle_core.strategies.get_strategy`); an
    ``opener_scores`` table among them also picks the default opener.
    """
    t0 = time.perf_counter()
    if tree is None:
        strat = get_strategy(strategy, **options)
        state = GameState.new(lexicon, hard, matrix)
        strat.prepare(state)
        t0 = time.perf_counter()
        scores = options.get("opener_scores")
        tree = Tree.build(strat, state, opener or default_opener(
            lexicon, hard, scores if isinstance(scores, OpenerScores) else None))
    build_s = time.perf_counter() - t0
    return report_from_tree(tree, build_s, max_guess_words), tree


def report_from_tree(tree: Tree, build_seconds: float = 0.0, max_guess_words: int = 14) -> dict[str, Any]:
    """"Wordle Solver KT"'s solve-all report of a built tree (keys in the module docstring)."""
    lex = tree.lexicon
    answers = tree.answers
    lengths = tree.lengths()
    ms = np.array([tree.path_seconds(int(a)) * 1000.0 for a in answers])
    hist = Counter(int(x) for x in lengths)
    tbins = Counter(int(t // 10) * 10 for t in ms)
    worst = [lex.answers[a] for a in tree.longest_games(max_guess_words)]
    n = len(answers)
    return {
        "lexicon": lex.name,
        "strategy": tree.strategy,
        "opener": lex.guesses[tree.opener],
        "hard": tree.hard,
        "totalCount": n,
        "guessDistribution": {str(k): hist[k] for k in sorted(hist)},
        "averageTime": float(ms.mean()) if n else 0.0,
        "minTime": float(ms.min()) if n else 0.0,
        "maxTime": float(ms.max()) if n else 0.0,
        "timeDistribution": {str(k): tbins[k] for k in sorted(tbins)},
        "maxGuessWords": worst,
        "totalGuesses": int(lengths.sum()),
        "meanGuesses": float(lengths.mean()) if n else 0.0,
        "maxGuesses": int(lengths.max()) if n else 0,
        "failures": int((lengths > lex.max_guesses).sum()),
        "solvedWithinLimit": float((lengths <= lex.max_guesses).mean()) if n else 0.0,
        "buildSeconds": round(build_seconds, 3),
    }
