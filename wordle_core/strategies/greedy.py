"""Greedy partition strategies: entropy, expected size, minimax, partition count.

Each scores every allowed guess by how it splits the remaining candidates, in one
pass of the compiled kernel :func:`wordle_core.kernels.buckets.bucket_stats`, and plays the best;
ties go to a guess that may be the answer, then alphabetical order.

Option ``pool``: ``all`` (every allowed guess, the default) or ``answers`` (only words
that may be answers, as many published tables restrict it).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from wordle_core.game.state import GameState
from wordle_core.kernels.buckets import BucketStats, bucket_stats, first_perfect_split, guess_counts
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
    """Scores every allowed guess from its bucket statistics; subclasses give the keys.

    ``perfect_is_best``: the keys rank a perfect split (every candidate alone in its
    bucket) above every other guess, so the first perfect splitter (a candidate first)
    is the choice without scoring the rest. True for the four measures here; a subclass
    whose keys can prefer something else must set it False.
    """

    perfect_is_best: ClassVar[bool] = True

    def keys(self, stats: BucketStats, is_cand: np.ndarray) -> list[np.ndarray]:
        """Arrays to *minimise*, most important first (rounded, so ties are exact)."""
        raise NotImplementedError  # pragma: no cover

    def key_floor(self, buckets: np.ndarray, is_cand: np.ndarray, n: int) -> np.ndarray | None:
        """A lower bound of the first key of each guess from its number of buckets alone
        (None: no useful bound; every guess is then scored in full). See :meth:`promising_rows`."""
        return None

    def promising_rows(self, state: GameState, rows: np.ndarray) -> np.ndarray:
        """The rows that can still be the choice, found before the full statistics.

        Each guess's bucket count (a cheap kernel: :func:`guess_counts`) bounds its first
        key from below (:meth:`key_floor`). The full statistics of the :data:`PROBE`
        rows with the lowest bounds give a key ``best`` that the choice cannot exceed; a
        row whose bound is above ``best`` cannot tie it, so only the rows with bound
        ``<= best`` (plus a margin for the keys' rounding) are scored. They keep their
        order, so :func:`pick_lexicographic` picks the same row as over all of them.
        """
        n = state.n_candidates
        lex = state.lexicon
        if n < 3 or rows.shape[0] < len(lex.guesses) or rows.shape[0] <= 2 * PROBE:
            # (a subset of the guesses - hard mode's legal rows - is a scattered gather
            # for the counting kernel: measured no faster than the full statistics)
            return rows
        nb = guess_counts(state.matrix, rows, state.candidates, lex.n_patterns)
        if nb is None:
            return rows
        is_cand = candidate_mask(state, rows)
        floor = self.key_floor(nb, is_cand, n)
        if floor is None:
            return rows
        probe = np.sort(np.argpartition(floor, PROBE)[:PROBE])
        st = bucket_stats(state.matrix, rows[probe], state.candidates, lex.n_patterns)
        best = float(np.min(self.keys(st, is_cand[probe])[0]))
        return rows[floor <= best + FLOOR_MARGIN]

    def _choose(self, state: GameState) -> int:
        perfect = first_perfect_candidate(state)
        if perfect is not None:
            return perfect
        rows = guess_pool(state, str(self.options.get("pool", "all")))
        if self.perfect_is_best and state.n_candidates <= min(PERFECT_POOL_MAX, PERFECT_CHECK_MAX):
            # No candidate splits perfectly (checked just above); the first row of the pool
            # that does is then the choice (see first_perfect_candidate), found without
            # full statistics.
            hit = first_perfect_split(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
            if hit >= 0:
                return int(rows[hit])
        rows = self.promising_rows(state, rows)
        stats = bucket_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
        is_cand = candidate_mask(state, rows)
        return int(rows[pick_lexicographic(self.keys(stats, is_cand), is_cand)])


PROBE = 16  # rows scored in full first, for the bound that rules the others out
FLOOR_MARGIN = 1e-6  # above the keys' rounding (9 decimals) and float error
PERFECT_CHECK_MAX = 64  # candidate sets up to this size try the shortcut first
# ... and up to this size the whole pool: on entropy trees from four openers the pool scan
# found a perfect splitter at 321 of 461 positions with < 16 candidates, at none of 131 larger
PERFECT_POOL_MAX = 15


def first_perfect_candidate(state: GameState) -> int | None:
    """The alphabetically first candidate that splits the candidates into singletons.

    Such a guess is what every measure here picks (it maximises entropy and the win
    bonus, gives the most buckets, the smallest largest bucket and expected size, and
    the tie rule then prefers a candidate and alphabetical order), so trying it first
    on an n x n block skips scoring every allowed guess: the same choice, much cheaper.
    Without one, a perfect non-candidate is still the choice: its entropy ``log2 n`` beats
    any non-perfect candidate's ``<= log2 n - 2/n + 1/n`` (one bucket of two at best), its
    largest bucket 1 and ``sum_sq = n`` are the minimum and its ``n`` buckets the maximum.
    """
    n = state.n_candidates
    if n > PERFECT_CHECK_MAX:
        return None
    rows = state.candidate_rows  # always legal, also in hard mode; sorted like the guesses
    hit = first_perfect_split(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
    return int(rows[hit]) if hit >= 0 else None


def pick_lexicographic(keys: list[np.ndarray], is_cand: np.ndarray) -> int:
    """Best index under ``keys`` (minimised in order), then candidates, then alphabetical.

    The first entry of ``np.lexsort([index, ~is_cand, *keys[::-1]])``, found by narrowing
    the tied set key by key (one ``min`` and one compare per key instead of a sort).
    """
    idx = np.arange(len(is_cand))
    for key in keys:
        vals = np.asarray(key)[idx]
        best = vals.min()
        if best != best:  # NaN: lexsort's order (NaN last) decides
            order = np.lexsort([np.arange(len(is_cand)), ~is_cand, *keys[::-1]])
            return int(order[0])
        idx = idx[vals == best]
        if idx.shape[0] == 1:
            return int(idx[0])
    pref = idx[is_cand[idx]]
    return int(pref[0] if pref.shape[0] else idx[0])


def _r(x: np.ndarray) -> np.ndarray:
    return np.round(x, 9)  # float keys: equal up to rounding noise count as ties


@register
class Entropy(PartitionStrategy):
    name = "entropy"
    summary = "maximise expected information (bits) plus the chance to win now"
    source = "3Blue1Brown's information measure; \"Wordle Solver\" (2022)"

    def keys(self, stats: BucketStats, is_cand: np.ndarray) -> list[np.ndarray]:
        # Information in bits, plus P(guess is the answer) = 1/n for a candidate: a
        # guess that may win now is worth that chance on top of what it reveals.
        return [_r(-(stats.entropy + is_cand / stats.n))]

    def key_floor(self, buckets: np.ndarray, is_cand: np.ndarray, n: int) -> np.ndarray:
        # B buckets carry at most log2 B bits (equal sizes); B <= n, so a table of n + 1
        return -(np.log2(np.arange(1, n + 2, dtype=np.float64))[np.maximum(buckets, 1) - 1]
                 + is_cand / n)


@register
class ExpectedSize(PartitionStrategy):
    name = "expected-size"
    summary = "minimise the expected number of candidates left"
    source = "\"Wordle Solver\" (2022)"

    def keys(self, stats: BucketStats, is_cand: np.ndarray) -> list[np.ndarray]:
        return [stats.sum_sq, stats.largest]

    def key_floor(self, buckets: np.ndarray, is_cand: np.ndarray, n: int) -> np.ndarray:
        return n * n / np.maximum(buckets, 1)  # sum of squares of B sizes summing to n


@register
class Minimax(PartitionStrategy):
    name = "minimax"
    summary = "minimise the largest bucket (worst case); ties by expected size"
    source = "\"The Wordle Bot\""

    def keys(self, stats: BucketStats, is_cand: np.ndarray) -> list[np.ndarray]:
        return [stats.largest, stats.sum_sq]

    # (no key_floor: the largest of B buckets holds >= n / B, but that ties for most
    # guesses, so ruling guesses out first measured no faster)


@register
class Partitions(PartitionStrategy):
    name = "partitions"
    summary = "maximise the number of distinct feedback patterns; ties by expected size"
    source = "\"Wordle Solver\" (2022)"

    def keys(self, stats: BucketStats, is_cand: np.ndarray) -> list[np.ndarray]:
        return [-stats.buckets, stats.sum_sq]

    def key_floor(self, buckets: np.ndarray, is_cand: np.ndarray, n: int) -> np.ndarray:
        return -buckets.astype(np.float64)  # the key itself
