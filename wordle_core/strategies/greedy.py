"""Greedy partition strategies: entropy, expected size, minimax, partition count.

Each scores every allowed guess by how it splits the remaining candidates and plays the
best; ties go to a guess that may be the answer, then alphabetical order. The choice is
the compiled :func:`wordle_core.kernels.greedy.choose` (its docstring gives the rule and
its shortcuts); whole trees are :func:`wordle_core.kernels.greedy.greedy_tree`.

Option ``pool``: ``all`` (every allowed guess, the default) or ``answers`` (only words
that may be answers, as many published tables restrict it).
"""

from __future__ import annotations

import threading
from typing import ClassVar

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.rules import letter_counts
from wordle_core.game.state import GameState
from wordle_core.game.tree import MAX_DEPTH, TreeArrays
from wordle_core.strategies.base import Strategy, register

# The measures, numbered as wordle_core.kernels.greedy numbers them (a test checks): the
# kernels (numba) are imported where a choice is made, so listing strategies stays instant.
ENTROPY, EXPECTED_SIZE, MINIMAX, PARTITIONS = 0, 1, 2, 3
# Guess rows and candidate ids go to the kernels as int32, the exact search's dtype: the
# bucket kernels both share (count_buckets, legal_subset, ...) are then compiled once.
INDEX = np.int32


def guess_pool(state: GameState, pool: str = "all") -> np.ndarray:
    """Rows a strategy may choose from: legal rows, optionally answer words only."""
    rows = state.legal_rows
    if pool == "answers":
        rows = rows[state.lexicon.guess_is_answer[rows]]
    elif pool == "candidates":
        rows = state.candidate_rows
    return rows


class PartitionStrategy(Strategy):
    """Scores every allowed guess from its bucket statistics, by the measure ``kind``.

    The choice is one compiled function, :func:`wordle_core.kernels.greedy.choose` (the
    perfect-split shortcuts, ruling guesses out by bucket count, full statistics, the
    tie rule); :meth:`tree_arrays` plays it from an opener against every candidate in one
    compiled walk (:func:`wordle_core.kernels.greedy.greedy_tree`), which
    :meth:`wordle_core.game.tree.Tree.build` uses when it does not time decisions.
    """

    kind: ClassVar[int]  # the measure, as wordle_core.kernels.greedy numbers them
    rule_out: ClassVar[bool] = True  # rule guesses out by bucket count first (cost only, never the choice)

    def _choose(self, state: GameState) -> int:
        from wordle_core.kernels import greedy as kernel

        rows = np.ascontiguousarray(guess_pool(state, str(self.options.get("pool", "all"))), dtype=INDEX)
        work = _Work.of(state)
        dense = rows.shape[0] == work.mat.shape[0]
        return int(kernel.choose(work.mat, work.mt, work.has_mt, work.arow, rows, dense,
                                 np.ascontiguousarray(state.candidates, dtype=INDEX), self.kind,
                                 work.log2n, work.xlogx, self.rule_out, work.scratch))

    def tree_arrays(self, state: GameState, opener_row: int) -> TreeArrays | None:
        """Every game from ``opener_row`` at ``state`` in one compiled walk, or None where
        it does not apply (a pool other than ``all``).

        The same nodes, in the same order, as the per-position walk of
        :meth:`~wordle_core.game.tree.Tree.build` (tested on whole trees), without a
        decision time per node.
        """
        if str(self.options.get("pool", "all")) != "all":
            return None
        from wordle_core.kernels import greedy as kernel

        work = _Work.of(state)
        lex = state.lexicon
        greens, need = state.constraints.arrays(lex.length, len(lex.alphabet))
        legal = np.ascontiguousarray(state.legal_rows, dtype=INDEX)
        how = kernel.GreedyChooser(work.mat, work.mt, work.has_mt, work.arow, self.kind, work.log2n,
                                   work.xlogx, self.rule_out, work.scratch)
        cands = np.ascontiguousarray(state.candidates, dtype=INDEX)
        guess, parent, pat_in, depth, solved, ok = kernel.greedy_tree(
            how, work.codes, work.counts, int(opener_row), cands, legal, greens, need, state.hard,
            MAX_DEPTH - state.turn)
        if not ok:
            raise WordleError(f"strategy {self.name} made no progress after {MAX_DEPTH} guesses")
        return TreeArrays(guess, parent, pat_in, depth, solved)


def cells_read() -> tuple[int, int]:
    """Pattern-matrix cells the compiled choice has read in this thread so far: by the
    full bucket statistics, and by the cheaper bucket counts that rule guesses out
    (for benchmarks: bucket updates per second)."""
    work = getattr(_Work._local, "work", None)
    return (0, 0) if work is None else (int(work.scratch[8][0]), int(work.scratch[8][1]))


class _Work:
    """The arrays the compiled choice reads for one (lexicon, matrix), built once per thread."""

    _local = threading.local()

    def __init__(self, state: GameState) -> None:
        from wordle_core.kernels import greedy as kernel
        from wordle_core.kernels.buckets import can_transpose, transposed, xlogx_table

        lex = state.lexicon
        self.lexicon, self.matrix = lex, state.matrix
        self.mat = np.asarray(state.matrix)
        self.has_mt = can_transpose(state.matrix)
        self.mt = transposed(state.matrix) if self.has_mt else np.zeros((1, 1), self.mat.dtype)
        self.arow = np.ascontiguousarray(lex.answer_rows, dtype=INDEX)
        self.codes = np.ascontiguousarray(lex.guess_codes)
        self.counts = letter_counts(lex)
        n = len(lex.answers)
        self.log2n = kernel.log2_table(n)
        self.xlogx = xlogx_table(n)
        self.scratch = kernel.scratch(len(lex.guesses), lex.n_patterns, self.mt.dtype)

    @classmethod
    def of(cls, state: GameState) -> _Work:
        hit = getattr(cls._local, "work", None)
        if hit is None or hit.matrix is not state.matrix or hit.lexicon is not state.lexicon:
            from wordle_core.kernels.buckets import check_patterns

            check_patterns(state.lexicon.n_patterns)
            hit = cls(state)
            cls._local.work = hit
        return hit


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


@register
class Entropy(PartitionStrategy):
    name = "entropy"
    summary = "maximise expected information (bits) plus the chance to win now"
    source = "3Blue1Brown's information measure; \"Wordle Solver\" (2022)"
    # Information in bits, plus P(guess is the answer) = 1/n for a candidate: a guess
    # that may win now is worth that chance on top of what it reveals.
    kind = ENTROPY


@register
class ExpectedSize(PartitionStrategy):
    name = "expected-size"
    summary = "minimise the expected number of candidates left"
    source = "\"Wordle Solver\" (2022)"
    kind = EXPECTED_SIZE


@register
class Minimax(PartitionStrategy):
    name = "minimax"
    summary = "minimise the largest bucket (worst case); ties by expected size"
    source = "\"The Wordle Bot\""
    kind = MINIMAX


@register
class Partitions(PartitionStrategy):
    name = "partitions"
    summary = "maximise the number of distinct feedback patterns; ties by expected size"
    source = "\"Wordle Solver\" (2022)"
    kind = PARTITIONS
