"""Wordle Lab's engine and its Python API.

The API takes and returns words (python-chess style)::

    >>> import wordle_core as wl
    >>> wl.score("speed", "abide")
    Feedback('bbyby')
    >>> wl.Position([("salet", "bybgb")]).candidates[:3]  # today's NYT game, nyt2023
    ('abbey', 'ached', 'added')
    >>> wl.Position([("salet", "bybgb")], lexicon="wordle").candidates[:3]  # the 2021 game
    ('abbey', 'agree', 'aider')

See :mod:`wordle_core.api` and the README's "Python API" section. The engine below it
is pure Python + numpy + numba; nothing here imports Beam, so every per-element step
of the pipelines is a plain function that tests can call directly.
"""

from wordle_core.api import (
    Feedback,
    GameRecord,
    GuessScore,
    HardVerdict,
    Optimum,
    Position,
    RankedOpener,
    SimulationResult,
    StrategyInfo,
    Turn,
    best_guesses,
    candidates,
    exact_ranking,
    hard_verdict,
    list_strategies,
    optimal,
    proven_ranking,
    read_table,
    score,
    simulate,
)
from wordle_core.errors import (
    FeedbackError,
    HardModeViolation,
    InconsistentHistoryError,
    UnknownLexiconError,
    UnknownStrategyError,
    UnknownWordError,
    WordleError,
    WrongLengthError,
)
from wordle_core.game.feedback import parse_feedback, pattern_to_emoji, pattern_to_str
from wordle_core.game.lexicon import Lexicon, load_lexicon, resolve_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState

__all__ = [
    "Feedback",
    "FeedbackError",
    "GameRecord",
    "GameState",
    "GuessScore",
    "HardModeViolation",
    "HardVerdict",
    "InconsistentHistoryError",
    "Lexicon",
    "Optimum",
    "Position",
    "RankedOpener",
    "SimulationResult",
    "StrategyInfo",
    "Turn",
    "UnknownLexiconError",
    "UnknownStrategyError",
    "UnknownWordError",
    "WordleError",
    "WrongLengthError",
    "best_guesses",
    "candidates",
    "exact_ranking",
    "hard_verdict",
    "list_strategies",
    "load_lexicon",
    "optimal",
    "parse_feedback",
    "pattern_matrix",
    "pattern_to_emoji",
    "pattern_to_str",
    "proven_ranking",
    "read_table",
    "resolve_lexicon",
    "score",
    "simulate",
]
__version__ = "0.1.0"
