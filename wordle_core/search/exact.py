"""Look-ahead and exact search: the fewest total guesses that solve every answer.

One search engine serves two purposes:

* **exact** (``ExactSolver(..., exact=True)``): the minimal total number of guesses,
  over *all* allowed guesses (or only possible answers), in normal or hard mode,
  within a guess limit, with the optimal decision tree. It is a proof: every guess is
  either expanded or shown by a lower bound to be no better than the best found.
* **width-limited** (``exact=False``): the same recursion, but only the ``width`` best
  guesses by a partition heuristic are expanded at each node (plus every guess whose
  lower bound is reached for free). This is the ``default`` strategy: far better than
  greedy scores and a tree in about a second.

The recursion, bounds and memo live in :mod:`wordle_core.kernels.exact` (numba); this module
prepares the arrays, walks the root (so progress can be shown), reads the best guesses
back from the memo and builds :class:`~wordle_core.game.tree.Tree` objects.

Value convention: ``value(S, d)`` = minimal sum over answers of the guesses used from
now on, with ``d`` guesses left. A whole game from an opener is
``n + sum(value(bucket, limit - 1))`` over the opener's non-green buckets.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.rules import letter_counts
from wordle_core.game.state import GameState
from wordle_core.game.tree import MAX_DEPTH, Tree, TreeArrays
from wordle_core.kernels import exact as kn
from wordle_core.kernels.buckets import PAIR_SLOTS, check_patterns, count_buckets, pair_cache
from wordle_core.kernels.buckets import transposed as transposed_matrix
from wordle_core.kernels.hard import rule_bitsets
from wordle_core.kernels.walk import TREE_OK
from wordle_core.search.hard import HardSolver

INF = kn.INF
PRUNE_FROM = 80  # ExactSolver.prune_from's default: positions of at least this many answers
SKIP_FROM = 80  # ExactSolver.skip_from's default: positions of at least this many answers


@lru_cache(maxsize=4)
def neighbour_groups(lexicon: Lexicon) -> kn.Neighbours:
    """:func:`wordle_core.kernels.exact.neighbour_groups` of a lexicon's guesses, made once
    per lexicon and process (about 50 ms on ``nyt``) and shared by every solver of it."""
    return kn.neighbour_groups(np.ascontiguousarray(lexicon.guess_codes))


def transposed(lexicon: Lexicon, matrix: np.ndarray | None = None) -> np.ndarray:
    """``MT[answer, guess]`` (C-contiguous, read-only) for sequential scans over guesses:
    the engine's one cached copy per matrix (:func:`wordle_core.kernels.buckets.transposed`),
    shared with the greedy strategies and the feasibility search of the same process."""
    return transposed_matrix(pattern_matrix(lexicon) if matrix is None else matrix)


def estimate_table(n_max: int, weight: float = 0.2) -> np.ndarray:
    """Heuristic cost of a bucket of ``m`` answers: the ``2m - 1`` bound plus a penalty.

    ``2m - 1`` is reached only when one guess splits the bucket into singletons; larger
    buckets rarely are, so ``weight * m * log2(m)`` (the entropy term) estimates the
    extra guesses. The heuristic only orders guesses; it never changes a proven value.
    """
    m = np.arange(n_max + 2, dtype=np.float64)
    est = 2 * m - 1 + weight * m * np.log2(np.maximum(m, 1))
    est[0] = 0.0
    est[1] = 1.0
    est[2] = 3.0
    return est


@dataclass
class SearchStats:
    nodes: int = 0
    scans: int = 0
    evals: int = 0
    hits: int = 0
    cells: int = 0  # (candidate, guess) pattern reads by the full scans
    probes: int = 0  # buckets bounded by their counts alone (kernels.exact.count_bound)
    pruned: int = 0  # positions that bounded them over their undominated guesses (prune_from)
    pruned_guesses: int = 0  # dominated guesses left out there, summed over those positions
    skipped: int = 0  # guesses not expanded: one that dominates them was tried first (skip_from)

    def as_dict(self) -> dict[str, int]:
        return {"nodes": self.nodes, "scans": self.scans, "evals": self.evals,
                "memo_hits": self.hits, "scan_cells": self.cells, "probes": self.probes,
                "pruned_positions": self.pruned, "pruned_guesses": self.pruned_guesses,
                "skipped_guesses": self.skipped}


class _KeptSearch(NamedTuple):
    """The compiled ``Search`` an :class:`ExactSolver` keeps, and the parts it was made of."""

    frames: kn.Frames
    ubs: np.ndarray
    memo: object  # numba typed dict
    width: int
    exact: int
    search: kn.Search


@dataclass
class ExactSolver:
    """Search over one lexicon and mode; the memo is kept across calls (openers share it).

    ``pool``: ``all`` guesses or only ``answers``. ``width``: guesses expanded first at
    each node by the heuristic. ``exact``: also expand every other guess whose bound is
    below the best, which proves the optimum. ``memo_limit``: most positions kept in the
    memo; when a search starts with more, the memo is emptied first (values never
    depend on it: a memo only saves work). :meth:`reset` empties it on demand.
    ``feasibility_first`` (hard mode, exact): before an opener's exact value is searched
    (no ``beta``; a cut-off proof is left as it was, since rankings take the lost openers
    from the shipped verdicts and the check would only add work there), the feasibility
    search decides whether it can win at all (:meth:`opener_wins`); a lost opener is then
    INF at once (the same answer, without the value search's refutation of every line).
    ``False`` searches every opener's value directly (the cross-check).
    ``count_bounds`` (exact search): before a guess's buckets are searched, bound each by
    its bucket counts alone (:func:`wordle_core.kernels.exact.count_bound`), which
    refutes most guesses without a search below them; ``False`` searches the buckets
    directly (the same values: for tests and benchmarks).
    ``prune_from`` (exact search): a position of at least this many answers counts its
    guesses' buckets (``count_bounds``) over a copy of their columns, in order. Normal
    mode, every guess allowed: the guesses that no other guess dominates there
    (:func:`wordle_core.kernels.exact.undominated_rows`, about half of them at the large
    first buckets of weak openers), with a pair cache of their own. Hard mode: every
    allowed guess, for the buckets that keep them all (a feedback that obliges nothing
    new, often the largest bucket; :func:`wordle_core.kernels.exact.localise_rows`).
    ``None``: :data:`PRUNE_FROM`, 0: off (the same values and trees).
    ``skip_from`` (exact search, normal mode, every guess allowed): a position of at least
    this many answers does not expand a guess once a guess that dominates it there
    (:func:`wordle_core.kernels.exact.dominators`) has been tried: its value is no lower,
    so it cannot be the best; ``None``: :data:`SKIP_FROM`, 0: off (the same values and
    trees; a cut-off search's lower bound may come out higher, never above the value).
    ``pair_slots``: how many answer pairs' collision bitsets (1.6 KiB each on ``wordle``)
    normal mode keeps to count sets of at most 32 answers
    (:func:`wordle_core.kernels.buckets.pair_counts`); ``None``: 65,536 for the exact
    search, 8,192 for the width-limited one, 0 (off) in hard mode and with the
    ``answers`` pool, whose guesses are gathered rows. 0 counts them by
    pairwise compares instead: the same numbers, slower, less memory. (The cache holds
    facts of the lexicon, not of positions: :meth:`reset` keeps it.)
    """

    lexicon: Lexicon
    hard: bool = False
    pool: str = "all"
    exact: bool = True
    width: int = 12
    max_guesses: int | None = None
    matrix: np.ndarray | None = None
    weight: float = 0.2
    memo_limit: int | None = None
    feasibility_first: bool = True
    pair_slots: int | None = None
    count_bounds: bool = True
    prune_from: int | None = None
    skip_from: int | None = None
    stats: SearchStats = field(default_factory=SearchStats)

    def __post_init__(self) -> None:
        if self.pool not in ("all", "answers"):
            raise WordleError(f"unknown guess pool {self.pool!r}; use all or answers")
        lex = self.lexicon
        self.matrix = pattern_matrix(lex) if self.matrix is None else self.matrix
        self.limit = int(self.max_guesses or lex.max_guesses)
        self._mt = transposed(lex, self.matrix)
        self._codes = np.ascontiguousarray(lex.guess_codes)
        self._lcounts = np.ascontiguousarray(letter_counts(lex)) if self.hard else \
            np.zeros((1, 1), np.uint8)
        self._arow = np.ascontiguousarray(lex.answer_rows, dtype=np.int32)
        self._est = estimate_table(len(lex.answers), self.weight)
        check_patterns(lex.n_patterns)
        self._green = lex.n_patterns - 1
        self._memo = kn.new_memo()
        self._scratch_c = np.zeros(lex.n_patterns, np.int64)
        self._scratch_t = np.zeros(max(len(lex.answers), lex.n_patterns) + 1, np.int64)
        self._seen = (np.zeros(lex.n_patterns, np.int64), np.zeros(1, np.int64))  # row_is_perfect's stamps
        # the NYT rule as bitsets over the guess rows: each child's allowed rows (hard mode)
        self._rule = rule_bitsets(self._codes, self._lcounts) if self.hard else \
            (np.zeros((1, 1, 1), np.uint64), np.zeros((1, 1, 1), np.uint64))
        self._stats = np.zeros(kn.ST_SKIPPED + 1, np.int64)  # (the kernels' stats slots)
        if self.pair_slots is None:  # only every guess in order uses it (normal mode, all)
            self.pair_slots = 0 if self.hard or self.pool != "all" else \
                PAIR_SLOTS if self.exact else PAIR_SLOTS // 8
        self._pairs = pair_cache(len(lex.answers), len(lex.guesses), self.pair_slots)
        self.pair_slots = int(self._pairs[0].shape[0])  # (0: too many answers for one)
        rows = np.arange(len(lex.guesses), dtype=np.int32)
        if self.pool == "answers":
            rows = np.ascontiguousarray(lex.answer_rows.copy(), dtype=np.int32)
            rows.sort()
        self._base_rows = rows
        self._ub0 = np.full(len(lex.guesses), np.iinfo(np.int32).max, np.int64)
        self._ubs = np.zeros((0, len(lex.guesses)), np.int64)
        self._frames: kn.Frames | None = None
        self._kept_search: _KeptSearch | None = None
        self._search_thread: threading.Thread | None = None
        self._root: tuple[tuple, np.ndarray] | None = None
        self._feasibility: HardSolver | None = None  # made on first use (hard mode)
        self._cg0 = np.full(lex.length, -1, np.int8)
        self._cn0 = np.zeros(len(lex.alphabet), np.uint8)

    def pair_cache_stats(self) -> dict[str, int]:
        """The pair cache's figures so far: ``slots``, pair rows ``made`` and rows
        ``replaced`` (made in a row that held another pair)."""
        used = self._pairs[3]
        return {"slots": int(self.pair_slots or 0), "made": int(used[0]), "replaced": int(used[1])}

    def reset(self) -> None:
        """Forget every memoised position (the next searches start from scratch)."""
        self._memo = kn.new_memo()

    @property
    def memo_size(self) -> int:
        """Positions in the memo now."""
        return len(self._memo)

    # --- hard-mode obligations ----------------------------------------------------------
    def obligations(self, state: GameState | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(green symbol per position or -1, least count per symbol) of a position.

        In hard mode they identify the allowed guesses (part of the memo key); in normal
        mode they are ignored.
        """
        if state is None or not self.hard:
            return self._cg0, self._cn0
        return state.constraints.arrays(self.lexicon.length, len(self.lexicon.alphabet))

    def _cons(self, legal: np.ndarray, cons: tuple[np.ndarray, np.ndarray] | None
              ) -> tuple[np.ndarray, np.ndarray]:
        if cons is not None:
            return cons
        if self.hard and legal.shape[0] != self._base_rows.shape[0]:
            raise WordleError("internal error: a constrained hard-mode position needs its "
                              "obligations (pass cons=solver.obligations(state))")
        return self._cg0, self._cn0

    # --- allowed guesses --------------------------------------------------------------
    def pool_rows(self, legal: np.ndarray | None = None) -> np.ndarray:
        """Allowed rows: the state's legal rows (hard mode) intersected with the pool."""
        if legal is None:
            return self._base_rows
        if self.pool == "answers":
            legal = legal[self.lexicon.guess_is_answer[legal]]
        return np.ascontiguousarray(legal, dtype=np.int32)

    def child_rows(self, legal: np.ndarray, guess: int, pattern: int) -> np.ndarray:
        if not self.hard:
            return legal
        lex = self.lexicon
        return kn.hard_filter(legal, self._codes, self._lcounts, int(guess), int(pattern),
                             lex.length, len(lex.alphabet))

    def _exact_flag(self) -> int:
        """``solve``'s ``exact`` argument: 0 width-limited, 1 exact, 2 exact without
        count bounds."""
        if not self.exact:
            return kn.WIDTH_LIMITED
        return kn.EXACT if self.count_bounds else kn.EXACT_NO_COUNT_BOUNDS

    # --- search -----------------------------------------------------------------------
    def value(self, cands: np.ndarray, legal: np.ndarray, d: int, beta: int = INF + 1,
              cons: tuple[np.ndarray, np.ndarray] | None = None,
              ub: np.ndarray | None = None, interruptible: bool = False) -> int:
        """Value of a position (exact when below ``beta``); memoised.

        ``cons``: the hard-mode obligations of the position (:meth:`obligations`);
        needed in hard mode unless ``legal`` is the whole pool. ``ub``: per guess row, an
        upper bound of its bucket count over ``cands`` (e.g. its count over a superset);
        only used to skip guesses that cannot matter. ``interruptible``: run the
        compiled search (which releases the GIL) in a helper thread while this thread
        waits, so a Ctrl-C or SIGTERM handler runs at once instead of when a search of
        minutes returns (costs a thread start: for long searches only).
        """
        cands = np.ascontiguousarray(cands, dtype=np.int32)
        cg, cn = self._cons(legal, cons)
        self._wait_abandoned()
        if self.memo_limit is not None and len(self._memo) > self.memo_limit:
            self.reset()
        frames = self._frames_for(int(d))
        if self.hard:  # the search finds the children's rows from the root's bitset
            legal = np.ascontiguousarray(legal, dtype=np.int32)
            if legal.size > 1 and not bool(np.all(legal[1:] > legal[:-1])):
                legal = np.unique(legal)  # (ascending, as the bitsets list them)
            kn.rows_bits_into(legal, frames.legal_bits[int(d)])
        args = (self._search(int(d)), cands, legal, cg, cn, self._ub0 if ub is None else ub,
                int(d), int(beta))
        v = self._interruptible(args) if interruptible else kn.solve(*args)
        self._sync_stats()
        return int(v)

    def _interruptible(self, args: tuple) -> int:
        """``kn.solve(*args)`` in a helper thread; this (main) thread waits in short,
        signal-aware joins. If a signal handler raises meanwhile, the search is left to
        finish on its own (it owns the memo and scratch until then, see
        :meth:`_wait_abandoned`) and the exception goes up at once."""
        if threading.current_thread() is not threading.main_thread():
            return kn.solve(*args)  # signals are handled by the main thread anyway
        out: list[int] = []
        err: list[BaseException] = []

        def target() -> None:
            try:
                out.append(kn.solve(*args))
            except BaseException as exc:
                err.append(exc)

        th = threading.Thread(target=target, name="wordle-lab-exact-search", daemon=True)
        self._search_thread = th
        th.start()
        while th.is_alive():
            th.join(0.2)
        self._search_thread = None
        if err:
            raise err[0]
        return out[0]

    def _wait_abandoned(self) -> None:
        """A search left running by an interrupt still owns the memo: wait for it."""
        th = self._search_thread
        if th is not None:
            th.join()
            self._search_thread = None

    def _prune_from(self) -> int:
        """Positions from this many answers count their buckets over a copy of their
        guesses' columns (normal mode: the undominated ones; hard mode: every allowed one;
        0: none)."""
        if not (self.exact and self.count_bounds) or (self.pool != "all" and not self.hard):
            return 0
        return PRUNE_FROM if self.prune_from is None else max(int(self.prune_from), 0)

    def _skip_from(self) -> int:
        """Positions from this many answers skip dominated guesses (0: none)."""
        if not self.exact or self.hard or self.pool != "all":
            return 0
        return SKIP_FROM if self.skip_from is None else max(int(self.skip_from), 0)

    def _ub_scratch(self, d: int) -> np.ndarray:
        """Rows ``0..d`` of per-guess scratch for the search's bucket bounds (kept)."""
        if self._ubs.shape[0] <= d:
            self._ubs = np.zeros((d + 1, len(self.lexicon.guesses)), np.int64)
        return self._ubs

    def _search_args(self, d: int) -> kn.SearchArgs:
        """What the search reads and no node changes (:class:`wordle_core.kernels.exact.SearchArgs`),
        with the scratch for positions with up to ``d`` guesses left."""
        lex = self.lexicon
        return kn.SearchArgs(
            MT=self._mt, codes=self._codes, lcounts=self._lcounts, arow=self._arow,
            ubs=self._ub_scratch(d), width=int(self.width), exact=self._exact_flag(),
            hard=bool(self.hard), memo=self._memo, est=self._est, green=self._green,
            n_pat=lex.n_patterns, scratch_c=self._scratch_c, scratch_t=self._scratch_t,
            seen=self._seen, stats=self._stats, rule=self._rule, pairs=self._pairs)

    def _search(self, d: int) -> kn.Search:
        """The compiled :class:`wordle_core.kernels.exact.Search` for positions with up to
        ``d`` guesses left (:meth:`_search_args` with :meth:`_frames_for`'s scratch), kept
        while none of its parts is replaced (a wider scratch, a new memo, another width)."""
        frames = self._frames_for(d)
        fixed = self._search_args(d)
        kept = self._kept_search
        if kept is not None and kept.frames is frames and kept.ubs is fixed.ubs and \
                kept.memo is fixed.memo and (kept.width, kept.exact) == (fixed.width, fixed.exact):
            return kept.search
        search = kn.new_search(fixed, frames)
        self._kept_search = _KeptSearch(frames, fixed.ubs, fixed.memo, fixed.width, fixed.exact, search)
        return search

    def _frames_for(self, d: int) -> kn.Frames:
        """The search's per-depth scratch (:func:`wordle_core.kernels.exact.frames`) for
        positions with up to ``d`` guesses left (kept; widened when a deeper search comes)."""
        if self._frames is None or self._frames.out.shape[0] <= d:
            lex = self.lexicon
            prune, skip = self._prune_from(), self._skip_from()
            self._frames = kn.frames(max(d, self.limit), len(lex.answers), len(lex.guesses),
                                     lex.n_patterns, lex.length, len(lex.alphabet),
                                     neighbour_groups(lex) if (prune or skip) and not self.hard
                                     else None, prune, skip, self.hard)
        return self._frames

    def best_guess(self, cands: np.ndarray, legal: np.ndarray, d: int,
                   cons: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[int, int]:
        """(value, best guess row) of a position; ties keep the first guess in search order."""
        cands = np.ascontiguousarray(cands, dtype=np.int32)
        n = cands.shape[0]
        if n <= 2:
            return (1 if n == 1 else 3), int(self._arow[cands[0]])
        cg, cn = self._cons(legal, cons)
        v = self.value(cands, legal, d, cons=(cg, cn))
        e = kn.lookup(self._memo, cands, int(d), bool(self.hard), cg, cn)
        if e[1] != 1 or e[2] < 0:
            raise WordleError("no strategy wins every remaining game within the guess limit")
        return v, int(e[2])

    def opener_value(self, opener: int, progress: bool = False, state: GameState | None = None,
                     beta: int = INF + 1, two_level: bool = True) -> int:
        """Total guesses of the best game tree that starts with ``opener`` (INF: impossible).

        With ``beta``: exact when below it, else a lower bound ``>= beta`` (cheap proof
        that an opener is no better than one already known). The buckets not searched
        yet stand in with their two-level bound (``two_level=False``: ``2m - 1``, the
        older, weaker stand-in, kept for ``benchmarks/bench_rank_cut.py``).
        """
        lex = self.lexicon
        st = state or GameState.new(lex, self.hard, self.matrix)
        cands = np.ascontiguousarray(st.candidates, dtype=np.int32)
        legal = self.pool_rows(st.legal_rows if self.hard else None)
        d = self.limit - st.turn
        cg, cn = self.obligations(st)
        cut = beta <= INF
        if self.hard and self.exact and self.feasibility_first and not cut and \
                not self.opener_wins(opener, st, legal):
            return INF
        root_ub = self._root_ub(cands, st) if cut else None
        if cut and two_level:  # each bucket's two-level bound: the cut-off is reached sooner
            out, starts, sizes, pats, lbs = kn.bucket_bounds(
                self._mt, self._codes, self._lcounts, cands, int(opener), legal, self._green,
                lex.n_patterns, bool(self.hard), lex.length, len(lex.alphabet))
        else:
            out, starts, sizes, pats = kn.bucket_split(self._mt, cands, int(opener), self._green,
                                                       lex.n_patterns)
            lbs = 2 * sizes - 1
        total = len(cands)
        rem = int(lbs.sum())
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=int(sizes.sum()), desc=f"{lex.guesses[opener]}", unit="ans",
                       leave=False, disable=None)
        for k in range(len(sizes)):
            m = int(sizes[k])
            rem -= int(lbs[k])
            sub = out[starts[k]:starts[k] + m]
            ccons = kn.cons_child(cg, cn, self._codes, int(opener), int(pats[k]), lex.length) \
                if self.hard else (cg, cn)
            total += self.value(sub, self.child_rows(legal, opener, int(pats[k])), d - 1,
                                beta - total - rem, cons=ccons, ub=root_ub, interruptible=True)
            if bar is not None:
                bar.update(m)
            if total + rem >= beta:
                total += rem
                break
        if bar is not None:
            bar.close()
        return min(total, INF)

    def opener_wins(self, opener: int, state: GameState | None = None,
                    legal: np.ndarray | None = None) -> bool:
        """Hard mode: can ``opener`` (played now) still win every game of the position
        within the guess limit? Decided by the feasibility search of
        :mod:`wordle_core.search.hard` (one solver kept for every opener, with its memo
        and caches), which proves a loss far faster than the value search can: that
        must refute every guess of every lost line. ``legal``: the pool's rows allowed
        now (computed when omitted)."""
        if not self.hard:
            raise WordleError("opener_wins is a hard-mode question; this solver is in normal mode")
        lex = self.lexicon
        st = state or GameState.new(lex, self.hard, self.matrix)
        if legal is None:
            legal = self.pool_rows(st.legal_rows)
        if self._feasibility is None:
            self._feasibility = HardSolver(lex, np.asarray(self.matrix))
        res = self._feasibility.guess_wins(st.candidates, st.constraints, self.limit - st.turn,
                                           int(opener), legal=legal)
        return res.feasible

    def _root_ub(self, cands: np.ndarray, st: GameState) -> np.ndarray:
        """Every guess row's bucket count over the position's candidates (kept for the
        start position): an upper bound of its count over any bucket, so cut-off proofs
        below the opener skip the guesses that cannot matter."""
        key = ("root_ub", st.turn, cands.tobytes())
        if self._root is not None and self._root[0] == key:
            return self._root[1]
        rows = np.arange(len(self.lexicon.guesses), dtype=np.int32)
        nb, _ = count_buckets(self._mt, cands, rows, self._green, self.lexicon.n_patterns)
        ub = nb.astype(np.int64)
        self._root = (key, ub)
        return ub

    def opener_order(self, openers: np.ndarray | Sequence[int] | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
        """(openers sorted by the free bound ``3n - B - [opener is an answer]``, those bounds):
        most buckets first, i.e. roughly best (and cheapest to prove) first; ties alphabetical."""
        lex = self.lexicon
        rows = self._base_rows if openers is None else np.asarray(openers, dtype=np.int32)
        rows = np.ascontiguousarray(rows, dtype=np.int32)
        cands = np.arange(len(lex.answers), dtype=np.int32)
        nb, has_green = count_buckets(self._mt, cands, rows, self._green, lex.n_patterns)
        lb0 = 3 * len(cands) - nb - has_green.astype(np.int64)
        order = np.lexsort((rows, lb0))
        return rows[order], lb0[order]

    def opener_bounds(self, openers: np.ndarray) -> np.ndarray:
        """A lower bound of every opener's total (two levels of the ``3n - B`` bound)."""
        lex = self.lexicon
        cands = np.arange(len(lex.answers), dtype=np.int32)
        return kn.opener_bounds(self._mt, self._codes, self._lcounts, cands,
                                np.ascontiguousarray(openers, dtype=np.int32), self._base_rows,
                                self._green, lex.n_patterns, bool(self.hard), lex.length,
                                len(lex.alphabet))

    def tree(self, opener: int, state: GameState | None = None, timed: bool = True) -> Tree:
        """The optimal (or width-limited) tree from ``opener``, as a :class:`Tree`.

        ``timed=False``: one compiled walk (:meth:`tree_arrays`) where it applies, the
        same nodes without a decision time per node."""
        st = state or GameState.new(self.lexicon, self.hard, self.matrix)
        return Tree.build(_MemoStrategy(self), st, opener, timed=timed)

    def tree_arrays(self, state: GameState, opener: int) -> TreeArrays | None:
        """Every game from ``opener`` at ``state``, each choice this search's best guess
        (:meth:`best_guess` with the state's guesses left), in one compiled walk
        (:func:`wordle_core.kernels.exact.search_tree`): the nodes of :meth:`Tree.build`
        with a chooser that calls :meth:`best_guess` at every position, in the same
        order, without a Python call per position.

        None where the walk does not apply and the caller must play position by
        position: the ``answers`` pool, or a position with no win within its guesses
        left at this search's width (where the ``default`` strategy widens the search).
        The memo is emptied first when it holds more than ``memo_limit`` positions (once
        per tree here, where :meth:`value` checks before every search).
        """
        if self.pool != "all":
            return None
        lex = self.lexicon
        d0 = lex.max_guesses - state.turn
        self._wait_abandoned()
        if self.memo_limit is not None and len(self._memo) > self.memo_limit:
            self.reset()
        frames = self._frames_for(max(d0, 1))
        cg, cn = self.obligations(state)
        legal = self.pool_rows(state.legal_rows if self.hard else None)
        cands = np.ascontiguousarray(state.candidates, dtype=np.int32)
        nodes, status = kn.search_tree(
            np.asarray(self.matrix), self._search_args(max(d0, 1)), frames, self._ub0, int(opener),
            cands, legal, cg, cn, int(d0), MAX_DEPTH - state.turn)
        self._sync_stats()
        if status != TREE_OK:
            return None
        return TreeArrays(*nodes)

    def _sync_stats(self) -> None:
        s = self._stats
        self.stats = SearchStats(*(int(x) for x in s))


class _MemoStrategy:
    """Adapter so :meth:`Tree.build` can read the solver's best guesses."""

    def __init__(self, solver: ExactSolver) -> None:
        self.solver = solver
        self.name = "optimal" if solver.exact else "default"

    def tree_arrays(self, state: GameState, opener_row: int) -> TreeArrays | None:
        return self.solver.tree_arrays(state, opener_row)

    def choose(self, state: GameState) -> int:
        s = self.solver
        legal = s.pool_rows(state.legal_rows if s.hard else None)
        return s.best_guess(state.candidates, legal, state.guesses_left, s.obligations(state))[1]


@dataclass(frozen=True)
class OptimalResult:
    opener: str
    total: int
    n_answers: int
    max_guesses: int
    proven: bool
    seconds: float
    hard: bool
    pool: str
    stats: dict[str, int]
    cpu_seconds: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.n_answers if self.total < INF else math.inf

    def as_dict(self) -> dict[str, object]:
        return {
            "opener": self.opener, "total": self.total if self.total < INF else None,
            "mean": round(self.mean, 6) if self.total < INF else None,
            "max_guesses": self.max_guesses, "proven": self.proven,
            "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
            "hard": self.hard, "guess_pool": self.pool,
            "answers": self.n_answers, "search": self.stats,
        }


def optimal_for_opener(
    lexicon: Lexicon, opener: str, hard: bool = False, max_guesses: int | None = None,
    pool: str = "all", progress: bool = False, solver: ExactSolver | None = None,
    with_tree: bool = False,
) -> tuple[OptimalResult, Tree | None]:
    """Prove the best total for one opener; optionally build the optimal tree.

    ``max_guesses`` in the result is the longest game of the optimal tree when the tree
    is built, else the guess limit the proof respected. Its ``stats`` are this proof's
    alone, also when ``solver`` (and its memo) served earlier openers.
    """
    row = lexicon.guess_id(opener)
    s = solver or ExactSolver(lexicon, hard=hard, pool=pool, exact=True, max_guesses=max_guesses)
    before = s.stats.as_dict()
    t0, c0 = time.perf_counter(), time.process_time()
    total = s.opener_value(row, progress=progress)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    stats = {k: v - before[k] for k, v in s.stats.as_dict().items()}
    tree = None
    longest = s.limit
    if with_tree and total < INF:
        tree = s.tree(row)
        built = int(tree.lengths().sum())
        if built != total:
            raise WordleError(f"internal error: tree total {built} != proven total {total}")
        longest = int(tree.lengths().max())
    res = OptimalResult(lexicon.guesses[row], int(min(total, INF)), len(lexicon.answers), longest,
                        s.exact, secs, hard, pool, stats, cpu)
    return res, tree


@dataclass(frozen=True)
class BestOpener:
    """Outcome of :func:`prove_best_opener`."""

    best: list[str]  # every opener reaching the optimum (alphabetical)
    total: int
    n_answers: int
    openers: int  # openers considered
    evaluated: int  # openers whose value was searched (the rest fell to the root bound)
    seconds: float
    cpu_seconds: float
    values: dict[str, int]  # exact totals met on the way (INF: impossible; others absent)

    def as_dict(self) -> dict[str, object]:
        won = self.total < INF
        return {"best": self.best if won else [], "total": self.total if won else None,
                "mean": round(self.total / self.n_answers, 6) if won else None,
                "openers": self.openers,
                "searched": self.evaluated, "seconds": round(self.seconds, 2),
                "cpu_seconds": round(self.cpu_seconds, 2),
                "values": {w: (v if v < INF else None) for w, v in self.values.items()}}


def prove_best_opener(solver: ExactSolver, openers: np.ndarray | None = None,
                      progress: bool = False) -> BestOpener:
    """The best opener among ``openers`` (default: every allowed first guess), proven.

    Every opener gets a cheap lower bound (two levels of ``3n - B``); openers are then
    searched in order of that bound, each only far enough to show it is no better than the best so far (beta =
    best + 1, so ties are found too), until the next bound exceeds the best total.
    """
    t0, c0 = time.perf_counter(), time.process_time()
    rows = solver._base_rows if openers is None else np.asarray(openers, dtype=np.int32)
    bounds = solver.opener_bounds(rows)
    order = np.lexsort((rows, bounds))
    best = INF
    values: dict[str, int] = {}
    searched = 0
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(rows), desc="openers", unit="op", leave=False, disable=None)
    for i in order:
        if bounds[i] > best:
            break
        searched += 1
        v = solver.opener_value(int(rows[i]), beta=best + 1 if best < INF else INF + 1)
        if v <= best:
            best = v
            values[solver.lexicon.guesses[int(rows[i])]] = v
        if bar is not None:
            bar.update(1)
            bar.set_postfix(best=best)
    if bar is not None:
        bar.close()
    winners = sorted(w for w, v in values.items() if v == best)
    return BestOpener(winners, int(best), len(solver.lexicon.answers), len(rows), searched,
                      time.perf_counter() - t0, time.process_time() - c0,
                      {w: v for w, v in sorted(values.items(), key=lambda kv: (kv[1], kv[0]))})


@dataclass(frozen=True)
class RankedOpener:
    """One opener of :func:`rank_openers`: its exact total, or a lower bound proving it
    is worse than the ``k``-th best."""

    opener: str
    rank: int | None  # 1..k for the k best (ties: alphabetical), else None
    total: int | None  # exact total (INF: no strategy wins every game); None: bound only
    lower_bound: int  # == total when exact
    cpu_seconds: float

    @property
    def proof(self) -> str:
        if self.total is None:
            return "bound"
        return "exact" if self.total < INF else "no-win"


class SearchedOpener(NamedTuple):
    """One search of :func:`rank_openers`, as saved to resume it: the opener, the cut-off
    ``beta`` it was searched with, what the search returned (the exact total if below
    ``beta``, else a lower bound ``>= beta``) and its CPU seconds."""

    opener: str
    beta: int
    value: int
    cpu_seconds: float


@dataclass(frozen=True)
class OpenerRanking:
    """Outcome of :func:`rank_openers`: the ``k`` best openers, proven."""

    k: int
    kth_total: int  # the k-th best total (INF if fewer than k openers win every game)
    n_answers: int
    openers: list[RankedOpener]  # every opener considered: top k first, then by bound
    seconds: float  # this call's wall time
    cpu_seconds: float  # this call's CPU, replayed searches counted at what they cost (resumes add up)
    exact_searches: int  # openers whose exact value a search established (not no_win rows)

    @property
    def top(self) -> list[RankedOpener]:
        return [o for o in self.openers if o.rank is not None]


def rank_openers(solver: ExactSolver, k: int, openers: np.ndarray | None = None,
                 progress: bool = False, no_win: frozenset[int] = frozenset(),
                 searched: Mapping[str, SearchedOpener] | None = None,
                 on_searched: Callable[[SearchedOpener], None] | None = None,
                 bounds: Sequence[int] | None = None,
                 on_bounds: Callable[[list[int]], None] | None = None,
                 verdicts_first: bool = False) -> OpenerRanking:
    """The ``k`` best openers with exact totals, and a proof that every other is worse.

    1. Every opener gets its two-level lower bound (:meth:`ExactSolver.opener_bounds`,
       ``n + sum over buckets of max(2m - 1, min over guesses of 3m - B - [green])``);
       openers are then taken in order of that bound (ties: alphabetical), i.e. likely
       best first.
    2. Until ``k`` exact totals are known each opener is searched exactly; after that with
       ``beta = (k-th best) + 1``: the search returns the exact total (``<=`` the k-th
       best: the opener enters the top k and pushes the old k-th out) or stops as soon as
       a lower bound reaches ``beta`` (strictly worse than the k-th best).
    3. As soon as the next opener's two-level bound exceeds the k-th total, that bound
       alone proves it and every later opener worse: no search is needed for them.

    Every opener outside the top ``k`` thus ends with an exact total or a lower bound
    above the final k-th total (the k-th only decreases). Ties at the k-th total are
    ranked alphabetically. ``no_win``: rows already proven to have no strategy that
    wins every game (e.g. the shipped hard-mode verdicts); they are recorded as such
    without a search. ``verdicts_first`` (hard mode, where no verdicts are given): each
    opener's hard-mode verdict (:meth:`ExactSolver.opener_wins`) is asked before its
    search, and a lost opener is recorded as no-win without one (on ``nyt2023`` about
    half the openers searched are lost, and the verdict proves it some 30 times faster
    than the cut-off search, which often ends with a bound instead). A search that
    proves no win (INF) is recorded as no-win too, whatever the ``k``-th total.

    Resuming: each search's outcome is handed to ``on_searched`` as it finishes (a
    :class:`SearchedOpener`); a later call with the same solver, ``k``, ``no_win`` and
    ``verdicts_first`` that
    passes those outcomes back as ``searched`` (by opener) replays them instead of searching
    again. Openers are taken in the same order and each replayed outcome was found with
    the same ``beta``, so the ranking, the ``k``-th total and every proof are the same as an
    uninterrupted run's (a bound found after the resume point may differ in value, as
    the memo starts empty, but it is still above the final ``k``-th total). The same for
    step 1: ``on_bounds`` receives the two-level bounds (in the order of ``openers``) and
    ``bounds`` hands them back.

    >>> from wordle_core.game.lexicon import Lexicon
    >>> lex = Lexicon.build("toy", ["cat", "cot", "cut", "dog", "dot", "dug"], ["cdt"])
    >>> res = rank_openers(ExactSolver(lex), 2)
    >>> [(o.opener, o.total) for o in res.top], res.kth_total
    ([('cot', 12), ('cut', 12)], 12)
    >>> [(o.opener, o.proof, o.lower_bound) for o in res.openers[-2:]]
    [('cat', 'bound', 13), ('cdt', 'bound', 16)]
    >>> log = []
    >>> first = rank_openers(ExactSolver(lex), 2, on_searched=log.append)
    >>> [(s.opener, s.value) for s in log][:3]
    [('cot', 12), ('cut', 12), ('dog', 12)]
    >>> again = rank_openers(ExactSolver(lex), 2, searched={s.opener: s for s in log[:2]})
    >>> [(o.opener, o.total) for o in again.top] == [(o.opener, o.total) for o in first.top]
    True
    """
    if k < 1:
        raise WordleError("rank needs k >= 1")
    t0, c0 = time.perf_counter(), time.process_time()
    lex = solver.lexicon
    rows = solver._base_rows if openers is None else np.asarray(openers, dtype=np.int32)
    rows = np.ascontiguousarray(rows, dtype=np.int32)
    if bounds is not None:
        if len(bounds) != len(rows):
            raise WordleError(f"{len(bounds):,} saved bounds for {len(rows):,} openers")
        lb2 = np.asarray(bounds, dtype=np.int64)
    else:
        lb2 = _opener_bounds(solver, rows, progress)
        if on_bounds is not None:
            on_bounds(lb2.tolist())
    order = np.lexsort((rows, lb2))
    rows, lb2 = rows[order], lb2[order]
    exact: dict[int, int] = {r: INF for r in rows.tolist() if r in no_win}  # row -> exact total
    bound: dict[int, int] = {}  # row -> lower bound (> k-th at the time)
    secs: dict[int, float] = dict.fromkeys(exact, 0.0)
    top: list[tuple[int, str, int]] = []  # (total, word, row), sorted, at most k
    bar = _bar(progress, len(rows), f"rank {k}")
    searched_here = 0.0  # CPU-s of the searches this call ran (the others: replayed)
    for i in range(len(rows)):
        r = int(rows[i])
        kth = top[-1][0] if len(top) >= k else None
        if r in no_win:  # already in exact
            if bar is not None:
                bar.update(1)
            continue
        if kth is not None and lb2[i] > kth:  # sorted: this bound proves the rest
            for j in range(i, len(rows)):
                rj = int(rows[j])
                if rj not in no_win:
                    bound[rj], secs[rj] = int(lb2[j]), 0.0
            if bar is not None:
                bar.total = bar.n
            break
        beta = kth + 1 if kth is not None else INF + 1
        done = searched.get(lex.guesses[r]) if searched else None
        if done is not None and done.beta == beta:
            v, secs[r] = done.value, done.cpu_seconds
        else:
            if done is not None:
                raise WordleError(f"the saved search of {lex.guesses[r]!r} was cut at {done.beta}, "
                                  f"this run cuts at {beta}: not the same ranking")
            c1 = time.process_time()
            lost = verdicts_first and solver.hard and not solver.opener_wins(r)
            v = INF if lost else solver.opener_value(r, beta=beta)
            secs[r] = time.process_time() - c1
            searched_here += secs[r]
            if on_searched is not None:
                on_searched(SearchedOpener(lex.guesses[r], beta, v, secs[r]))
        if kth is None or v <= kth or v >= INF:  # (INF is exact: no strategy wins)
            exact[r] = v
            if v < INF:
                top.append((v, lex.guesses[r], r))
                top.sort()
                del top[k:]
        else:
            bound[r] = v
        if bar is not None:
            if len(top) >= k:  # openers left to search: those whose bound is <= the k-th
                bar.total = int(np.searchsorted(lb2, top[-1][0], side="right"))
            bar.update(1)
            if top:
                bar.set_postfix(kth=top[-1][0] if len(top) >= k else None, best=top[0][0],
                                next_bound=int(lb2[i]))
    if bar is not None:
        bar.close()
    kth_total = top[-1][0] if len(top) >= k else INF
    ranked = []
    top_rows = {r: n for n, (_, _, r) in enumerate(top, 1)}
    for r in rows.tolist():
        if r in exact:
            ranked.append(RankedOpener(lex.guesses[r], top_rows.get(r), exact[r], exact[r], secs[r]))
        else:
            ranked.append(RankedOpener(lex.guesses[r], None, None, bound[r], secs[r]))
    ranked.sort(key=lambda o: (o.rank is None, o.rank or 0, o.lower_bound, o.opener))
    # CPU: this call's, with every replayed search counted at what it cost when it ran
    cpu = time.process_time() - c0 - searched_here + sum(secs.values())
    return OpenerRanking(k, kth_total, len(lex.answers), ranked, time.perf_counter() - t0,
                         cpu, len(set(exact) - no_win))


def _opener_bounds(solver: ExactSolver, rows: np.ndarray, progress: bool) -> np.ndarray:
    """Step 1 of :func:`rank_openers`: every opener's two-level bound, 512 at a time."""
    bar = _bar(progress, len(rows), "bounds")
    parts = []
    for i in range(0, len(rows), 512):
        parts.append(solver.opener_bounds(rows[i:i + 512]))
        if bar is not None:
            bar.update(len(parts[-1]))
    if bar is not None:
        bar.close()
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _bar(progress: bool, total: int, desc: str):
    """A progress bar of openers (:func:`~wordle_core.search.progress.progress_bar`), or None."""
    if not progress:
        return None
    from wordle_core.search.progress import progress_bar

    return progress_bar(total, desc)
