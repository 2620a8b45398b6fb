"""Avro records from engine results: plain functions, no Beam import.

Everything a pipeline does per element is one of these functions, so tests can
check a record without running a pipeline, and the Beam ``DoFn``s stay thin.
Record layouts are the schemas in :mod:`pipelines.schemas`.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

import numpy as np

from wordle_core.game.feedback import pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.tree import Tree
from wordle_core.search.hard import hard_verdict
from wordle_core.search.openers import OpenerScores

Record = dict[str, Any]


def mode_name(hard: bool) -> str:
    return "hard" if hard else "normal"


def score_records(lex: Lexicon, rows: np.ndarray, scores: OpenerScores) -> list[Record]:
    """``opener_scores`` records of guess ``rows``; ``scores`` is aligned with ``rows``."""
    out = []
    for i, row in enumerate(np.asarray(rows).tolist()):
        out.append({
            "lexicon": lex.name, "mode": "normal", "strategy": "-", "opener": lex.guesses[row],
            "avg_eliminated": float(scores.avg_eliminated[i]),
            "avg_remaining": float(scores.avg_remaining[i]),
            "entropy_bits": float(scores.entropy[i]),
            "largest_bucket": int(scores.largest[i]),
            "buckets": int(scores.buckets[i]),
            "is_answer": bool(lex.guess_is_answer[row]),
        })
    return out


def _base(tree: Tree) -> Record:
    L = tree.lexicon
    return {"lexicon": L.name, "mode": mode_name(tree.hard), "strategy": tree.strategy,
            "opener": L.guesses[tree.opener]}


def game_of(tree: Tree, answer: int) -> Record:
    """One game read off the tree: answer, guesses and feedback, solved within the limit."""
    L = tree.lexicon
    path = tree.path(answer)
    return {
        "answer": L.answers[answer],
        "n_guesses": len(path),
        "guesses": [L.guesses[g] for g, _ in path],
        "feedback": [pattern_to_str(p, L.length) for _, p in path],
        "solved": len(path) <= L.max_guesses,
    }


def summary_record(tree: Tree, worst_k: int = 5) -> Record:
    """``opener_summaries`` record: histogram, mean, max, failures, win rates, worst games."""
    L = tree.lexicon
    lengths = tree.lengths()
    n = len(lengths)
    top = int(lengths.max()) if n else 0
    hist = np.bincount(lengths, minlength=max(top, L.max_guesses) + 1)[1:]
    return {
        **_base(tree),
        "games": n,
        "total_guesses": int(lengths.sum()),
        "mean_guesses": float(lengths.mean()) if n else 0.0,
        "histogram": [int(x) for x in hist],
        "max_guesses": top,
        "failures": int((lengths > L.max_guesses).sum()),
        "win_in_3_rate": float((lengths <= 3).mean()) if n else 0.0,
        "win_in_6_rate": float((lengths <= 6).mean()) if n else 0.0,
        "tree_nodes": len(tree.guess),
        "worst_games": [game_of(tree, a) for a in tree.longest_games(worst_k)],
    }


def game_records(tree: Tree) -> list[Record]:
    """``games`` records: every game of the tree, answers in alphabetical order."""
    base = _base(tree)
    return [{**base, **game_of(tree, int(a))} for a in tree.answers]


def tree_record(tree: Tree) -> Record:
    """``trees`` record: every node as (feedback path, guess), sorted by (depth, path)."""
    rows = sorted(tree.rows(), key=lambda r: (r[0].count(",") if r[0] else -1, r[0]))
    return {**_base(tree), "nodes": [{"path": p, "guess": g} for p, g in rows]}


def exact_hard_verdict(lex: Lexicon, opener_row: int, matrix: np.ndarray,
                       node_budget: int | None,
                       implied: tuple[str, Collection[str]] | None = None) -> Record:
    """Exact hard-mode feasibility of one opener (:func:`wordle_core.search.hard.hard_verdict`).

    ``node_budget`` 0: the complete search (always decides); N > 0: at most N OR nodes
    (``unknown`` when they do not decide); None: not asked for, the verdict is
    ``unknown`` with a note saying why, never a guess. ``implied``: (lexicon, openers)
    proved feasible on a lexicon with the same guesses and a superset of the answers
    (checked by :func:`pipelines.orchestration.stages.implied_feasible`): those are feasible here too,
    without a search.
    """
    if node_budget is None:
        return {"exact_verdict": "unknown", "exact_note": "exact search not requested",
                "exact_seconds": 0.0, "exact_nodes": 0}
    if implied is not None and lex.guesses[opener_row] in implied[1]:
        return {"exact_verdict": "feasible",
                "exact_note": f"implied: feasible on {implied[0]} (same guesses, a superset of the "
                              "answers; its winning strategy, restricted, wins here)",
                "exact_seconds": 0.0, "exact_nodes": 0}
    t0 = time.perf_counter()
    res = hard_verdict(lex, opener_row, matrix, node_budget or None)
    how = f"node budget {node_budget}" if node_budget else "complete search"
    return {
        "exact_verdict": str(res["verdict"]),
        "exact_note": f"wordle_core.search.hard.hard_verdict, {how}",
        "exact_seconds": float(res.get("seconds", time.perf_counter() - t0)),
        "exact_nodes": int(res.get("nodes", 0)),
    }


def exact_record(lex: Lexicon, opener_row: int, exact: Record) -> Record:
    """``hard_exact`` record: the opener's exact hard-mode verdict alone (no strategy played)."""
    return {"lexicon": lex.name, "mode": "hard", "strategy": "-", "opener": lex.guesses[opener_row],
            **exact}


def verdict_record(tree: Tree, exact: Record) -> Record:
    """``hard_verdicts`` record of a hard-mode tree plus the opener's exact verdict."""
    L = tree.lexicon
    lengths = tree.lengths()
    worst = tree.longest_games(1)
    return {
        **_base(tree),
        "wins_all": bool((lengths <= L.max_guesses).all()),
        "losses": int((lengths > L.max_guesses).sum()),
        "max_guesses": int(lengths.max()) if len(lengths) else 0,
        "worst_game": game_of(tree, worst[0]),
        **exact,
    }
