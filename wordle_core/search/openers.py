"""First-guess scores of every allowed guess against all answers (``opener_scores``).

This is the table "Wordle Solver KT" computed with a Beam pipeline: for each opener, the
candidates it eliminates on average, plus the other partition measures. The engine
computes it in one vectorised pass (a few seconds for 12,972 x 2,315). The ``scores``
pipeline writes the same table as Avro; whoever holds such a table (the CLI, a
pipeline entry point: see :func:`wordle_core.tables.load.find_opener_scores`) passes
it in explicitly, e.g. ``top_openers(lex, 10, scores=table)`` or the strategy option
``opener_scores=table``. Nothing here reads files or the environment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix

_BLOCK = 1024  # guesses per vectorised block: bounds memory to ~block x answers x 8 B


@dataclass(frozen=True)
class OpenerScores:
    """Per-guess first-move statistics, aligned with ``lexicon.guesses``."""

    avg_eliminated: np.ndarray
    avg_remaining: np.ndarray
    entropy: np.ndarray
    largest: np.ndarray
    buckets: np.ndarray

    def check(self, lexicon: Lexicon) -> OpenerScores:
        """``self``, after checking it is aligned with ``lexicon.guesses`` (ValueError if not)."""
        if len(self.avg_eliminated) != len(lexicon.guesses):
            raise ValueError(f"opener score table has {len(self.avg_eliminated)} rows, "
                             f"not the {len(lexicon.guesses)} {lexicon.name} guesses")
        return self


_COMPUTED: dict[str, OpenerScores] = {}  # memo of a pure function: one table per lexicon
_KEEP = 8  # lexicons whose computed table is kept (oldest dropped first)


def compute_opener_scores(
    lexicon: Lexicon, matrix: np.ndarray | None = None, rows: np.ndarray | None = None
) -> OpenerScores:
    """Scores of ``rows`` (default: every guess) over all answers, in blocks."""
    from wordle_core.kernels.buckets import bucket_stats

    mat = pattern_matrix(lexicon) if matrix is None else matrix
    rows = np.arange(len(lexicon.guesses)) if rows is None else np.asarray(rows)
    cands = np.arange(len(lexicon.answers))
    parts = []
    for lo in range(0, len(rows), _BLOCK):
        block_rows = rows[lo : lo + _BLOCK]
        parts.append(bucket_stats(mat, block_rows, cands, lexicon.n_patterns))
    cat = lambda f: np.concatenate([f(s) for s in parts])
    return OpenerScores(
        avg_eliminated=cat(lambda s: s.avg_eliminated),
        avg_remaining=cat(lambda s: s.expected_size),
        entropy=cat(lambda s: s.entropy),
        largest=cat(lambda s: s.largest),
        buckets=cat(lambda s: s.buckets),
    )


def opener_scores(
    lexicon: Lexicon, matrix: np.ndarray | None = None, scores: OpenerScores | None = None
) -> OpenerScores:
    """The whole table for a lexicon: ``scores`` when given (checked), else computed.

    The computed table is kept per lexicon (it depends on nothing else; the last
    ``_KEEP`` lexicons), so strategies that read it every move pay for it once.
    """
    if scores is not None:
        return scores.check(lexicon)
    hit = _COMPUTED.get(lexicon.fingerprint)
    if hit is None:
        hit = compute_opener_scores(lexicon, matrix)
        while len(_COMPUTED) >= _KEEP:
            _COMPUTED.pop(next(iter(_COMPUTED)))
        _COMPUTED[lexicon.fingerprint] = hit
    return hit


def top_openers(
    lexicon: Lexicon, n: int, by: str = "avg_eliminated", scores: OpenerScores | None = None
) -> list[str]:
    """The ``n`` best openers by a score (ties alphabetical); ``scores`` as in :func:`opener_scores`."""
    s = opener_scores(lexicon, scores=scores)
    vals = getattr(s, by)
    lower_better = by in ("avg_remaining", "largest")
    key = np.round(vals if lower_better else -vals, 9)
    order = np.lexsort((np.arange(len(key)), key))
    return [lexicon.guesses[int(i)] for i in order[:n]]
