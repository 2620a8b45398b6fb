"""The evil host ("Wordle Solver" (2022)) and the exact search for the shortest way to beat it.

The host never commits to an answer. It keeps the set of answers consistent with
everything it has said; for each guess it splits that set by the pattern each word
would show and answers with the pattern of the **largest** group, so it never lies
and always tells as little as it can. Tie rule (documented, deterministic): among
equally large groups it answers with the **lowest pattern code** (base 3, first
position most significant, gray = 0), i.e. the reply with the fewest/least-left
greens and yellows. All-green is the highest code, so the host says "solved" only
when the guess is the single word it has left.

Because the host is deterministic, beating it is a one-player puzzle: a guess sequence
maps to one forced reply sequence. :func:`evil_solve` finds the shortest sequence that
ends in all-green by iterative deepening over guesses, with only *sound* pruning, so a
failed depth is a proof that no shorter sequence exists:

* a position with ``s`` words left needs at least ``1 + lb(ceil(s / B))`` guesses,
  where ``B`` bounds the groups one guess can make: the number of patterns at the
  start, then the most groups any allowed guess made on an ancestor position (a subset
  of words never splits into more groups; in hard mode the allowed guesses only
  shrink). The host keeps the largest group, so it has at least ``ceil(s / B)`` words;
* a position with 2+ words is won in two guesses only by a guess that splits it into
  singletons: a compiled scan that drops each guess at its first repeated pattern;
* positions already refuted at a depth are remembered (memo on the candidate set and,
  in hard mode, the obligations).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.feedback import all_green, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState
from wordle_core.kernels.buckets import bucket_counts, bucket_stats, first_perfect_split


def evil_reply(matrix: np.ndarray, candidates: np.ndarray, guess_row: int, n_patterns: int) -> int:
    """The host's reply: the pattern of the largest group, ties to the lowest code."""
    counts = bucket_counts(matrix, guess_row, candidates, n_patterns)
    return int(np.argmax(counts))  # argmax returns the first (lowest) code among ties


@dataclass
class EvilHost:
    """A game against the host: ``guess`` returns its reply and narrows the words in play."""

    state: GameState

    @classmethod
    def new(cls, lexicon: Lexicon, hard: bool = False, matrix: np.ndarray | None = None) -> EvilHost:
        return cls(GameState.new(lexicon, hard, matrix))

    def reply_to(self, guess_row: int) -> int:
        st = self.state
        return evil_reply(st.matrix, st.candidates, guess_row, st.lexicon.n_patterns)

    def guess(self, guess_row: int) -> int:
        """Answer a guess (hard-mode legality is checked first) and remember the reply."""
        if self.state.hard:
            self.state.constraints.check(self.state.lexicon, guess_row)
        pattern = self.reply_to(guess_row)
        self.state = self.state.apply(guess_row, pattern)
        return pattern

    @property
    def solved(self) -> bool:
        return self.state.solved


# --- the exact search ------------------------------------------------------------------
def _lower_bound(size: int, groups: int) -> int:
    """Guesses needed at least from ``size`` words when a guess makes at most ``groups``."""
    need = 1
    while size > 1:
        size = math.ceil(size / groups)
        need += 1
    return need


@dataclass
class EvilSolution:
    """The result of :func:`evil_solve`: the shortest win and the proof of its length."""

    lexicon: str
    hard: bool
    guesses: list[str]
    replies: list[str]
    length: int | None  # None: not found within the search limits
    proven_lower_bound: int  # no win in fewer guesses exists (every shorter depth refuted)
    positions: int  # positions whose guesses were all scored
    seconds: float
    depths: list[dict[str, object]] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "lexicon": self.lexicon, "hard": self.hard, "length": self.length,
            "proven_lower_bound": self.proven_lower_bound, "guesses": self.guesses,
            "replies": self.replies, "positions_scored": self.positions,
            "seconds": round(self.seconds, 3), "depths": self.depths,
        }


class _BudgetError(Exception):
    pass


