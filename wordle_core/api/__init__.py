"""The public Python API: words in, typed results out (re-exported by :mod:`wordle_core`).

* :func:`score` -> :class:`Feedback` (``str()``, ``.emoji``, ``int()``);
* :class:`Position` from a history, its ``candidates``, ``legal_guesses``, ``play``;
  :func:`candidates`;
* :func:`best_guesses` -> list of :class:`GuessScore` under a named strategy
  (:func:`list_strategies` lists the names);
* :func:`simulate` -> :class:`SimulationResult`; :func:`optimal` -> :class:`Optimum`;
  :func:`hard_verdict` -> :class:`HardVerdict`;
* :func:`proven_ranking` / :func:`exact_ranking` -> lists of :class:`RankedOpener`, from
  the tables shipped with the package;
* :func:`read_table` -> a pandas DataFrame of a pipeline run's table (the one
  implementation, :func:`wordle_core.tables.frames.read_table`, re-exported).

This layer sits on top of the engine (``game/``, ``strategies/``, ``analysis/``,
``search/``, ``tables/``, ``interactive/``) and below the CLI; it converts between
words and the engine's row indices and never re-implements a rule.
"""

from wordle_core.api.analysis import (
    GameRecord,
    HardVerdict,
    Optimum,
    SimulationResult,
    hard_verdict,
    optimal,
    simulate,
)
from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon, score
from wordle_core.api.position import (
    GuessScore,
    History,
    Position,
    StrategyInfo,
    Turn,
    best_guesses,
    candidates,
    list_strategies,
)
from wordle_core.api.ranking import RankedOpener, exact_ranking, proven_ranking
from wordle_core.tables.frames import read_table

__all__ = [
    "Feedback",
    "GameRecord",
    "GuessScore",
    "HardVerdict",
    "History",
    "LexiconLike",
    "Optimum",
    "Position",
    "RankedOpener",
    "SimulationResult",
    "StrategyInfo",
    "Turn",
    "as_lexicon",
    "best_guesses",
    "candidates",
    "exact_ranking",
    "hard_verdict",
    "list_strategies",
    "optimal",
    "proven_ranking",
    "read_table",
    "score",
    "simulate",
]
