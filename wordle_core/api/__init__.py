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
"""

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
from wordle_core.api.lexicons import LexiconInfo, lexicons
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
    History,
    Position,
    StrategyInfo,
    Suggestion,
    Turn,
    best_guesses,
    candidates,
    history_pairs,
    list_strategies,
    strategy_info,
    suggest,
)
from wordle_core.api.ranking import RankedOpener, RankingProof, exact_ranking, proven_ranking, ranking_proof
from wordle_core.api.sessions import HINT_STRATEGY, assist_session, play_session
from wordle_core.api.trees import TableTree, decision_tree, export_tree, load_tree, tree_from_table
from wordle_core.tables.frames import read_table

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
