"""Wordle Lab's engine: exact feedback, pattern matrix, rules, strategies, trees.

Pure Python + numpy; nothing here imports Beam, so every per-element step of the
pipelines is a plain function that tests can call directly.
"""

from wordle_core.game.feedback import parse_feedback, pattern_to_emoji, pattern_to_str, score
from wordle_core.game.lexicon import Lexicon, load_lexicon, resolve_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState

__all__ = [
    "GameState",
    "Lexicon",
    "load_lexicon",
    "parse_feedback",
    "pattern_matrix",
    "pattern_to_emoji",
    "pattern_to_str",
    "resolve_lexicon",
    "score",
]
__version__ = "0.1.0"
