"""Game state: what is known after some guesses, as plain immutable values.

A :class:`GameState` is the only thing a strategy sees: the candidate answers (answer
indices), the history of (guess row, pattern) pairs, the mode, and in hard mode the
obligations that restrict the next guess. ``apply`` returns a new state, so trees,
search and interactive undo can all share states freely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from wordle_core.errors import InconsistentHistoryError, WordleError
from wordle_core.game.feedback import all_green, parse_feedback, pattern_to_str
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import compute_patterns, pattern_matrix
from wordle_core.game.rules import HardConstraints, filter_candidates


@dataclass(frozen=True, eq=False)
class GameState:
    lexicon: Lexicon
    matrix: np.ndarray = field(repr=False)
    candidates: np.ndarray = field(repr=False)
    history: tuple[tuple[int, int], ...] = ()
    hard: bool = False
    constraints: HardConstraints = field(default_factory=HardConstraints)
    # hard mode: rows known to hold every legal guess (the parent's legal rows: obligations
    # only tighten), so legal_rows filters these instead of every guess; None: every guess
    legal_within: np.ndarray | None = field(default=None, repr=False)

    @classmethod
    def new(
        cls, lexicon: Lexicon, hard: bool = False, matrix: np.ndarray | None = None
    ) -> GameState:
        mat = pattern_matrix(lexicon) if matrix is None else matrix
        cands = np.arange(len(lexicon.answers), dtype=np.int32)
        return cls(lexicon, mat, cands, (), hard)

    @classmethod
    def from_history(
        cls,
        lexicon: Lexicon,
        history: list[tuple[str, str]],
        hard: bool = False,
        matrix: np.ndarray | None = None,
    ) -> GameState:
        """Replay ``[(word, feedback), ...]``; checks words, feedback and hard-mode legality."""
        codes = [parse_feedback(fb, lexicon.length) for _, fb in history]
        solved_at = next((i for i, c in enumerate(codes[:-1]) if c == all_green(lexicon.length)), None)
        if solved_at is not None:
            word, fb = history[solved_at]
            nxt = history[solved_at + 1]
            raise InconsistentHistoryError(
                f"the game was already solved by {word}:{fb} (guess {solved_at + 1}); "
                f"nothing can follow it, but {nxt[0]}:{nxt[1]} does"
            )
        state = cls.new(lexicon, hard, matrix)
        for (word, _), code in zip(history, codes, strict=True):
            state = state.apply(lexicon.guess_id(word), code)
        return state

    # --- derived -------------------------------------------------------------------
    @property
    def n_candidates(self) -> int:
        return int(self.candidates.shape[0])

    @property
    def turn(self) -> int:
        """Number of guesses made so far."""
        return len(self.history)

    @property
    def guesses_left(self) -> int:
        return self.lexicon.max_guesses - len(self.history)

    @property
    def solved(self) -> bool:
        return bool(self.history) and self.history[-1][1] == all_green(self.lexicon.length)

    @cached_property
    def legal_rows(self) -> np.ndarray:
        """Guess rows a strategy may play now (every guess in normal mode)."""
        if not self.hard or self.constraints.empty:
            return np.arange(len(self.lexicon.guesses), dtype=np.int32)
        return self.constraints.legal_rows(self.lexicon, self.legal_within)

    @cached_property
    def candidate_rows(self) -> np.ndarray:
        """Guess rows of the remaining candidate answers."""
        return self.lexicon.answer_rows[self.candidates]

    def key(self) -> tuple[bytes, HardConstraints | None]:
        """Identity of the position for memoisation (candidates + hard obligations)."""
        return (self.candidates.tobytes(), self.constraints if self.hard else None)

    # --- transitions -----------------------------------------------------------------
    def apply(self, guess_row: int, pattern: int) -> GameState:
        """The state after playing ``guess_row`` and seeing ``pattern``.

        Raises :class:`HardModeViolation` for an illegal hard-mode guess and
        :class:`InconsistentHistoryError` when no answer fits the feedback.
        """
        if self.hard:
            self.constraints.check(self.lexicon, guess_row)
        cands = filter_candidates(self.matrix, self.candidates, guess_row, pattern)
        if cands.shape[0] == 0:
            word = self.lexicon.guesses[guess_row]
            fb = pattern_to_str(pattern, self.lexicon.length)
            raise InconsistentHistoryError(
                f"no {self.lexicon.name} answer fits {word}:{fb} after the earlier feedback"
            )
        cons = self.constraints
        within = None
        if self.hard:
            cons = cons.add(self.lexicon.guess_codes[guess_row], pattern)
            within = self.__dict__.get("legal_rows")  # the parent's, when it was computed
        return GameState(
            self.lexicon, self.matrix, cands,
            (*self.history, (int(guess_row), int(pattern))), self.hard, cons, within,
        )

    def play(self, guess_row: int, answer_id: int) -> GameState:
        """Apply the feedback that ``answer_id`` would show (simulation)."""
        return self.apply(guess_row, int(self.matrix[guess_row, answer_id]))

    def candidate_words(self) -> list[str]:
        return [self.lexicon.answers[i] for i in self.candidates]

    def history_words(self) -> list[tuple[str, str]]:
        L = self.lexicon
        return [(L.guesses[g], pattern_to_str(p, L.length)) for g, p in self.history]


def parse_history(text: str) -> list[tuple[str, str]]:
    """Parse ``salet:bybgb,crane:bbbbb`` into ``[("salet", "bybgb"), ...]``."""
    from wordle_core.errors import FeedbackError

    pairs = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        if ":" not in item:
            raise FeedbackError(f"history item {item!r} must look like WORD:FEEDBACK")
        word, fb = item.rsplit(":", 1)
        pairs.append((word.strip(), fb.strip()))
    return pairs


# --- the same history in another built-in game -------------------------------------------
OTHER_GAMES = ("nyt2023", "wordle", "nyt", "nyt14855")
"""The built-in word games a history or word that does not fit the chosen game is looked
for in, in this order (the ``-all`` variants accept almost any history; Primel and Nerdle
use other symbols)."""


def answers_fitting(lexicon: Lexicon, history: list[tuple[str, str]]) -> int | None:
    """How many of ``lexicon``'s answers fit ``[(word, feedback), ...]`` (normal-mode rule).

    None when a word is not one of its guesses or a feedback does not parse for its length.
    """
    rows, codes = [], []
    for word, fb in history:
        row = lexicon.guess_index.get(word.strip().lower())
        if row is None:
            return None
        try:
            codes.append(parse_feedback(fb, lexicon.length))
        except WordleError:
            return None
        rows.append(row)
    if not rows:
        return len(lexicon.answers)
    patterns = compute_patterns(lexicon.guess_codes[rows], lexicon.answer_codes)
    return int((patterns == np.array(codes)[:, None]).all(axis=0).sum())


def games_fitting(history: list[tuple[str, str]], besides: str) -> list[tuple[str, int]]:
    """``(game, answers that fit)`` for every game of :data:`OTHER_GAMES` but ``besides``
    where ``history`` fits at least one answer, in that order.

    >>> games_fitting([("salet", "bybgb"), ("brine", "bbgby")], besides="wordle")
    [('nyt2023', 1)]
    """
    out = []
    for name in OTHER_GAMES:
        if name != besides:
            n = answers_fitting(load_lexicon(name), history)
            if n:
                out.append((name, n))
    return out


def games_with_word(word: str, besides: str, *, as_answer: bool = False) -> list[str]:
    """The games of :data:`OTHER_GAMES` but ``besides`` that accept ``word`` as a guess
    (``as_answer``: that may have it as the answer).

    >>> games_with_word("adieu", besides="wordle", as_answer=True)
    ['nyt2023']
    """
    w = word.strip().lower()
    out = []
    for name in OTHER_GAMES:
        lex = load_lexicon(name)
        if name != besides and w in (lex.answer_index if as_answer else lex.guess_index):
            out.append(name)
    return out


def history_hint(lexicon: Lexicon, history: list[tuple[str, str]]) -> str | None:
    """One line for a history no answer of ``lexicon`` fits, naming the games it fits, or
    None when it fits none of them.

    >>> from wordle_core.game.lexicon import load_lexicon
    >>> history_hint(load_lexicon("wordle"), [("salet", "bybgb"), ("brine", "bbgby")])
    'no answer of wordle fits this history; it fits nyt2023 (1 answer): try --lexicon nyt2023'
    """
    games = games_fitting(history, besides=lexicon.name)
    if not games:
        return None
    fits = ", ".join(f"{name} ({n:,} answer{'s' if n != 1 else ''})" for name, n in games)
    return f"no answer of {lexicon.name} fits this history; it fits {fits}: try --lexicon {games[0][0]}"


def word_hint(lexicon: Lexicon, word: str, *, as_answer: bool = False) -> str | None:
    """One line for a word ``lexicon`` does not accept (``as_answer``: never has as the
    answer), naming the games that do, or None when none does.

    >>> from wordle_core.game.lexicon import load_lexicon
    >>> word_hint(load_lexicon("wordle"), "adieu", as_answer=True)
    "'adieu' is never an answer in wordle; it is one in nyt2023: try --lexicon nyt2023"
    """
    games = games_with_word(word, besides=lexicon.name, as_answer=as_answer)
    if not games:
        return None
    w = word.strip().lower()
    if as_answer:
        return (f"{w!r} is never an answer in {lexicon.name}; it is one in {', '.join(games)}: "
                f"try --lexicon {games[0]}")
    return (f"{w!r} is not an allowed guess in {lexicon.name}; {', '.join(games)} "
            f"allow{'s' if len(games) == 1 else ''} it: try --lexicon {games[0]}")
