"""Ranked next guesses for a live position, from a precomputed tree when one covers it.

A suggestion is the strategy's pick plus the runners-up, each with the numbers a
player can judge them by (expected information in bits, expected candidates left,
largest bucket, number of buckets, whether it may be the answer), and the candidates
still possible.

Where the pick comes from:

* **table** - a decision tree (the pipeline's ``trees`` table, or a JSON tree from
  ``simulate --save-tree``) whose opener and guesses match the history so far: the
  pick is read off the tree in microseconds; this is "Wordle Solver" (2022)'s "best second guess
  for every reaction to the opener, precomputed so the live tool never stalls";
* **computed** - otherwise the strategy chooses now. Greedy partition strategies are
  scored by the compiled kernel (:mod:`wordle_core.kernels.buckets`) in the same pass that
  ranks the alternatives, so the whole answer costs one pass over the matrix.

The first guess's numbers are every guess against every answer: the ``opener_scores``
table (:class:`~wordle_core.search.openers.OpenerScores`, which the scores pipeline
saves) holds exactly them, so a caller that has the table passes it as ``first=`` and
the first suggestion is read off it without loading the compiled kernels.

Ranking of the alternatives: the pick first, then by expected information plus the
chance of winning now (the ``entropy`` strategy's key), ties to a possible answer,
then alphabetical. Deterministic: the same position gives the same list.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.search.openers import OpenerScores
from wordle_core.strategies.base import Strategy

if TYPE_CHECKING:
    from wordle_core.kernels.buckets import BucketStats

CANDIDATE_LIST_LIMIT = 40  # list the remaining words when at most this many are left


@dataclass(frozen=True)
class Option:
    """One guess with the numbers that judge it in this position."""

    word: str
    entropy_bits: float
    expected_remaining: float
    largest_bucket: int
    buckets: int
    can_be_answer: bool
    pick: bool = False
    # first guess only, where the package ships exact tables (wordle_core/data/exact/):
    # "proven" (optimal_total is the proven fewest total guesses over every answer),
    # "no-win" (proven: no strategy wins every game), "wins" (hard mode: proven that a
    # strategy wins every game, total not computed yet), "unknown" (not computed yet);
    # "" elsewhere.
    optimal: str = ""
    optimal_total: int | None = None


@dataclass(frozen=True)
class Suggestion:
    """What ``suggest`` answers: the ranked options and what is still possible."""

    lexicon: str
    hard: bool
    strategy: str
    source: str  # "table", "opener", "computed" or "solved"
    history: list[tuple[str, str]]
    remaining: int
    candidates: list[str] = field(default_factory=list)  # all of them if few, else []
    options: list[Option] = field(default_factory=list)

    @property
    def best(self) -> str | None:
        return self.options[0].word if self.options else None

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["history"] = [{"guess": g, "feedback": f} for g, f in self.history]
        return d


def tree_guess(tree: Tree, state: GameState) -> int | None:
    """The tree's next guess for ``state``, or None when the tree does not cover it.

    Covered means: same lexicon and mode, and every guess of the history is the one
    the tree played at that node (a player who deviated is off the table).
    """
    if tree.lexicon.fingerprint != state.lexicon.fingerprint or tree.hard != state.hard:
        return None
    node = 0
    for guess, pattern in state.history:
        if tree.guess[node] != guess:
            return None
        node = tree.children[node].get(int(pattern), -1)
        if node < 0:
            return None
    return tree.guess[node]


class _TableStats(NamedTuple):
    """The fields of :class:`~wordle_core.kernels.buckets.BucketStats` that ranking reads,
    for the first guess, taken from an opener table."""

    entropy: np.ndarray
    expected_size: np.ndarray
    largest: np.ndarray
    buckets: np.ndarray
    n: int


def _stats(state: GameState, rows: np.ndarray, first: OpenerScores | None) -> BucketStats | _TableStats:
    """Bucket statistics of ``rows`` in ``state``: off the opener table at the start, else computed."""
    if first is not None and state.turn == 0 and state.n_candidates == len(state.lexicon.answers):
        first.check(state.lexicon)
        return _TableStats(first.entropy[rows], first.avg_remaining[rows], first.largest[rows],
                           first.buckets[rows], state.n_candidates)
    from wordle_core.kernels.buckets import bucket_stats  # numba: loaded when first needed

    return bucket_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)


def _entropy_rank_keys(stats: BucketStats | _TableStats, is_cand: np.ndarray) -> np.ndarray:
    return np.round(-(stats.entropy + is_cand / max(stats.n, 1)), 9)


def suggest(
    state: GameState,
    strategy: Strategy,
    *,
    top: int = 5,
    tree: Tree | None = None,
    opener: int | None = None,
    list_limit: int = CANDIDATE_LIST_LIMIT,
    first: OpenerScores | None = None,
) -> Suggestion:
    """Rank the next guesses for ``state`` (see the module docstring for the rules).

    ``opener``: the first guess to propose when nothing has been played and no tree
    covers the start (a strategy's choice at the root is the opener by convention:
    trees and ``simulate`` are built from a given opener). ``first``: the lexicon's
    opener table, read instead of computing the first guess's numbers (the same ones).
    """
    if top < 1:
        raise WordleError("--top must be at least 1")
    lex = state.lexicon
    cands_words = state.candidate_words() if state.n_candidates <= list_limit else []
    base: dict[str, Any] = dict(lexicon=lex.name, hard=state.hard, strategy=strategy.name,
                history=state.history_words(), remaining=state.n_candidates,
                candidates=cands_words)
    if state.solved:
        return Suggestion(source="solved", **base)
    if state.guesses_left <= 0:
        raise WordleError(f"no guesses left: {lex.name} allows {lex.max_guesses}")

    picked = tree_guess(tree, state) if tree is not None else None
    source = "table" if picked is not None else "computed"
    if picked is None and opener is not None and state.turn == 0:
        picked, source = int(opener), "opener"
    # Covered and only the pick wanted: score that one row, not the whole guess list.
    rows = np.array([picked], dtype=np.int64) if picked is not None and top == 1 else state.legal_rows
    stats = _stats(state, rows, first)
    is_cand = np.zeros(len(lex.guesses), dtype=bool)
    is_cand[state.candidate_rows] = True
    is_cand = is_cand[rows]
    if picked is None:
        picked = int(strategy.choose(state))

    keys = _entropy_rank_keys(stats, is_cand)
    order = np.lexsort((np.arange(len(rows)), ~is_cand, keys))
    chosen: list[int] = []
    pick_at = np.flatnonzero(rows == picked)
    if pick_at.size:
        chosen.append(int(pick_at[0]))
    for i in order:
        if len(chosen) >= top:
            break
        if int(rows[i]) != picked:
            chosen.append(int(i))
    options = [_option(lex.guesses[int(rows[i])], stats, int(i), bool(is_cand[i]),
                       int(rows[i]) == picked) for i in chosen]
    if not pick_at.size:  # a table pick outside the scored rows (cannot happen in practice)
        one = _stats(state, np.array([picked]), first)
        mark = bool(np.isin(picked, state.candidate_rows))
        options = [_option(lex.guesses[picked], one, 0, mark, True), *options][:top]
    if state.turn == 0:
        options = _with_exact_values(options, lex, state.hard)
    return Suggestion(source=source, options=options, **base)


def _with_exact_values(options: list[Option], lexicon: Lexicon, hard: bool) -> list[Option]:
    """First guesses: attach what the shipped tables prove each opener is worth.

    The proven total where the exact tables have it; in hard mode, else the shipped
    verdict: ``no-win`` (proven: no strategy wins every game) or ``wins`` (a strategy
    winning every game exists; its fewest total is not computed yet).
    """
    from dataclasses import replace

    from wordle_core.tables.exact import proven_worth
    from wordle_core.tables.verdicts import shipped_verdicts

    worth = proven_worth(lexicon, "hard" if hard else "normal")
    verdicts = shipped_verdicts(lexicon) if hard else {}
    if not worth and not verdicts:
        return options
    out = []
    for o in options:
        if o.word in worth:
            out.append(replace(o, optimal="no-win") if worth[o.word] < 0
                       else replace(o, optimal="proven", optimal_total=worth[o.word]))
        else:
            out.append(replace(o, optimal="wins" if verdicts.get(o.word) == "feasible" else "unknown"))
    return out


def _option(word: str, stats: BucketStats | _TableStats, i: int, is_cand: bool, pick: bool) -> Option:
    # expected_remaining counts a winning guess's all-green bucket as 1 word left, the
    # convention the expected-size strategy minimises, so the numbers agree with it.
    return Option(
        word=word,
        entropy_bits=round(float(stats.entropy[i]), 4),
        expected_remaining=round(float(stats.expected_size[i]), 3),
        largest_bucket=int(stats.largest[i]),
        buckets=int(stats.buckets[i]),
        can_be_answer=is_cand,
        pick=pick,
    )
