"""Game state: what is known after some guesses, as plain immutable values.

A :class:`GameState` is the only thing a strategy sees: the candidate answers (answer
indices), the history of (guess row, pattern) pairs, the mode, and in hard mode the
obligations that restrict the next guess. ``apply`` returns a new state, so trees,
search and interactive undo can all share states freely. Histories in words (parsing,
the replay's checks, the hints naming another game) are :mod:`wordle_core.game.history`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from wordle_core.game.feedback import all_green, pattern_to_str
from wordle_core.game.history import no_answer_fits, replay
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
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
        """Replay ``[(word, feedback), ...]``; checks words, feedback and hard-mode legality
        (:func:`wordle_core.game.history.replay`, as the word-level replay does)."""
        return replay(lambda: cls.new(lexicon, hard, matrix), lexicon, history)

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
            raise no_answer_fits(self.lexicon, guess_row, pattern)
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
