"""The family of "Wordle Solver KT": Simple, TestAllScored, TestAllFull and Balanced, with its variety guess.

All four choose among the *available* guesses, i.e. the words that still fit every
clue (that solver plays on lists where every guess may be the answer):

* ``simple``: the available word with the highest *average eliminated* as an opener,
  read from the engine's opener table (:mod:`wordle_core.search.openers`; the ``scores``
  pipeline writes the same table as Avro, passed in as the option ``opener_scores``);
* ``test-all-scored``: the available word with the highest mean tile score against
  all available words as answers (green 2, yellow 1, gray 0);
* ``test-all-full``: the available word that eliminates the most available words on
  average (= smallest expected remaining set, computed over the available words);
* ``balanced``: Simple above 269 available, TestAllScored above 16, TestAllFull at 16
  or fewer (its thresholds).

Variety guess ("Wordle Solver KT"): when at least ``length - 2`` positions are known green and
more than two words remain (the "bates => ⬛🟩🟩🟩🟩" trap), play the allowed word with
the most distinct letters that are still undecided (in some candidate's open
position and never guessed so far), at least two of them; ties by average
eliminated, then alphabetical. If no word has two such letters, fall through.
"""

from __future__ import annotations

import numpy as np

from wordle_core.game.feedback import int_to_digits
from wordle_core.game.state import GameState
from wordle_core.search.openers import OpenerScores, opener_scores
from wordle_core.strategies.base import Strategy, register
from wordle_core.strategies.letters import green_positions

SIMPLE_ABOVE = 269
SCORED_ABOVE = 16


def _tile_sums(length: int) -> np.ndarray:
    """Sum of tile scores (green 2, yellow 1, gray 0) of every pattern code."""
    return np.array([sum(int_to_digits(c, length)) for c in range(3**length)], dtype=np.float64)


_TILES: dict[int, np.ndarray] = {}


def _best_by(values: np.ndarray, rows: np.ndarray) -> int:
    """Row with the highest value; ties alphabetical (rows are sorted guess rows)."""
    v = np.round(values, 9)
    return int(rows[int(np.lexsort((rows, -v))[0])])


def variety_guess(state: GameState, scores: OpenerScores | None = None) -> int | None:
    """"Wordle Solver KT"'s variety guess for the position, or None when it does not apply."""
    lex = state.lexicon
    greens = green_positions(state)
    if greens.sum() < lex.length - 2 or state.n_candidates <= 2:
        return None
    alpha = len(lex.alphabet)
    guessed = np.zeros(alpha, dtype=bool)
    for g, _ in state.history:
        guessed[lex.guess_codes[g]] = True
    open_codes = lex.answer_codes[state.candidates][:, ~greens]
    wanted = np.zeros(alpha, dtype=bool)
    wanted[np.unique(open_codes)] = True
    wanted &= ~guessed
    rows = state.legal_rows
    codes = lex.guess_codes[rows]
    hits = np.zeros((len(rows), alpha), dtype=bool)
    for pos in range(lex.length):
        hits[np.arange(len(rows)), codes[:, pos]] = True
    n_new = (hits & wanted[None, :]).sum(axis=1)
    if n_new.max(initial=0) < 2:
        return None
    elim = opener_scores(lex, state.matrix, scores).avg_eliminated[rows]
    order = np.lexsort((rows, -np.round(elim, 9), -n_new))
    return int(rows[order[0]])


class EliminatedFamily(Strategy):
    """Shared behaviour: variety guess first (option ``variety``, default on).

    Option ``opener_scores``: the offline table (an
    :class:`~wordle_core.search.openers.OpenerScores`, e.g. read from the ``scores``
    pipeline's Avro); computed once per process when not given.
    """

    tables = ("opener_scores",)

    def _choose(self, state: GameState) -> int:
        if self.options.get("variety", True):
            v = variety_guess(state, self.table(state))
            if v is not None:
                return v
        return self.pick(state)

    def table(self, state: GameState) -> OpenerScores:
        """"Wordle Solver KT"'s offline table: the ``opener_scores`` option, else computed."""
        given = self.options.get("opener_scores")
        return opener_scores(state.lexicon, state.matrix, given if isinstance(given, OpenerScores) else None)

    def prepare(self, state: GameState) -> None:
        self.table(state)

    def pick(self, state: GameState) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    # the three measures, usable by Balanced
    def simple(self, state: GameState) -> int:
        rows = state.candidate_rows
        return _best_by(self.table(state).avg_eliminated[rows], rows)

    @staticmethod
    def scored(state: GameState) -> int:
        L = state.lexicon.length
        tiles = _TILES.setdefault(L, _tile_sums(L))
        rows = state.candidate_rows
        means = np.empty(len(rows))
        step = max(1, 2_000_000 // max(1, len(rows)))
        for lo in range(0, len(rows), step):
            block = np.asarray(state.matrix[rows[lo : lo + step]][:, state.candidates])
            means[lo : lo + step] = tiles[block].mean(axis=1)
        return _best_by(means, rows)

    @staticmethod
    def full(state: GameState) -> int:
        from wordle_core.kernels.buckets import bucket_stats

        rows = state.candidate_rows
        stats = bucket_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
        return _best_by(stats.avg_eliminated, rows)


@register
class Simple(EliminatedFamily):
    name = "simple"
    summary = "available word with the best opener average-eliminated (table lookup)"
    source = "Wordle Solver KT (Kotlin)"

    def pick(self, state: GameState) -> int:
        return self.simple(state)


@register
class TestAllScored(EliminatedFamily):
    name = "test-all-scored"
    summary = "available word with the best mean tile score (green 2, yellow 1) vs available"
    source = "Wordle Solver KT (Kotlin)"

    def pick(self, state: GameState) -> int:
        return self.scored(state)


@register
class TestAllFull(EliminatedFamily):
    name = "test-all-full"
    summary = "available word eliminating the most available words on average"
    source = "Wordle Solver KT (Kotlin)"

    def pick(self, state: GameState) -> int:
        return self.full(state)


@register
class Balanced(EliminatedFamily):
    name = "balanced"
    summary = "Simple above 269 available, TestAllScored above 16, else TestAllFull"
    source = "Wordle Solver KT (Kotlin)"

    def pick(self, state: GameState) -> int:
        n = state.n_candidates
        if n > SIMPLE_ABOVE:
            return self.simple(state)
        if n > SCORED_ABOVE:
            return self.scored(state)
        return self.full(state)
