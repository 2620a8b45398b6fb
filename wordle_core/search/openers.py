"""First-guess scores of every allowed guess against all answers (``opener_scores``).

This is the table seed 002 computed with a Beam pipeline: for each opener, the
candidates it eliminates on average, plus the other partition measures. The engine
computes it in one vectorised pass (a few seconds for 12,972 x 2,315); the
``scores`` pipeline writes it as Avro and, when that file is given, strategies read
it instead of recomputing (:func:`set_opener_scores`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.kernels.buckets import bucket_stats

_BLOCK = 1024  # guesses per vectorised block: bounds memory to ~block x answers x 8 B


@dataclass(frozen=True)
class OpenerScores:
    """Per-guess first-move statistics, aligned with ``lexicon.guesses``."""

    avg_eliminated: np.ndarray
    avg_remaining: np.ndarray
    entropy: np.ndarray
    largest: np.ndarray
    buckets: np.ndarray


_CACHE: dict[str, OpenerScores] = {}


def compute_opener_scores(
    lexicon: Lexicon, matrix: np.ndarray | None = None, rows: np.ndarray | None = None
) -> OpenerScores:
    """Scores of ``rows`` (default: every guess) over all answers, in blocks."""
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


def opener_scores(lexicon: Lexicon, matrix: np.ndarray | None = None) -> OpenerScores:
    """The whole table for a lexicon: the pipeline's Avro table when one is found, else computed.

    Looked up once per process: a finished ``opener_scores`` table under
    ``$WORDLE_LAB_OUTPUTS`` (default ``./outputs``) or its subdirectories is read
    (see :func:`wordle_core.tables.load.install_found_opener_scores`); otherwise the table
    is computed in one vectorised pass.
    """
    hit = _CACHE.get(lexicon.fingerprint)
    if hit is None:
        from wordle_core.tables.load import install_found_opener_scores

        if install_found_opener_scores(lexicon) is not None:
            return _CACHE[lexicon.fingerprint]
        hit = compute_opener_scores(lexicon, matrix)
        _CACHE[lexicon.fingerprint] = hit
    return hit


def set_opener_scores(lexicon: Lexicon, scores: OpenerScores) -> None:
    """Install a table loaded from the pipeline's Avro output (no recomputation)."""
    if len(scores.avg_eliminated) != len(lexicon.guesses):
        raise ValueError("opener score table does not match the lexicon's guess list")
    _CACHE[lexicon.fingerprint] = scores


def top_openers(lexicon: Lexicon, n: int, by: str = "avg_eliminated") -> list[str]:
    """The ``n`` best openers by a score (ties alphabetical)."""
    s = opener_scores(lexicon)
    vals = getattr(s, by)
    lower_better = by in ("avg_remaining", "largest")
    key = np.round(vals if lower_better else -vals, 9)
    order = np.lexsort((np.arange(len(key)), key))
    return [lexicon.guesses[int(i)] for i in order[:n]]
