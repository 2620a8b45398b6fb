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
directly. The names below are imported on first use, so ``import wordle_core`` is instant.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names below, for type checkers; at run time __getattr__ imports them
    from wordle_core.analysis.evil import EvilSolution
    from wordle_core.analysis.review import ReviewStep
    from wordle_core.api import (
        BoardStatus,
        Feedback,
        GameRecord,
        GuessScore,
        HardVerdict,
        LexiconInfo,
        MultiAdvice,
        MultiGameRecord,
        MultiPosition,
        MultiSimulation,
        Optimum,
        Position,
        PriorEffect,
        PriorRun,
        ProvenBest,
        RankedOpener,
        RankingProof,
        Review,
        SimulationResult,
        StrategyInfo,
        Suggestion,
        TableTree,
        Turn,
        assist_session,
        best_guesses,
        best_opener,
        candidates,
        decision_tree,
        default_opener,
        evil_solve,
        exact_ranking,
        export_tree,
        hard_verdict,
        history_pairs,
        lexicons,
        list_strategies,
        load_tree,
        multi_simulate,
        multi_solve,
        optimal,
        optimal_openers,
        play_session,
        prior_effect,
        proven_ranking,
        ranking_proof,
        read_table,
        review,
        score,
        simulate,
        solve,
        suggest,
        top_openers,
        tree_from_table,
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

# public name -> the module that defines it, imported on first use (PEP 562), so that
# ``import wordle_core`` (and every ``wordle-lab`` command) starts without numba, the
# compiled kernels or pandas; ``wordle_core.score`` etc. behave exactly as before.
_EXPORTS: dict[str, str] = {
    "EvilSolution": "wordle_core.analysis.evil",  # what evil_solve returns
    "ReviewStep": "wordle_core.analysis.review",  # one step of a Review
    "BoardStatus": "wordle_core.api",
    "Feedback": "wordle_core.api",
    "FeedbackError": "wordle_core.errors",
    "GameRecord": "wordle_core.api",
    "GuessScore": "wordle_core.api",
    "HardModeViolation": "wordle_core.errors",
    "HardVerdict": "wordle_core.api",
    "InconsistentHistoryError": "wordle_core.errors",
    "Lexicon": "wordle_core.game.lexicon",
    "LexiconInfo": "wordle_core.api",
    "MultiAdvice": "wordle_core.api",
    "MultiGameRecord": "wordle_core.api",
    "MultiPosition": "wordle_core.api",
    "MultiSimulation": "wordle_core.api",
    "Optimum": "wordle_core.api",
    "Position": "wordle_core.api",
    "PriorEffect": "wordle_core.api",
    "PriorRun": "wordle_core.api",
    "ProvenBest": "wordle_core.api",
    "RankedOpener": "wordle_core.api",
    "RankingProof": "wordle_core.api",
    "Review": "wordle_core.api",
    "SimulationResult": "wordle_core.api",
    "StrategyInfo": "wordle_core.api",
    "Suggestion": "wordle_core.api",
    "TableTree": "wordle_core.api",
    "Turn": "wordle_core.api",
    "UnknownLexiconError": "wordle_core.errors",
    "UnknownStrategyError": "wordle_core.errors",
    "UnknownWordError": "wordle_core.errors",
    "WordleError": "wordle_core.errors",
    "WrongLengthError": "wordle_core.errors",
    "assist_session": "wordle_core.api",
    "best_guesses": "wordle_core.api",
    "best_opener": "wordle_core.api",
    "candidates": "wordle_core.api",
    "decision_tree": "wordle_core.api",
    "default_opener": "wordle_core.api",
    "evil_solve": "wordle_core.api",
    "exact_ranking": "wordle_core.api",
    "export_tree": "wordle_core.api",
    "hard_verdict": "wordle_core.api",
    "history_pairs": "wordle_core.api",
    "lexicons": "wordle_core.api",
    "list_strategies": "wordle_core.api",
    "load_lexicon": "wordle_core.game.lexicon",
    "load_tree": "wordle_core.api",
    "multi_simulate": "wordle_core.api",
    "multi_solve": "wordle_core.api",
    "optimal": "wordle_core.api",
    "optimal_openers": "wordle_core.api",
    "play_session": "wordle_core.api",
    "prior_effect": "wordle_core.api",
    "proven_ranking": "wordle_core.api",
    "ranking_proof": "wordle_core.api",
    "read_table": "wordle_core.api",
    "review": "wordle_core.api",
    "score": "wordle_core.api",
    "simulate": "wordle_core.api",
    "solve": "wordle_core.api",
    "suggest": "wordle_core.api",
    "top_openers": "wordle_core.api",
    "tree_from_table": "wordle_core.api",
}


# the engine-level names that lived here before :mod:`wordle_core.engine` held them
_ENGINE_NAMES = {"GameState", "parse_feedback", "pattern_matrix", "pattern_to_emoji", "pattern_to_str",
                 "resolve_lexicon"}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # the next lookup is a plain attribute
        return value
    if name in _ENGINE_NAMES:
        import warnings

        from wordle_core import engine

        warnings.warn(f"wordle_core.{name} moved to wordle_core.engine.{name}", DeprecationWarning,
                      stacklevel=2)
        return getattr(engine, name)
    raise AttributeError(f"module 'wordle_core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "BoardStatus",
    "EvilSolution",
    "Feedback",
    "FeedbackError",
    "GameRecord",
    "GuessScore",
    "HardModeViolation",
    "HardVerdict",
    "InconsistentHistoryError",
    "Lexicon",
    "LexiconInfo",
    "MultiAdvice",
    "MultiGameRecord",
    "MultiPosition",
    "MultiSimulation",
    "Optimum",
    "Position",
    "PriorEffect",
    "PriorRun",
    "ProvenBest",
    "RankedOpener",
    "RankingProof",
    "Review",
    "ReviewStep",
    "SimulationResult",
    "StrategyInfo",
    "Suggestion",
    "TableTree",
    "Turn",
    "UnknownLexiconError",
    "UnknownStrategyError",
    "UnknownWordError",
    "WordleError",
    "WrongLengthError",
    "assist_session",
    "best_guesses",
    "best_opener",
    "candidates",
    "decision_tree",
    "default_opener",
    "evil_solve",
    "exact_ranking",
    "export_tree",
    "hard_verdict",
    "history_pairs",
    "lexicons",
    "list_strategies",
    "load_lexicon",
    "load_tree",
    "multi_simulate",
    "multi_solve",
    "optimal",
    "optimal_openers",
    "play_session",
    "prior_effect",
    "proven_ranking",
    "ranking_proof",
    "read_table",
    "review",
    "score",
    "simulate",
    "solve",
    "suggest",
    "top_openers",
    "tree_from_table",
]
__version__ = "0.1.0"
