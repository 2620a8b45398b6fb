"""Wordle Lab's engine and its Python API.

The API takes and returns words (python-chess style)::

    >>> import wordle_core as wl
    >>> wl.score("speed", "abide")
    Feedback('bbyby')
    >>> wl.Position([("salet", "bybgb")]).candidates[:3]  # today's NYT game, nyt2023
    ('abbey', 'ached', 'added')
    >>> wl.Position([("salet", "bybgb")], lexicon="wordle").candidates[:3]  # the 2021 game
    ('abbey', 'agree', 'aider')

See :mod:`wordle_core.api` and the README's "Python API" section; the engine's own
names (states, pattern codes, matrices, strategies) are in :mod:`wordle_core.engine`,
for advanced use. The engine is pure Python + numpy + numba; nothing here imports Beam,
so every per-element step of the pipelines is a plain function that tests can call
directly.
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
from wordle_core.game.lexicon import Lexicon, load_lexicon

__all__ = [
    "Feedback",
    "FeedbackError",
    "GameRecord",
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
    "proven_ranking",
    "read_table",
    "score",
    "simulate",
]
__version__ = "0.1.0"

_ENGINE_NAMES = {"GameState", "parse_feedback", "pattern_matrix", "pattern_to_emoji", "pattern_to_str",
                 "resolve_lexicon"}


def __getattr__(name: str) -> object:
    """The engine-level names that lived here before :mod:`wordle_core.engine` held them."""
    if name in _ENGINE_NAMES:
        import warnings

        from wordle_core import engine

        warnings.warn(f"wordle_core.{name} moved to wordle_core.engine.{name}", DeprecationWarning,
                      stacklevel=2)
        return getattr(engine, name)
    raise AttributeError(f"module 'wordle_core' has no attribute {name!r}")
