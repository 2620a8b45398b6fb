"""Multi-board play (Dordle 2, Quordle 4, Octordle 8): one guess goes to every board.

Each board has its own hidden answer and candidate set; a guess is scored on every
unsolved board at once. The strategy (``multi-entropy``) is the single-board entropy
rule summed over boards, with two rules that matter only with several boards:

1. **Finish a board that is down to one candidate.** Its answer is known; playing it
   costs a guess that every multi-board game has to spend anyway, and the feedback
   still splits the other boards. If several boards are down to one, the first
   board (in board order) is finished first.
2. Otherwise play the guess with the highest ``Σ_b [H_b(g) + P_b(g is the answer)]``
   over unsolved boards ``b``: expected information in bits plus the chance of
   solving that board now. Ties: a guess that is a candidate on some board, then
   alphabetical (the project's rule).

Per-board scores come from :func:`wordle_core.kernels.buckets.weighted_stats` (weights 1)
and are memoised by candidate set, so boards and games that reach the same set share
the work. Hard mode is not offered: the multi-board games have none.

The default guess limit is ``boards + 5`` (7, 9, 13: what Dordle, Quordle and
Octordle allow).
"""

from __future__ import annotations

import time
from collections import Counter, OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from wordle_core.errors import InconsistentHistoryError, WordleError
from wordle_core.game.feedback import all_green, parse_feedback, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.kernels.buckets import weighted_stats

MAX_TURNS = 40  # safety cap: a strategy that stops making progress must not loop forever


def default_limit(boards: int) -> int:
    """Guess limit of an N-board game: N + 5 (Dordle 7, Quordle 9, Octordle 13)."""
    return boards + 5


@dataclass(frozen=True, eq=False)
class MultiState:
    """Position of a multi-board game: per board its candidates and whether it is solved."""

    lexicon: Lexicon
    matrix: np.ndarray
    candidates: tuple[np.ndarray, ...]
    solved: tuple[bool, ...]
    history: tuple[tuple[int, tuple[int | None, ...]], ...] = ()  # (guess row, per-board pattern)

    @classmethod
    def new(cls, lexicon: Lexicon, boards: int, matrix: np.ndarray | None = None) -> MultiState:
        if boards < 1:
            raise WordleError(f"--boards must be at least 1, got {boards}")
        mat = pattern_matrix(lexicon) if matrix is None else matrix
        full = np.arange(len(lexicon.answers), dtype=np.int32)
        return cls(lexicon, mat, tuple(full for _ in range(boards)), (False,) * boards)

    @property
    def boards(self) -> int:
        return len(self.candidates)

    @property
    def turn(self) -> int:
        return len(self.history)

    @property
    def done(self) -> bool:
        return all(self.solved)

    def unsolved(self) -> list[int]:
        return [b for b, s in enumerate(self.solved) if not s]

    def apply(self, guess_row: int, patterns: list[int | None]) -> MultiState:
        """State after ``guess_row`` with one pattern per board (None for solved boards)."""
        if len(patterns) != self.boards:
            raise WordleError(f"expected feedback for {self.boards} boards, got {len(patterns)}")
        green = all_green(self.lexicon.length)
        cands, solved = list(self.candidates), list(self.solved)
        for b, pat in enumerate(patterns):
            if self.solved[b]:
                continue
            if pat is None:
                raise WordleError(f"board {b + 1} is not solved yet and needs feedback")
            keep = cands[b][self.matrix[guess_row, cands[b]] == pat]
            if keep.shape[0] == 0:
                word = self.lexicon.guesses[guess_row]
                raise InconsistentHistoryError(
                    f"board {b + 1}: no answer fits {word}:{pattern_to_str(pat, self.lexicon.length)}"
                )
            cands[b] = keep
            if pat == green:
                solved[b] = True
        hist = (*self.history, (int(guess_row), tuple(patterns)))
        return MultiState(self.lexicon, self.matrix, tuple(cands), tuple(solved), hist)

    def play(self, guess_row: int, answers: list[int]) -> MultiState:
        """Apply the feedback the hidden ``answers`` (one per board) would show."""
        pats = [None if s else int(self.matrix[guess_row, a])
                for a, s in zip(answers, self.solved, strict=True)]
        return self.apply(guess_row, pats)


class MultiEntropy:
    """Summed-entropy multi-board strategy (see the module docstring for the rules)."""

    name = "multi-entropy"

    def __init__(self, cache_size: int = 6000) -> None:
        self._cache: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._rows: np.ndarray | None = None

    def board_scores(self, state: MultiState, cands: np.ndarray) -> np.ndarray:
        """Per guess row: entropy over ``cands`` plus P(guess is the answer), memoised."""
        key = cands.tobytes()
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        lex = state.lexicon
        if self._rows is None or self._rows.shape[0] != len(lex.guesses):
            self._rows = np.arange(len(lex.guesses), dtype=np.int64)
        h, _, _ = weighted_stats(state.matrix, self._rows, cands, np.ones(cands.shape[0]), lex.n_patterns)
        h[lex.answer_rows[cands]] += 1.0 / cands.shape[0]
        h = h.astype(np.float64)
        h.setflags(write=False)
        self._cache[key] = h
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return h

    def choose(self, state: MultiState) -> int:
        open_boards = state.unsolved()
        if not open_boards:
            raise WordleError("every board is solved")
        for b in open_boards:
            if state.candidates[b].shape[0] == 1:
                return int(state.lexicon.answer_rows[state.candidates[b][0]])
        total = np.zeros(len(state.lexicon.guesses))
        is_cand = np.zeros(len(state.lexicon.guesses), dtype=bool)
        for b in open_boards:
            total += self.board_scores(state, state.candidates[b])
            is_cand[state.lexicon.answer_rows[state.candidates[b]]] = True
        key = np.round(-total, 9)
        order = np.lexsort((np.arange(len(key)), ~is_cand, key))
        return int(order[0])


