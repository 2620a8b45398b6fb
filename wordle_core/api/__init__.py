"""The public Python API: words in, typed results out (re-exported by :mod:`wordle_core`).

Every ``wordle-lab`` command calls these functions and prints their results (``--json``:
their ``to_dict()``).

* the games: :func:`lexicons` -> :class:`LexiconInfo`;
* :func:`score` -> :class:`Feedback` (``str()``, ``.emoji``, ``int()``);
* :class:`Position` from a history, its ``candidates``, ``legal_guesses``, ``play``;
  :func:`candidates`;
* next guesses: :func:`suggest` -> :class:`Suggestion`, :func:`best_guesses` -> list of
  :class:`GuessScore`, under a named strategy (:func:`list_strategies` ->
  :class:`StrategyInfo`);
* one game: :func:`solve` -> :class:`GameRecord`, :func:`review` -> :class:`Review`,
  :func:`evil_solve` -> ``EvilSolution``, :func:`prior_effect` -> :class:`PriorEffect`;
* every game of an opener: :func:`simulate` -> :class:`SimulationResult`; decision trees:
  :func:`decision_tree`, :func:`load_tree`, :func:`tree_from_table`, :func:`export_tree`;
* proofs: :func:`optimal` / :func:`optimal_openers` -> :class:`Optimum`,
  :func:`best_opener` -> :class:`ProvenBest`, :func:`hard_verdict` -> :class:`HardVerdict`;
  :func:`top_openers` by a one-guess measure;
* :func:`proven_ranking` / :func:`exact_ranking` -> lists of :class:`RankedOpener`, from
  the tables shipped with the package, and :func:`ranking_proof` -> :class:`RankingProof`;
* several boards: :func:`multi_solve` -> :class:`MultiGameRecord`, :func:`multi_simulate`
  -> :class:`MultiSimulation`, :class:`MultiPosition` -> :class:`MultiAdvice`;
* interactive sessions (lines in, ``Out`` items out): :func:`assist_session`,
  :func:`play_session`;
* :func:`read_table` -> a pandas DataFrame of a pipeline run's table (the one
  implementation, :func:`wordle_core.tables.frames.read_table`, re-exported).

This layer sits on top of the engine (``game/``, ``strategies/``, ``analysis/``,
``search/``, ``tables/``, ``interactive/``) and below the CLI; it converts between
words and the engine's row indices and never re-implements a rule. The engine's own
names (states, pattern codes, trees, strategies) are in :mod:`wordle_core.engine`.

Each name is imported from its module on first use (PEP 562), so ``from wordle_core import
api`` costs nothing until a function is called: every ``wordle-lab`` command imports this
package, and ``score`` or ``candidates`` load only what they use.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names below, for type checkers; at run time __getattr__ imports them
    from wordle_core.api.analysis import (
        GameRecord,
        HardVerdict,
        Optimum,
        ProvenBest,
        SimulationResult,
        best_opener,
        hard_verdict,
        optimal,
        optimal_openers,
        simulate,
        top_openers,
    )
    from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon, score
    from wordle_core.api.games import (
        PriorEffect,
        PriorRun,
        Review,
        default_opener,
        evil_solve,
        prior_effect,
        review,
        solve,
    )
    from wordle_core.api.lexicon_info import LexiconInfo, lexicons
    from wordle_core.api.multiboard import (
        BoardStatus,
        MultiAdvice,
        MultiGameRecord,
        MultiPosition,
        MultiSimulation,
        multi_simulate,
        multi_solve,
    )
    from wordle_core.api.position import (
        GuessScore,
        Position,
        Suggestion,
        best_guesses,
        candidates,
        strategy_info,
        suggest,
    )
    from wordle_core.api.ranking import (
        RankedOpener,
        RankingProof,
        exact_ranking,
        proven_ranking,
        ranking_proof,
    )
    from wordle_core.api.sessions import HINT_STRATEGY, assist_session, play_session
    from wordle_core.api.strategy_catalogue import StrategyInfo, list_strategies
    from wordle_core.api.trees import TableTree, decision_tree, export_tree, load_tree, tree_from_table
    from wordle_core.api.word_position import History, Turn, history_pairs
    from wordle_core.tables.frames import read_table

# public name -> the module that defines it, imported on first use
_EXPORTS: dict[str, str] = {
    "BoardStatus": "wordle_core.api.multiboard",
    "Feedback": "wordle_core.api.feedback",
    "GameRecord": "wordle_core.api.analysis",
    "GuessScore": "wordle_core.api.position",
    "HINT_STRATEGY": "wordle_core.api.sessions",
    "HardVerdict": "wordle_core.api.analysis",
    "History": "wordle_core.api.word_position",
    "LexiconInfo": "wordle_core.api.lexicon_info",
    "LexiconLike": "wordle_core.api.feedback",
    "MultiAdvice": "wordle_core.api.multiboard",
    "MultiGameRecord": "wordle_core.api.multiboard",
    "MultiPosition": "wordle_core.api.multiboard",
    "MultiSimulation": "wordle_core.api.multiboard",
    "Optimum": "wordle_core.api.analysis",
    "Position": "wordle_core.api.position",
    "PriorEffect": "wordle_core.api.games",
    "PriorRun": "wordle_core.api.games",
    "ProvenBest": "wordle_core.api.analysis",
    "RankedOpener": "wordle_core.api.ranking",
    "RankingProof": "wordle_core.api.ranking",
    "Review": "wordle_core.api.games",
    "SimulationResult": "wordle_core.api.analysis",
    "StrategyInfo": "wordle_core.api.strategy_catalogue",
    "Suggestion": "wordle_core.api.position",
    "TableTree": "wordle_core.api.trees",
    "Turn": "wordle_core.api.word_position",
    "as_lexicon": "wordle_core.api.feedback",
    "assist_session": "wordle_core.api.sessions",
    "best_guesses": "wordle_core.api.position",
    "best_opener": "wordle_core.api.analysis",
    "candidates": "wordle_core.api.position",
    "decision_tree": "wordle_core.api.trees",
    "default_opener": "wordle_core.api.games",
    "evil_solve": "wordle_core.api.games",
    "exact_ranking": "wordle_core.api.ranking",
    "export_tree": "wordle_core.api.trees",
    "hard_verdict": "wordle_core.api.analysis",
    "history_pairs": "wordle_core.api.word_position",
    "lexicons": "wordle_core.api.lexicon_info",
    "list_strategies": "wordle_core.api.strategy_catalogue",
    "load_tree": "wordle_core.api.trees",
    "multi_simulate": "wordle_core.api.multiboard",
    "multi_solve": "wordle_core.api.multiboard",
    "optimal": "wordle_core.api.analysis",
    "optimal_openers": "wordle_core.api.analysis",
    "play_session": "wordle_core.api.sessions",
    "prior_effect": "wordle_core.api.games",
    "proven_ranking": "wordle_core.api.ranking",
    "ranking_proof": "wordle_core.api.ranking",
    "read_table": "wordle_core.tables.frames",
    "review": "wordle_core.api.games",
    "score": "wordle_core.api.feedback",
    "simulate": "wordle_core.api.analysis",
    "solve": "wordle_core.api.games",
    "strategy_info": "wordle_core.api.position",
    "suggest": "wordle_core.api.position",
    "top_openers": "wordle_core.api.analysis",
    "tree_from_table": "wordle_core.api.trees",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wordle_core.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "HINT_STRATEGY",
    "BoardStatus",
    "Feedback",
    "GameRecord",
    "GuessScore",
    "HardVerdict",
    "History",
    "LexiconInfo",
    "LexiconLike",
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
    "SimulationResult",
    "StrategyInfo",
    "Suggestion",
    "TableTree",
    "Turn",
    "as_lexicon",
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
    "strategy_info",
    "suggest",
    "top_openers",
    "tree_from_table",
]