class _Search:
    def __init__(self, root: GameState, max_positions: int, progress: bool) -> None:
        self.root = root
        self.lex = root.lexicon
        self.P = self.lex.n_patterns
        self.green = all_green(self.lex.length)
        self.refuted: dict[object, int] = {}  # position key -> deepest depth refuted
        self.positions = 0
        self.max_positions = max_positions
        self.progress = progress

    def _count(self) -> None:
        self.positions += 1
        if self.positions > self.max_positions:
            raise _BudgetError

    def _stats(self, st: GameState):
        self._count()
        return bucket_stats(st.matrix, st.legal_rows, st.candidates, self.P)

    def win(self, st: GameState, d: int, bmax: int, top: bool = False) -> list[int] | None:
        """Guess rows that beat the host from ``st`` within ``d`` guesses, or None.

        ``bmax`` bounds how many groups any allowed guess can split ``st`` into: the most
        any guess achieved on an ancestor position (a subset never splits into more).
        """
        n = st.n_candidates
        if n == 1:
            row = int(st.candidate_rows[0])
            legal = not st.hard or st.constraints.violation(self.lex, row) is None
            return [row] if d >= 1 and legal else None
        if d < _lower_bound(n, bmax):
            return None
        key = st.key()
        if self.refuted.get(key, 0) >= d:
            return None
        rows = st.legal_rows
        is_cand = np.zeros(len(self.lex.guesses), dtype=bool)
        is_cand[st.candidate_rows] = True
        if d == 2:  # won in two only by a guess that leaves every word on its own
            self._count()
            ordered = rows[np.lexsort((rows, ~is_cand[rows]))]
            i = first_perfect_split(st.matrix, ordered, st.candidates, self.P)
            if i >= 0:
                g = int(ordered[i])
                child = st.apply(g, evil_reply(st.matrix, st.candidates, g, self.P))
                if child.solved:
                    return [g]
                return [g, int(child.candidate_rows[0])]
            self.refuted[key] = d
            return None
        stats = self._stats(st)
        bmax = min(bmax, int(stats.buckets.max()))
        order = np.lexsort((rows, ~is_cand[rows], stats.largest))
        seen: set[bytes] = set()
        it: Iterable[int] = order
        if top and self.progress:
            from tqdm import tqdm

            it = tqdm(order, desc=f"depth {d}", unit="guess", file=sys.stderr, leave=False)
        for i in it:
            size = int(stats.largest[i])
            if size >= n:
                break  # sorted: every remaining guess leaves everything in play
            if _lower_bound(size, bmax) > d - 1:
                break  # sorted by size: no later guess can do better
            g = int(rows[i])
            pat = int(stats.worst[i])
            child_c = st.candidates[np.asarray(st.matrix[g, st.candidates]) == pat]
            if not st.hard:
                sig = child_c.tobytes()
                if sig in seen:
                    continue
                seen.add(sig)
            child = st.apply(g, pat)
            rest = self.win(child, d - 1, bmax)
            if rest is not None:
                return [g, *rest]
        self.refuted[key] = d
        return None


def evil_solve(
    lexicon: Lexicon, hard: bool = False, matrix: np.ndarray | None = None,
    max_depth: int = 12, max_positions: int = 2_000_000, progress: bool = False,
) -> EvilSolution:
    """The shortest guess sequence that beats :class:`EvilHost`, with its proof."""
    t0 = time.perf_counter()
    root = GameState.new(lexicon, hard, matrix)
    search = _Search(root, max_positions, progress)
    lb = _lower_bound(root.n_candidates, lexicon.n_patterns)
    depths: list[dict[str, object]] = []
    found: list[int] | None = None
    proven = lb
    for d in range(lb, max_depth + 1):
        t = time.perf_counter()
        before = search.positions
        try:
            found = search.win(root, d, lexicon.n_patterns, top=True)
        except _BudgetError:
            depths.append({"depth": d, "result": "search limit reached",
                           "positions": search.positions - before,
                           "seconds": round(time.perf_counter() - t, 3)})
            break
        depths.append({"depth": d, "result": "win found" if found else "impossible (exhaustive)",
                       "positions": search.positions - before,
                       "seconds": round(time.perf_counter() - t, 3)})
        if found:
            proven = d
            break
        proven = d + 1
    guesses, replies = [], []
    if found:
        host = EvilHost(root)
        for g in found:
            replies.append(pattern_to_str(host.guess(g), lexicon.length))
            guesses.append(lexicon.guesses[g])
        if not host.solved:  # the search and the host disagree: a bug, never a result
            raise WordleError("internal error: evil-solve sequence does not beat the host")
    return EvilSolution(lexicon.name, hard, guesses, replies, len(found) if found else None,
                        proven, search.positions, time.perf_counter() - t0, depths)