MULTI_STRATEGIES = {"multi-entropy": MultiEntropy}


def get_multi_strategy(name: str) -> MultiEntropy:
    try:
        return MULTI_STRATEGIES[name]()
    except KeyError:
        raise WordleError(
            f"unknown multi-board strategy {name!r}; choose one of {', '.join(MULTI_STRATEGIES)}"
        ) from None


@dataclass
class MultiGame:
    """One played multi-board game."""

    answers: list[int]
    guesses: list[int]
    solved_turn: list[int]  # per board: the guess number that solved it (1-based)

    @property
    def length(self) -> int:
        return max(self.solved_turn)


def play_game(
    strategy: MultiEntropy, lexicon: Lexicon, answers: list[int], opener: str | None = None,
    matrix: np.ndarray | None = None,
) -> MultiGame:
    """Play one game against known ``answers`` (answer ids, one per board)."""
    state = MultiState.new(lexicon, len(answers), matrix)
    solved_turn = [0] * len(answers)
    guesses: list[int] = []
    guess = lexicon.guess_id(opener) if opener else strategy.choose(state)
    while True:
        state = state.play(guess, answers)
        guesses.append(guess)
        for b, s in enumerate(state.solved):
            if s and not solved_turn[b]:
                solved_turn[b] = state.turn
        if state.done:
            return MultiGame(list(answers), guesses, solved_turn)
        if state.turn >= MAX_TURNS:
            raise WordleError(f"multi-board strategy made no progress after {MAX_TURNS} guesses")
        guess = strategy.choose(state)


def seeded_answer_sets(lexicon: Lexicon, boards: int, games: int, seed: int) -> np.ndarray:
    """``games`` x ``boards`` answer ids: distinct within a game, reproducible from ``seed``."""
    n = len(lexicon.answers)
    if boards > n:
        raise WordleError(f"{boards} boards need {boards} different answers; {lexicon.name} has {n}")
    rng = np.random.default_rng(seed)
    # Top-`boards` of a random key per answer = a uniform sample without replacement.
    keys = rng.random((games, n))
    return np.argsort(keys, axis=1, kind="stable")[:, :boards].astype(np.int32)


def simulate_multi(
    lexicon: Lexicon, boards: int, games: int = 1000, seed: int = 0, opener: str | None = "salet",
    limit: int | None = None, strategy: str = "multi-entropy", matrix: np.ndarray | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``games`` seeded N-board games; mean guesses, failure rate, distribution, time."""
    limit = default_limit(boards) if limit is None else limit
    if opener and opener not in lexicon.guess_index:
        opener = lexicon.normalise(opener)
    strat = get_multi_strategy(strategy)
    sets = seeded_answer_sets(lexicon, boards, games, seed)
    mat = pattern_matrix(lexicon) if matrix is None else matrix
    lengths = np.zeros(games, dtype=np.int32)
    t0 = time.perf_counter()
    it: Iterable[int] = range(games)
    if progress:
        from tqdm import tqdm

        it = tqdm(it, desc=f"{boards}-board games", unit="game", leave=False)
    worst: tuple[int, list[int]] = (0, [])
    for i in it:
        game = play_game(strat, lexicon, [int(a) for a in sets[i]], opener, mat)
        lengths[i] = game.length
        if game.length > worst[0]:
            worst = (game.length, game.answers)
    secs = time.perf_counter() - t0
    hist = Counter(int(x) for x in lengths)
    return {
        "lexicon": lexicon.name,
        "boards": boards,
        "strategy": strategy,
        "opener": opener or "(strategy's choice)",
        "games": games,
        "seed": seed,
        "limit": limit,
        "mean_guesses": float(lengths.mean()),
        "max_guesses": int(lengths.max()),
        "failures": int((lengths > limit).sum()),
        "failure_rate": float((lengths > limit).mean()),
        "guess_distribution": {str(k): hist[k] for k in sorted(hist)},
        "worst_game": [lexicon.answers[a] for a in worst[1]],
        "seconds": round(secs, 2),
        "ms_per_game": round(1000 * secs / games, 2),
    }


def parse_multi_history(text: str, lexicon: Lexicon, boards: int) -> list[tuple[str, list[int | None]]]:
    """Parse ``salet:bybgb/bbbbb/...,crane:...``: per guess, one feedback per board.

    Boards solved earlier may be given as ``-`` (or their ``ggggg`` repeated); feedback
    lists must have exactly ``boards`` entries.
    """
    out: list[tuple[str, list[int | None]]] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        if ":" not in item:
            raise WordleError(f"history item {item!r} must look like WORD:FB1/FB2/...")
        word, fbs = item.rsplit(":", 1)
        parts = [p.strip() for p in fbs.split("/")]
        if len(parts) != boards:
            raise WordleError(f"{word.strip()}: {len(parts)} feedbacks given for {boards} boards")
        pats: list[int | None] = [None if p in ("-", "") else parse_feedback(p, lexicon.length)
                                  for p in parts]
        out.append((word.strip(), pats))
    return out


def replay(lexicon: Lexicon, boards: int, history: list[tuple[str, list[int | None]]],
           matrix: np.ndarray | None = None) -> MultiState:
    """The position after a parsed multi-board history (repeated greens on solved boards ok)."""
    state = MultiState.new(lexicon, boards, matrix)
    for word, pats in history:
        row = lexicon.guess_id(word)
        fixed = [None if state.solved[b] else p for b, p in enumerate(pats)]
        state = state.apply(row, fixed)
    return state
