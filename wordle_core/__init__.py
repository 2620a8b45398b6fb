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
of the pipelines is a plain function that tests can call directly. The names below are
imported on first use, so ``import wordle_core`` is instant.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names below, for type checkers; at run time __getattr__ imports them
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

# public name -> the module that defines it, imported on first use (PEP 562), so that
# ``import wordle_core`` (and every ``wordle-lab`` command) starts without numba, the
# compiled kernels or pandas; ``wordle_core.score`` etc. behave exactly as before.
_EXPORTS: dict[str, str] = {
    "Feedback": "wordle_core.api",
    "FeedbackError": "wordle_core.errors",
    "GameRecord": "wordle_core.api",
    "GameState": "wordle_core.game.state",
    "GuessScore": "wordle_core.api",
    "HardModeViolation": "wordle_core.errors",
    "HardVerdict": "wordle_core.api",
    "InconsistentHistoryError": "wordle_core.errors",
    "Lexicon": "wordle_core.game.lexicon",
    "Optimum": "wordle_core.api",
    "Position": "wordle_core.api",
    "RankedOpener": "wordle_core.api",
    "SimulationResult": "wordle_core.api",
    "StrategyInfo": "wordle_core.api",
    "Turn": "wordle_core.api",
    "UnknownLexiconError": "wordle_core.errors",
    "UnknownStrategyError": "wordle_core.errors",
    "UnknownWordError": "wordle_core.errors",
    "WordleError": "wordle_core.errors",
    "WrongLengthError": "wordle_core.errors",
    "best_guesses": "wordle_core.api",
    "candidates": "wordle_core.api",
    "exact_ranking": "wordle_core.api",
    "hard_verdict": "wordle_core.api",
    "list_strategies": "wordle_core.api",
    "load_lexicon": "wordle_core.game.lexicon",
    "optimal": "wordle_core.api",
    "proven_ranking": "wordle_core.api",
    "parse_feedback": "wordle_core.game.feedback",
    "pattern_matrix": "wordle_core.game.matrix",
    "pattern_to_emoji": "wordle_core.game.feedback",
    "pattern_to_str": "wordle_core.game.feedback",
    "read_table": "wordle_core.api",
    "resolve_lexicon": "wordle_core.game.lexicon",
    "score": "wordle_core.api",
    "simulate": "wordle_core.api",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wordle_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


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
