"""Exact hard-mode feasibility: can an opener guarantee a win within the guess limit?

Whether an opener can win every hard-mode game is a property of the opener, not of a
strategy: it holds iff the AND-OR tree below it has a winning sub-tree. This module
decides it exactly with a depth-first AND-OR search:

* OR node ``(S, C, k)``: candidate set ``S``, hard-mode obligations ``C``, ``k``
  guesses left. Solved iff some guess legal under ``C`` splits ``S`` so that every
  non-green bucket is solved with ``k - 1`` guesses left.
* AND node: a guess; solved iff every bucket is solved (buckets tried largest first,
  because the largest is the likeliest to fail and refute the guess early).

Cheap exact rules and bounds run before any expansion (why each is sound):

* ``|S| = 1`` needs one guess; ``|S| <= k`` is always solvable, because a candidate
  is always legal in hard mode (it satisfies every green and yellow seen so far),
  so guessing the candidates one by one works;
* ``k = 1`` with ``|S| >= 2`` is lost; ``k = 2`` is solvable iff some legal guess
  splits ``S`` into singletons (one vectorised pass);
* a guess whose largest bucket is ``<= k - 1`` wins at once (buckets are then small
  enough to guess one by one), so that check comes first;
* a guess that leaves a bucket equal to ``S`` (no information) is never useful.

Memoisation is by candidate set with *monotonicity*: a win with obligations ``C`` and
``k`` guesses left is also a win with looser obligations (every guess legal under
``C`` stays legal) and more guesses; a loss with ``C`` is a loss under tighter
obligations and fewer guesses. So one proved trap (say ``?ATCH`` with 4 greens) is
reused by every branch that reaches the same candidates with at least those
obligations. The memo is kept per process and shared by all openers it evaluates; it
holds at most ``memo_limit`` positions (about 0.4 KiB each: the candidate ids as 16-bit
bytes, one shared object per distinct obligations), and at the limit the older half is
dropped, so a worker's memory stays bounded over all 12,972 openers.
The compiled 4-left level keeps caches of its own for the solver's lifetime (what a
splitter search found and each 3-left result, keyed by bucket and obligations: both are
functions of those alone, see :func:`~wordle_core.kernels.hard.solve_four`), so they too
serve every node and opener. A lost node also leaves its *core*, the answers that
refuted its guesses and are lost on their own: a later node that contains one, with
obligations at least as tight, is lost without a search (:class:`LostCores`); the memo
keeps each loss's core, and a node's later guesses try the buckets that hold its
earlier refuters first, and those refuters alone first (move ordering that also keeps
the cores small).

Which bucket proves a loss matters: a guess is refuted by any one lost bucket, and
one may be proved lost in a hundredth of a second where the bucket tried first takes
half a minute (NEEDS on ``nyt2023``). So a question asked without a node budget tries
the buckets of the opener, and of each guess at nodes with five or more guesses left,
by *rounds*: each bucket still open gets a node budget that grows fourfold a round
(the compiled 4-left level stops at it too), until one is lost or all are won
(:meth:`HardSolver._refutation_by_rounds`). Verdicts are the same either way.

A node budget bounds the work per opener; when it runs out the verdict is
``unknown`` (never a guess). A ``feasible`` verdict comes with a witness: a complete
hard-mode decision tree that :func:`witness_tree` turns into a :class:`~.tree.Tree`
which is replayed independently (legality and coverage checked) by the tests.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from wordle_core.game.feedback import all_green, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.rules import HardConstraints, letter_counts
from wordle_core.kernels.buckets import bucket_stats, check_patterns, transposed
from wordle_core.kernels.hard import (
    NO_LIMIT,
    UNDECIDED,
    HardGame,
    capacity_table,
    hard_filter,
    kernel_caches,
    solve_four,
    solve_three,
)

# The numba kernel's work (guess x splitter pairs examined) is charged to the node
# budget at this rate, about what one Python-level node costs in time, so a budget
# bounds time as well as being deterministic.
KERNEL_WORK_PER_NODE = 20_000
FEASIBLE, INFEASIBLE, UNKNOWN = "feasible", "infeasible", "unknown"
FIRST_ROUND_NODES = 64  # a bucket's node budget in the first round (_refutation_by_rounds)
ROUND_GROWTH = 4  # and how much more each later round gives it
ROUNDS_FROM = 5  # nodes with this many guesses left or more try their guesses' buckets by rounds
MEMO_LIMIT = 64_000  # positions a worker's memo keeps (~0.37 KiB each); then the older half goes


class MemoEntry(NamedTuple):
    """What the memo knows of one answer set: a win (``guess`` >= 0, ``core`` None) with
    at most ``k`` guesses left under obligations no tighter than ``cons``, or a loss
    (``guess`` -1) with at least ``k`` left under obligations no looser, and ``core``, a
    subset of the set that is lost on its own there (:class:`LostCores`)."""

    cons: HardConstraints
    k: int
    guess: int
    core: np.ndarray | None


class _BudgetExceededError(Exception):
    """Raised inside the search when the node budget of one public call is spent."""


@dataclass(frozen=True)
class HardSearchResult:
    """Outcome of one question put to :class:`HardSolver`.

    ``verdict``: ``feasible`` (a winning strategy exists), ``infeasible`` (proved: none)
    or ``unknown`` (the node budget ran out). ``guess``: for a position, a guess row
    that wins (feasible only), else -1. ``nodes``: OR nodes expanded by this call.
    """

    verdict: str
    guess: int
    nodes: int
    seconds: float

    @property
    def feasible(self) -> bool:
        return self.verdict == FEASIBLE


CORE_LIMIT = 20_000  # lost cores a solver keeps (about 5 MB); then the older half goes


class LostCores:
    """Answer sets proved lost on their own, to refute the larger nodes that contain them.

    Every lost node comes with a *core*: a subset of its answers that no strategy wins
    either. The compiled 4-left level marks the answers of the buckets that refuted its
    guesses; a node with more guesses left takes the union of the cores that refuted
    each of its guesses (every legal guess leaves one of them whole, and a set is lost
    whatever else shares it); the exact rules give the answers beyond the capacity.
    Cores of nodes with 4 or more guesses left are kept here. A core lost with ``k``
    guesses left under obligations ``C`` is lost in every node that contains it, with at
    most ``k`` guesses left and obligations at least ``C``
    (:meth:`HardConstraints.looser_or_equal`): more answers, fewer legal guesses and
    fewer turns only make a win harder. Sibling nodes meet the same trap words again and
    again, so a hit saves a full search (on ``nyt2023`` about a third of a slow,
    infeasible opener's time; docs/notes/hardmode.md).

    Cores are indexed by their smallest answer id, so a lookup touches only the cores
    that could fit; at :data:`CORE_LIMIT` the older half is dropped (forgetting a core
    only costs the search again).

    >>> from wordle_core.game.rules import HardConstraints
    >>> cores = LostCores(10, limit=4)
    >>> cores.add(np.array([2, 5, 7], np.int32), HardConstraints(), 4)
    >>> cores.covers(np.array([1, 2, 5, 7, 9], np.int32), HardConstraints(), 3)
    True
    >>> cores.covers(np.array([2, 5, 9], np.int32), HardConstraints(), 3)  # 7 is missing
    False
    >>> cores.covers(np.array([2, 5, 7], np.int32), HardConstraints(), 5)  # more turns
    False
    """

    def __init__(self, n_answers: int, limit: int = CORE_LIMIT) -> None:
        if limit < 2:
            raise ValueError(f"limit must be at least 2, not {limit}")
        self.limit = limit
        self._anchored = np.zeros(n_answers, dtype=bool)
        self._by_anchor: dict[int, list[tuple[np.ndarray, HardConstraints, int]]] = {}
        self._order: list[int] = []  # anchors in insertion order, one per core
        self.hits = 0

    def __len__(self) -> int:
        return len(self._order)

    def __iter__(self) -> Iterator[tuple[np.ndarray, HardConstraints, int]]:
        """Every core kept: (answer ids, obligations, guesses left)."""
        for entries in self._by_anchor.values():
            yield from entries

    def add(self, core: np.ndarray, cons: HardConstraints, k: int) -> None:
        """Remember that the answer ids ``core`` (sorted) are lost with ``k`` guesses
        left under ``cons``."""
        if len(self._order) >= self.limit:
            self._drop_older_half()
        anchor = int(core[0])
        self._by_anchor.setdefault(anchor, []).append((core, cons, int(k)))
        self._anchored[anchor] = True
        self._order.append(anchor)

    def covers(self, S: np.ndarray, cons: HardConstraints, k: int) -> bool:
        """Does the node ``S`` (sorted answer ids), ``k`` guesses left under ``cons``,
        contain a core lost with at least ``k`` left under obligations no tighter?"""
        return self.find(S, cons, k) is not None

    def find(self, S: np.ndarray, cons: HardConstraints, k: int) -> np.ndarray | None:
        """The first core that :meth:`covers` the node, or None."""
        anchors = S[self._anchored[S]]
        if not len(anchors):
            return None
        inside = np.zeros(len(self._anchored), dtype=bool)
        inside[S] = True
        for a in anchors.tolist():
            for core, c, kc in self._by_anchor[a]:
                if k <= kc and inside[core].all() and c.looser_or_equal(cons):
                    self.hits += 1
                    return core
        return None

    def _drop_older_half(self) -> None:
        drop = self._order[: len(self._order) // 2]
        self._order = self._order[len(drop):]
        for a in drop:  # each anchor's list is in insertion order too
            entries = self._by_anchor[a]
            del entries[0]
            if not entries:
                del self._by_anchor[a]
                self._anchored[a] = False


@dataclass
class HardSolver:
    """The search over one lexicon's pattern matrix; reusable across openers (shared memo)."""

    lexicon: Lexicon
    matrix: np.ndarray
    memo: dict[bytes, list[MemoEntry]] = field(default_factory=dict)
    use_kernel: bool = True  # False: the pure-numpy path everywhere (a cross-check)
    child_order: str = "greens"  # bucket order at AND nodes: "greens" (traps first) or "size"
    memo_limit: int = MEMO_LIMIT  # positions kept; at the limit the older half is dropped
    use_cores: bool = True  # False: no lost cores (LostCores) reused (a cross-check)
    by_rounds: bool = True  # False: every guess's buckets in one pass, in order (a cross-check)
    first_round: int = FIRST_ROUND_NODES  # a bucket's node budget in the first round

    def __post_init__(self) -> None:
        lex = self.lexicon
        self.codes = np.ascontiguousarray(lex.guess_codes)
        self.counts = letter_counts(lex)
        check_patterns(lex.n_patterns)
        self.n_patterns = lex.n_patterns
        self.green = all_green(lex.length)
        digits = np.zeros((self.n_patterns, lex.length), dtype=np.int8)
        code = np.arange(self.n_patterns)
        for pos in range(lex.length - 1, -1, -1):
            digits[:, pos] = code % 3
            code //= 3
        self.digits = digits
        self.n_green = (digits == 2).sum(axis=1)
        # green positions of each pattern as a bitmask, and the capacity bound
        self.pgmask = ((digits == 2) * (1 << np.arange(lex.length))).sum(axis=1).astype(np.int64)
        self.cap = capacity_table(lex.length, lex.max_guesses + 1)
        self.arow = np.ascontiguousarray(lex.answer_rows, dtype=np.int32)
        self._popcount = np.array([bin(m).count("1") for m in range(1 << lex.length)], np.int64) \
            if lex.length <= 16 else None
        self.answer_rows = lex.answer_rows
        self.n_alpha = len(lex.alphabet)
        self.mat = np.ascontiguousarray(self.matrix)  # load a memory map once
        self.mt = transposed(self.mat)  # answers x guesses, for the shared bucket primitives
        self.nodes = 0
        self._budget = 1 << 62
        self._n_answers = len(lex.answers)
        self._caches = kernel_caches()  # the 4-left kernel's, shared by every node and opener
        self.cores = LostCores(self._n_answers)  # the 4-left level's lost cores (LostCores)
        if self.memo_limit < 2:
            raise ValueError(f"memo_limit must be at least 2, not {self.memo_limit}")
        self._key_dtype = np.uint16 if self._n_answers <= 1 << 16 else np.int32
        self._interned: dict[HardConstraints, HardConstraints] = {}
        self.evictions = 0  # times the memo reached its limit
        self._shown = 0  # guesses left at the node whose progress is shown (0: none)
        self._escalate = 0  # an unbudgeted call's guesses left: its buckets go by rounds (0: none)
        self._rounds = False  # inside a round (its budget also stops the 4-left kernel)

    # --- obligations (the one hard-mode rule: game.rules.HardConstraints) ----------------
    def child(self, cons: HardConstraints, legal: np.ndarray, guess: int,
              pattern: int) -> tuple[HardConstraints, np.ndarray]:
        """Obligations and legal rows after ``guess`` showed ``pattern`` (legal shrinks only)."""
        lex = self.lexicon
        return (cons.add(self.codes[guess], pattern),
                hard_filter(legal, self.codes, self.counts, int(guess), int(pattern),
                            lex.length, self.n_alpha))

    # --- public questions -------------------------------------------------------------
    def _run(self, fn, budget: int | None) -> tuple[str, int, int, float]:
        t0 = time.perf_counter()
        self.nodes = 0
        self._budget = (1 << 62) if budget is None else int(budget)
        try:
            res = fn()
            verdict = FEASIBLE if res >= 0 else INFEASIBLE
        except _BudgetExceededError:
            res, verdict = -1, UNKNOWN
        return verdict, int(res), int(self.nodes), time.perf_counter() - t0

    def solve_position(self, cands: np.ndarray, cons: HardConstraints, k: int,
                       legal: np.ndarray | None = None, budget: int | None = None) -> HardSearchResult:
        """Can every answer in ``cands`` be won within ``k`` guesses under ``cons``?

        ``legal``: the guess rows allowed by ``cons`` when the caller has them
        (computed from ``cons`` otherwise); ``budget``: OR nodes before ``unknown``
        (None: no limit, the search always decides).
        """
        S = np.sort(np.asarray(cands)).astype(np.int32)
        rows = self._legal(cons, legal)
        self._cover(int(k))
        verdict, g, nodes, secs = self._run(lambda: self.solve(S, cons, rows, int(k)), budget)
        return HardSearchResult(verdict, g, nodes, secs)

    def guess_wins(self, cands: np.ndarray, cons: HardConstraints, k: int, guess: int,
                   legal: np.ndarray | None = None, budget: int | None = None,
                   progress: bool = False) -> HardSearchResult:
        """Does playing ``guess`` now (``k`` guesses left, ``guess`` one of them) win every game?

        ``progress``: progress bars on stderr for a search that takes seconds (the answers
        reached after ``guess``; the guesses tried at the bucket being searched), shown
        after 2 s, on a terminal in place, in a log one line every 30 s."""
        S = np.sort(np.asarray(cands)).astype(np.int32)
        rows = self._legal(cons, legal)
        self._cover(int(k))
        g = int(guess)
        self._shown = int(k) if progress else 0
        self._escalate = int(k) if budget is None and self.by_rounds else 0  # (budgeted: as before)
        try:
            verdict, _, nodes, secs = self._run(
                lambda: g if self._guess_wins(S, cons, rows, int(k), g) else -1, budget)
        finally:
            self._shown = self._escalate = 0
        return HardSearchResult(verdict, g if verdict == FEASIBLE else -1, nodes, secs)

    def recall(self, cands: np.ndarray, cons: HardConstraints, k: int) -> str:
        """What is already known about a position, without searching: ``feasible`` or
        ``infeasible`` when the exact rules (one guess per candidate when they fit, the
        capacity bound, one guess left), the memo of earlier searches or a lost core it
        contains (:class:`LostCores`) decide it, else
        ``unknown``. Reads only: no node is expanded and the memo is left as it was, so it
        costs microseconds, and what it answers is as exact as :meth:`solve_position`.

        >>> from wordle_core.game.lexicon import Lexicon
        >>> lex = Lexicon.build("demo", ["batch", "catch", "hatch", "latch"],
        ...                     ["batch", "catch", "hatch", "latch"], max_guesses=3)
        >>> s = HardSolver(lex, pattern_matrix(lex))
        >>> s.recall(np.arange(4), HardConstraints(), 5)  # 4 candidates, 5 guesses: one each
        'feasible'
        >>> s.recall(np.arange(4), HardConstraints(), 1)  # 4 candidates, 1 guess
        'infeasible'
        >>> s.recall(np.arange(4), HardConstraints(), 3)  # not decided by a rule; nothing searched
        'unknown'
        >>> s.solve_position(np.arange(4), HardConstraints(), 3).verdict
        'infeasible'
        >>> s.recall(np.arange(4), HardConstraints(), 3)  # now in the memo
        'infeasible'
        """
        S = np.sort(np.asarray(cands)).astype(np.int32)
        k = int(k)
        self._cover(k)
        hit = self._by_rules(S, cons, k)
        if hit is None:
            hit = self._recalled(S, self._key(S), cons, k)
        return UNKNOWN if hit is None else FEASIBLE if hit[0] >= 0 else INFEASIBLE

    def _by_rules(self, S: np.ndarray, cons: HardConstraints,
                  k: int) -> tuple[int, np.ndarray | None] | None:
        """The exact rules' answer for a sorted answer-id set: ``(winning guess row, None)``,
        ``(-1, core)`` for a proved loss (the core: the first answers beyond what ``k``
        guesses can separate under these greens, lost by the same rule), None when no
        rule decides (the search, or the memo, must)."""
        n = len(S)
        if n <= k:  # every candidate stays legal: guess them one by one
            return int(self.answer_rows[S[0]]), None
        cap = int(self.cap[self.lexicon.length - len(cons.greens), k])  # (1 with one guess left)
        if n > cap:  # more candidates than any strategy can separate (capacity_table)
            return -1, S[: cap + 1].copy()
        return None

    def _recalled(self, S: np.ndarray, skey: bytes, cons: HardConstraints, k: int,
                  remember: bool = False) -> tuple[int, np.ndarray | None] | None:
        """What the memo or a lost core that ``S`` contains says of a node the rules leave
        open (``skey``: its memo key), as :meth:`_by_rules` says it, or None; with
        ``remember``, a loss found by a core is then written to the memo."""
        hit = self._lookup(skey, cons, k)
        if hit is not None:
            return hit
        core = self.cores.find(S, cons, k) if self.use_cores else None
        if core is None:
            return None
        if remember:
            self._store(skey, cons, k, -1, core)
        return -1, core

    def _cover(self, k: int) -> None:
        """Widen the capacity table for searches with up to ``k`` guesses (a guess limit
        above the lexicon's own)."""
        if k + 1 > self.cap.shape[1]:
            self.cap = capacity_table(self.lexicon.length, k + 1)

    def _legal(self, cons: HardConstraints, legal: np.ndarray | None) -> np.ndarray:
        if legal is None:
            return cons.legal_rows(self.lexicon)
        return np.ascontiguousarray(legal, dtype=np.int32)

    # --- memo -------------------------------------------------------------------------
    def _lookup(self, skey: bytes, cons: HardConstraints, k: int) -> tuple[int, np.ndarray | None] | None:
        """Memo answer: ``(winning guess row, None)``, ``(-1, core)`` for a proved loss,
        None if unknown."""
        for c, k_memo, res, core in self.memo.get(skey, ()):
            if res >= 0:
                if k >= k_memo and cons.looser_or_equal(c):
                    return res, None
            elif k <= k_memo and c.looser_or_equal(cons):
                return -1, core
        return None

    def _key(self, S: np.ndarray) -> bytes:
        """The memo key of a sorted answer-id set: its ids as bytes (16-bit when they fit)."""
        return S.astype(self._key_dtype).tobytes()

    def _store(self, skey: bytes, cons: HardConstraints, k: int, res: int,
               core: np.ndarray | None) -> None:
        if len(self.memo) >= self.memo_limit:
            self._evict()
        # one object per distinct obligations: ~7x fewer than entries (about 700 bytes each)
        cons = self._interned.setdefault(cons, cons)
        self.memo.setdefault(skey, []).append(MemoEntry(cons, k, res, core))

    def _evict(self) -> None:
        """Drop the older half of the memo (insertion order): recent positions are the
        likeliest to recur (the next openers of a worker share their first levels), and
        forgetting a position never changes a verdict, it only costs the work again."""
        drop = len(self.memo) - self.memo_limit // 2
        for key in list(itertools.islice(self.memo, drop)):
            del self.memo[key]
        self._interned = {e.cons: e.cons for entries in self.memo.values() for e in entries}
        self.evictions += 1

    # --- search -----------------------------------------------------------------------
    def solve(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray, k: int) -> int:
        """A guess row that wins every game in ``S`` within ``k`` guesses, or -1 if none.

        ``S`` holds answer ids, ``legal`` the guess rows allowed by ``cons``.
        """
        return self._solve(S, cons, legal, k)[0]

    def _solve(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray,
               k: int) -> tuple[int, np.ndarray | None]:
        """:meth:`solve`, and with a loss its core: a subset of ``S`` lost on its own."""
        known = self._by_rules(S, cons, k)
        if known is not None:
            return known
        skey = self._key(S)
        known = self._recalled(S, skey, cons, k, remember=True)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self._budget:
            raise _BudgetExceededError
        res, core = self._expand(S, cons, legal, k)
        self._store(skey, cons, k, res, core)
        if core is not None and self.use_cores and k >= 4 and len(core) > k:
            self.cores.add(core, self._interned.setdefault(cons, cons), k)
        return res, core

    def _expand(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray,
                k: int) -> tuple[int, np.ndarray | None]:
        n = len(S)
        if k in (3, 4) and self.use_kernel:
            return self._expand_compiled(S, cons, legal, k)
        st = bucket_stats(self.mat, legal, S, self.n_patterns)
        largest, sum_sq = st.largest, st.sum_sq
        is_cand = np.zeros(self.mat.shape[0], dtype=bool)
        is_cand[self.answer_rows[S]] = True
        cand = is_cand[legal]
        if k == 2:
            ok = largest == 1
            return (int(legal[_first(ok, cand)]), None) if ok.any() else (-1, S)
        quick = largest <= k - 1
        if quick.any():
            return int(legal[_first(quick, cand)]), None
        # Useful guesses only: no bucket equal to S. Order: smallest largest bucket,
        # then smallest expected size, then a candidate, then alphabetical.
        useful = ~((largest == n) & ~cand)
        idx = np.flatnonzero(useful)
        order = idx[np.lexsort((idx, ~cand[idx], sum_sq[idx], largest[idx]))]
        in_core = np.zeros(self._n_answers, dtype=bool)  # the refuting answers so far
        bar = _bar(len(order), "guesses tried", "guess") if k == self._shown - 1 else None
        try:
            for i in order:
                g = int(legal[i])
                refuted = self._refutation(S, cons, legal, k, g, in_core)
                if refuted is None:
                    return g, None
                in_core[refuted] = True
                if bar is not None:
                    bar.update()
        finally:
            if bar is not None:
                bar.close()
        # Every useful guess leaves one of the refuting buckets whole, and a guess that
        # splits none of S splits none of them either: together they are lost on their own.
        return -1, (np.flatnonzero(in_core).astype(np.int32) if len(order) else S)

    def _expand_compiled(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray,
                         k: int) -> tuple[int, np.ndarray | None]:
        """The 3- and 4-left levels in the numba kernels; the 4-left one marks a lost
        node's core (the 3-left one's loss is its whole set)."""
        n = len(S)
        is_row = np.zeros(self.mat.shape[0], dtype=np.uint8)
        is_row[self.answer_rows[S]] = 1
        greens, need = cons.arrays(self.lexicon.length, self.n_alpha)
        game = HardGame(self.mat, self.mt, self.codes, self.counts, self.digits, int(self.green),
                        self.cap, self.arow)
        rows = legal.astype(np.int32)
        args = (game, S.astype(np.int32), rows, greens, need, is_row)
        core = S
        if k == 3:
            g, work = solve_three(*args)
        else:
            why = np.zeros(n, np.uint8)  # (the kernel marks a lost node's refuting answers)
            g, work = solve_four(*args, rows, why, self._caches, self._kernel_limit())
            if g < 0 and self.use_cores:
                core = S[why.astype(bool)]
        self.nodes += int(work) // KERNEL_WORK_PER_NODE
        if self.nodes > self._budget or g == UNDECIDED:
            raise _BudgetExceededError
        return (int(g), None) if g >= 0 else (-1, core)

    def _kernel_limit(self) -> int:
        """The 4-left kernel's work limit: what is left of a round's node budget
        (:meth:`_refutation_by_rounds`), so that a round stops inside the kernel too;
        outside rounds none (a caller's own budget is checked after the kernel, as it
        always was, so budgeted verdicts do not change)."""
        if not self._rounds:
            return NO_LIMIT
        return min(max(self._budget - self.nodes, 0) * KERNEL_WORK_PER_NODE, NO_LIMIT)

    def _guess_wins(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray, k: int, g: int) -> bool:
        return self._refutation(S, cons, legal, k, g) is None

    def _refutation(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray, k: int, g: int,
                    first: np.ndarray | None = None) -> np.ndarray | None:
        """None if guess row ``g`` wins every game of ``S`` within ``k`` guesses, else a
        core of the bucket that refutes it (a set of answers, all with one feedback to
        ``g``, lost on their own). ``first``: an answer mask; buckets holding one of its
        answers are tried first (they refuted the node's earlier guesses)."""
        pats = self.mat[g, S]
        order = np.argsort(pats, kind="stable")
        sp = pats[order]
        cuts = np.flatnonzero(np.diff(sp)) + 1
        starts = np.concatenate(([0], cuts))
        ends = np.append(cuts, len(sp))
        sizes = ends - starts
        # capacity first (cheap, exact): a bucket too big for k-1 guesses under its
        # greens refutes the guess before any search
        cmask = 0
        for pos, _ in cons.greens:
            cmask |= 1 << pos
        bpats = sp[starts]
        masks = cmask | self.pgmask[bpats]
        ones = self._popcount[masks] if self._popcount is not None else _popcount(masks)
        free = self.lexicon.length - ones
        caps = self.cap[free, k - 1]
        over = np.flatnonzero((sizes > caps) & (bpats != self.green))
        if len(over):
            j = int(over[0])
            return np.sort(S[order[starts[j]:ends[j]]])[: int(caps[j]) + 1]
        if self.child_order == "greens":
            # Trap-like buckets first (most greens, then largest): a failing bucket
            # refutes the guess, and hard-mode traps are buckets with many greens.
            greens = self.n_green[sp[starts]]
            seq = np.lexsort((-sizes, -greens))
        else:
            seq = np.argsort(-sizes, kind="stable")
        if first is not None:  # move ordering: buckets that hold earlier refuters first
            marked = np.zeros(len(starts), dtype=bool)
            marked[np.searchsorted(starts, np.flatnonzero(first[S[order]]), "right") - 1] = True
            seq = seq[np.argsort(~marked[seq], kind="stable")]
        buckets = ((int(sp[starts[j]]), S[order[starts[j]:ends[j]]]) for j in seq)  # (lazily)
        bar = _bar(len(S), self.lexicon.guesses[g], "ans") if k == self._shown else None
        try:
            if self._escalate and (k == self._escalate or k >= ROUNDS_FROM):
                return self._refutation_by_rounds(list(buckets), cons, legal, k, g, first, bar)
            for pat, sub in buckets:
                if bar is not None:  # (the answers reached so far)
                    bar.update(len(sub))
                if pat == self.green or len(sub) <= max(1, k - 1):
                    continue
                core = self._bucket_refutation(np.sort(sub), cons, legal, k, g, pat, first)
                if core is not None:
                    return core
        finally:
            if bar is not None:
                bar.close()
        return None

    def _refutation_by_rounds(self, buckets: list[tuple[int, np.ndarray]], cons: HardConstraints,
                              legal: np.ndarray, k: int, g: int, first: np.ndarray | None,
                              bar: Any) -> np.ndarray | None:
        """:meth:`_refutation` of the buckets ``(pattern, answers)`` of guess row
        ``g`` (in :meth:`_refutation`'s order) when one lost bucket may be far cheaper to
        prove than another. Each bucket still open gets a node budget per round,
        :attr:`first_round` in the first and :data:`ROUND_GROWTH` times more in each later
        one, until one is proved lost or all are won; a round stopped half way keeps
        what it finished (the memo, the kernel's caches), and a stopped bucket waits for
        the next round. The loss found is then nearly the cheapest to prove: ``nyt2023``'s
        NEEDS is lost by a 33-answer bucket in about 0.5 CPU-s rather than by the
        244-answer one tried first in 39, and EPEES's 405-answer bucket, searched by
        rounds at its 5-left guesses, in 128 CPU-s rather than 274 (docs/notes/hardmode.md).
        A won guess costs a little more (every bucket must be won, some twice in part).
        The verdict is the same either way (``by_rounds=False`` checks it)."""
        open_ = [(p, np.sort(sub)) for p, sub in buckets if p != self.green and len(sub) > max(1, k - 1)]
        if bar is not None:  # (the answers of the buckets that need no search)
            bar.update(sum(len(sub) for _, sub in buckets) - sum(len(sub) for _, sub in open_))
        outer, outer_rounds = self._budget, self._rounds
        allowance = self.first_round
        self._rounds = True
        try:
            while open_:
                left = []
                for pat, sub in open_:
                    # one bucket left open: nothing to choose between, so no round budget
                    self._budget = outer if len(open_) == 1 else min(outer, self.nodes + allowance)
                    try:
                        core = self._bucket_refutation(sub, cons, legal, k, g, pat, first)
                    except _BudgetExceededError:
                        if self._budget >= outer:
                            raise
                        left.append((pat, sub))
                        continue
                    if core is not None:
                        return core
                    if bar is not None:
                        bar.update(len(sub))
                open_ = left
                allowance *= ROUND_GROWTH
        finally:
            self._budget, self._rounds = outer, outer_rounds
        return None

    def _bucket_refutation(self, sub: np.ndarray, cons: HardConstraints, legal: np.ndarray, k: int,
                           g: int, pat: int, first: np.ndarray | None) -> np.ndarray | None:
        """A core of the bucket ``sub`` (sorted) that guess row ``g`` answers with ``pat``
        when it is lost with ``k - 1`` guesses left, else None."""
        ccons, clegal = self.child(cons, legal, g, pat)
        if first is not None:
            # the bucket's share of the earlier refuters first: if it alone is lost,
            # so is the bucket, and the node's core does not grow
            part = sub[first[sub]]
            if k - 1 < len(part) < len(sub):
                res, core = self._solve(part, ccons, clegal, k - 1)
                if res < 0:
                    return core
        res, core = self._solve(sub, ccons, clegal, k - 1)
        return core if res < 0 else None

    # --- witness -----------------------------------------------------------------------
    def witness_of_guess(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray, k: int,
                         guess: int) -> dict[str, object]:
        """The nested winning tree that starts with ``guess`` (which must win: see :meth:`guess_wins`)."""
        self._budget = 1 << 62
        node: dict[str, object] = {"guess": self.lexicon.guesses[guess]}
        nxt: dict[str, object] = {}
        pats = self.mat[guess, S]
        for pat in np.unique(pats):
            if pat == self.green:
                continue
            sub = np.sort(S[pats == pat])
            ccons, clegal = self.child(cons, legal, guess, int(pat))
            nxt[pattern_to_str(int(pat), self.lexicon.length)] = self._witness(sub, ccons, clegal, k - 1)
        if nxt:
            node["next"] = nxt
        return node

    def _witness(self, S: np.ndarray, cons: HardConstraints, legal: np.ndarray, k: int) -> dict[str, object]:
        g = self.solve(S, cons, legal, k)
        if g < 0:
            raise RuntimeError("witness requested for an unsolved node")
        return self.witness_of_guess(S, cons, legal, k, g)


def _bar(total: int, desc: str, unit: str) -> Any:
    """A progress bar of the search (:func:`~wordle_core.search.progress.progress_bar`),
    shown once it has run 2 s and gone when done."""
    from wordle_core.search.progress import progress_bar

    return progress_bar(total, desc, unit, transient=True, delay=2.0)


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each (small, non-negative) integer."""
    x = np.asarray(x, dtype=np.int64)
    out = np.zeros(x.shape, np.int64)
    while np.any(x):
        out += x & 1
        x = x >> 1
    return out


def _first(mask: np.ndarray, cand: np.ndarray) -> int:
    """First index where ``mask`` holds, preferring a candidate (the project's tie rule)."""
    both = mask & cand
    return int(np.argmax(both)) if both.any() else int(np.argmax(mask))


_SOLVERS: dict[str, HardSolver] = {}


def solver_for(lexicon: Lexicon, matrix: np.ndarray | None = None) -> HardSolver:
    """One solver (and memo) per lexicon per process, so openers share proved nodes."""
    s = _SOLVERS.get(lexicon.fingerprint)
    if s is None:
        s = HardSolver(lexicon, pattern_matrix(lexicon) if matrix is None else matrix)
        _SOLVERS[lexicon.fingerprint] = s
    return s


def forget_solvers() -> int:
    """Drop this process's solvers (:func:`solver_for`), with their memos and kernel
    caches (at their caps about 23 MiB of memo, :data:`MEMO_LIMIT` positions, 32 MB of
    kernel caches and about 5 MB of lost cores); returns how many there were.

    A caller that has finished its verdicts gives the memory back this way; a later
    verdict builds a new solver. A verdict never depends on a memo, only its time does.

    >>> forget_solvers() >= 0
    True
    """
    n = len(_SOLVERS)
    _SOLVERS.clear()
    return n


def hard_verdict(
    lexicon: Lexicon,
    opener_row: int,
    matrix: np.ndarray | None = None,
    node_budget: int | None = None,
    witness: bool = False,
    progress: bool = False,
) -> dict[str, Any]:
    """Exact verdict for one opener: ``feasible`` / ``infeasible`` / ``unknown``.

    Returns ``{"opener", "verdict", "seconds", "nodes"}`` (``nodes``: OR nodes
    expanded for this opener) plus ``"tree"`` (nested witness) when ``witness`` and
    the verdict is feasible. ``unknown`` means the node budget ran out (``None``: no
    budget). ``progress``: progress bars on stderr (:meth:`HardSolver.guess_wins`).
    """
    solver = solver_for(lexicon, matrix)
    opener_row = int(opener_row)
    cands = np.arange(len(lexicon.answers), dtype=np.int32)
    root = HardConstraints()
    all_rows = np.arange(len(lexicon.guesses), dtype=np.int32)
    res = solver.guess_wins(cands, root, lexicon.max_guesses, opener_row, all_rows, node_budget,
                            progress=progress)
    out: dict[str, object] = {
        "opener": lexicon.guesses[opener_row],
        "verdict": res.verdict,
        "seconds": round(res.seconds, 3),
        "nodes": res.nodes,
    }
    if witness and res.verdict == FEASIBLE:
        out["tree"] = solver.witness_of_guess(cands, root, all_rows, lexicon.max_guesses, opener_row)
    return out
