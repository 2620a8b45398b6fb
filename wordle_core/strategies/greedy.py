"""Greedy partition strategies: entropy, expected size, minimax, partition count.

Each scores every allowed guess by how it splits the remaining candidates, in one
vectorised pass of :func:`wordle_core.kernels.partition.partition_stats`, and plays the best;
ties go to a guess that may be the answer, then alphabetical order.

Option ``pool``: ``all`` (every allowed guess, the default) or ``answers`` (only words
that may be answers, as many published tables restrict it).
"""

from __future__ import annotations

import numpy as np

from wordle_core.game.state import GameState
from wordle_core.kernels.partition import PartitionStats, partition_stats
from wordle_core.strategies.base import Strategy, candidate_mask, register


def guess_pool(state: GameState, pool: str = "all") -> np.ndarray:
    """Rows a strategy may choose from: legal rows, optionally answer words only."""
    rows = state.legal_rows
    if pool == "answers":
        rows = rows[state.lexicon.guess_is_answer[rows]]
    elif pool == "candidates":
        rows = state.candidate_rows
    return rows


class PartitionStrategy(Strategy):
    """Scores every allowed guess from its bucket statistics; subclasses give the keys."""

    def keys(self, stats: PartitionStats, is_cand: np.ndarray) -> list[np.ndarray]:
        """Arrays to *minimise*, most important first (rounded, so ties are exact)."""
        raise NotImplementedError  # pragma: no cover

    def _choose(self, state: GameState) -> int:
        perfect = first_perfect_candidate(state)
        if perfect is not None:
            return perfect
        rows = guess_pool(state, str(self.options.get("pool", "all")))
        stats = partition_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
        is_cand = candidate_mask(state, rows)
        return int(rows[pick_lexicographic(self.keys(stats, is_cand), is_cand)])


PERFECT_CHECK_MAX = 64  # candidate sets up to this size try the shortcut first


def first_perfect_candidate(state: GameState) -> int | None:
    """The alphabetically first candidate that splits the candidates into singletons.

    Such a guess is what every measure here picks (it maximises entropy and the win
    bonus, gives the most buckets, the smallest largest bucket and expected size, and
    the tie rule then prefers a candidate and alphabetical order), so trying it first
    on an n x n block skips scoring every allowed guess: the same choice, much cheaper.
    """
    n = state.n_candidates
    if n > PERFECT_CHECK_MAX:
        return None
    rows = state.candidate_rows  # always legal, also in hard mode; sorted like the guesses
    block = np.sort(np.asarray(state.matrix[rows][:, state.candidates]), axis=1)
    distinct = (block[:, 1:] != block[:, :-1]).all(axis=1)
    hit = np.flatnonzero(distinct)
    return int(rows[hit[0]]) if hit.size else None


def pick_lexicographic(keys: list[np.ndarray], is_cand: np.ndarray) -> int:
    """Best index under ``keys`` (minimised in order), then candidates, then alphabetical."""
    order = np.lexsort([np.arange(len(is_cand)), ~is_cand, *keys[::-1]])
    return int(order[0])


def _r(x: np.ndarray) -> np.ndarray:
    return np.round(x, 9)  # float keys: equal up to rounding noise count as ties


@register
class Entropy(PartitionStrategy):
    name = "entropy"
    summary = "maximise expected information (bits) plus the chance to win now"
    source = "seed 004 (3Blue1Brown's measure)"

    def keys(self, stats: PartitionStats, is_cand: np.ndarray) -> list[np.ndarray]:
        # Information in bits, plus P(guess is the answer) = 1/n for a candidate: a
        # guess that may win now is worth that chance on top of what it reveals.
        return [_r(-(stats.entropy + is_cand / stats.n))]


@register
class ExpectedSize(PartitionStrategy):
    name = "expected-size"
    summary = "minimise the expected number of candidates left"
    source = "seed 004"

    def keys(self, stats: PartitionStats, is_cand: np.ndarray) -> list[np.ndarray]:
        return [stats.sum_sq, stats.largest]


@register
class Minimax(PartitionStrategy):
    name = "minimax"
    summary = "minimise the largest bucket (worst case); ties by expected size"
    source = "seed 003"

    def keys(self, stats: PartitionStats, is_cand: np.ndarray) -> list[np.ndarray]:
        return [stats.largest, stats.sum_sq]


@register
class Partitions(PartitionStrategy):
    name = "partitions"
    summary = "maximise the number of distinct feedback patterns; ties by expected size"
    source = "seed 004"

    def keys(self, stats: PartitionStats, is_cand: np.ndarray) -> list[np.ndarray]:
        return [-stats.buckets, stats.sum_sq]
